/** Small helpers the hostile-shape scripts share: a command-line value and a call's CPU time. */

/** The value after `name` on the command line, if given. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** CPU ms of one call (user + system of this process: the machine may be shared). */
export function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
