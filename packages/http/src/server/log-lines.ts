/**
 * Logs a person reads: on a terminal the server prints `12:04:05 INFO  message` lines, URLs and the
 * admin token in bold, warnings and errors in colour; JSON lines (pino's own) when stdout is not a
 * terminal or QUARRY_LOG_FORMAT=json, for log collectors.
 */
import { Writable } from 'node:stream';

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const levelColours: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' };
const bold = (text: string) => `\u001b[1m${text}\u001b[22m`;
const reset = '\u001b[0m';

/** Whether the server's log should be readable lines (`auto`: when stdout is a terminal). */
export function isReadableLog(format: 'auto' | 'json' | 'pretty', isTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && isTerminal);
}

/** One pino JSON line as a readable line (the input itself when it is not JSON). */
export function formatLogLine(line: string, colour = true): string {
  let entry: { level?: number; time?: number; msg?: string; err?: { message?: string }; [key: string]: unknown };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return line;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toISOString().slice(11, 19);
  const level = (levelNames[entry.level ?? 30] ?? 'INFO').padEnd(5);
  let message = String(entry.msg ?? '');
  if (entry.err?.message && !message.includes(entry.err.message)) message += `: ${entry.err.message}`;
  if (!colour) return `${time} ${level} ${message}`;
  const highlighted = message
    .replace(/https?:\/\/\S+/g, (url) => bold(url))
    .replace(/(admin token[^:]*:\s*)(\S+)/i, (_all, label: string, token: string) => `${label}${bold(token)}`);
  const tint = levelColours[entry.level ?? 30];
  return tint ? `${time} ${tint}${level}${reset} ${highlighted}` : `${time} ${level} ${highlighted}`;
}

/** A stream for the server's logger that writes readable lines to `out`. */
export function readableLogStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk, _encoding, done) {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') out.write(`${formatLogLine(line)}\n`);
      done();
    },
  });
}
