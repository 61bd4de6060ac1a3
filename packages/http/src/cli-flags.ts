// Flag handling every `quarry` subcommand shares; its own module so the subcommand files need not import cli.ts.

/** `--allow-private-hosts [hosts]` as a config override: added to QUARRY_ALLOW_PRIVATE_HOSTS, `*` when given bare. */
export function privateHostsOverride(flag: string | boolean | undefined): { QUARRY_ALLOW_PRIVATE_HOSTS?: string } {
  if (flag === undefined || flag === false) return {};
  const fromEnv = process.env.QUARRY_ALLOW_PRIVATE_HOSTS ?? '';
  const fromFlag = flag === true ? '*' : flag;
  return { QUARRY_ALLOW_PRIVATE_HOSTS: [fromEnv, fromFlag].filter(Boolean).join(',') };
}
