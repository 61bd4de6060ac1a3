/**
 * CPU and peak RSS of another process (Linux /proc), for the variants that run Quarry as its own
 * program (the CLI, the server). Polls every 50 ms; the last reading before exit is kept, so at most
 * 50 ms of CPU is missed at the end.
 */
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100;

function read(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuMs, maxRssMb: hwm ? Number(hwm[1]) / 1024 : 0 };
  } catch {
    return undefined;
  }
}

/** Starts metering `pid`; `mark()` sets the CPU baseline (e.g. once the server is up), `stop()` returns the totals since it. */
export function meterProcess(pid) {
  let last = read(pid) ?? { cpuMs: 0, maxRssMb: 0 };
  let baseline = 0;
  /** An exited, not yet reaped process still has its CPU times in /proc but no VmHWM: keep the peak seen. */
  const update = () => {
    const next = read(pid);
    if (next) last = { cpuMs: next.cpuMs, maxRssMb: Math.max(last.maxRssMb, next.maxRssMb) };
  };
  const timer = setInterval(update, 50);
  return {
    mark() {
      update();
      baseline = last.cpuMs;
    },
    stop() {
      clearInterval(timer);
      update();
      return { cpuMs: last.cpuMs - baseline, maxRssMb: last.maxRssMb };
    },
  };
}
