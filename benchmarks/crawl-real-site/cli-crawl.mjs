/**
 * The benchmark's CLI crawl: `quarry crawl <url> --json` over the whole site at the given
 * concurrency, 127.0.0.1 allowed, `CRAWL_EXCLUDE` (or `exclude`) as `--exclude-paths`. Shared by
 * run-cli.mjs and the per-thread tools, so that they all measure the same crawl.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '../../packages/http/bin/quarry.js');

/** Starts the crawl; `stdout`: 'pipe' to read its JSON lines, 'ignore' otherwise. */
export function spawnCliCrawl(url, { concurrency = '16', exclude = process.env.CRAWL_EXCLUDE, stdout = 'pipe' } = {}) {
  const args = [cli, 'crawl', url, '--json', '--limit', '100000', '--crawl-entire-domain', '--max-concurrency', String(concurrency)];
  args.push('--allow-private-hosts', '127.0.0.1', ...(exclude ? ['--exclude-paths', exclude] : []));
  return spawn(process.execPath, args, { stdio: ['ignore', stdout, 'inherit'], env: { ...process.env, QUARRY_LOG_FORMAT: 'json' } });
}
