/**
 * Quarry CLI variant: `quarry crawl <url> --json` as a user runs it (whole site, markdown, main
 * content), its JSON lines counted here. CPU and peak RSS are the CLI process's own, start-up
 * included.
 *
 *   node run-cli.mjs <siteUrl> <outFile> [concurrency=16]
 *
 * CRAWL_EXCLUDE (comma-separated regexes) becomes --exclude-paths. `markdownHash`: sha256 of every
 * page's URL and markdown, in sorted order (the same output before and after an optimization).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { spawnCliCrawl } from './cli-crawl.mjs';
import { meterProcess } from './process-meter.mjs';

const [siteUrl, outFile, concurrency = '16'] = process.argv.slice(2);
if (!siteUrl || !outFile) throw new Error('usage: run-cli.mjs <siteUrl> <outFile> [concurrency]');
const started = performance.now();
const child = spawnCliCrawl(siteUrl, { concurrency });
const meter = meterProcess(child.pid);
let pages = 0;
let errors = 0;
let markdownChars = 0;
const urls = [];
const pageHashes = [];
for await (const line of createInterface({ input: child.stdout })) {
  const record = JSON.parse(line);
  if (record.error) {
    errors++;
    if (errors <= 3) console.error(`cli: ${record.url}: ${record.error.message ?? record.error}`);
  } else {
    pages++;
    markdownChars += record.markdown?.length ?? 0;
    const url = record.metadata.url ?? record.metadata.sourceURL;
    urls.push(url);
    pageHashes.push(
      createHash('sha256')
        .update(url)
        .update('\0')
        .update(record.markdown ?? '')
        .digest('hex') + url,
    );
  }
}
const code = await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(child.exitCode)));
const wallMs = performance.now() - started;
const { cpuMs, maxRssMb } = meter.stop();
if (code !== 0) throw new Error(`quarry crawl exited with ${code}`);
writeFileSync(
  outFile,
  JSON.stringify({
    variant: 'cli',
    pages,
    errors,
    wallMs,
    cpuMs,
    maxRssMb,
    markdownChars,
    urls,
    markdownHash: createHash('sha256').update(pageHashes.sort().join('\n')).digest('hex').slice(0, 16),
  }),
);
