/**
 * The knobs each surface offers, for the fixes its errors name: the CLI's flags, the server's
 * environment variables. (Used as a library, the adapters and core name their own options.)
 */
export type Surface = 'cli' | 'server';

export interface SurfaceHints {
  /** After "Refused to connect to HOST: ...;". */
  privateHosts: string;
  /** After "`screenshot` needs the browser engine, which is not available ...:". */
  browser: string;
}

export const surfaceHints: Record<Surface, SurfaceHints> = {
  cli: {
    privateHosts: 'allow it with --allow-private-hosts [hosts]',
    browser: 'install Chromium (apt-get install chromium) or point QUARRY_CHROMIUM_PATH at one',
  },
  server: {
    privateHosts: 'the operator can allow it with QUARRY_ALLOW_PRIVATE_HOSTS',
    browser: 'the operator can enable it by installing Chromium (apt-get install chromium) or setting QUARRY_CHROMIUM_PATH',
  },
};
