import type { Command } from 'commander';
import { createSqliteStorage } from '@quarry/storage';
import { localTeamId, type CrawlOptionsInput, type DocumentCache, type PageIndex } from '@quarry/core';
import { privateHostsOverride } from './cli-flags.js';
import { buildEngine, loadConfig } from './compose.js';

/**
 * `quarry index <url>`: crawls a site into this instance's store (QUARRY_DATA_DIR, or
 * DATABASE_URL in the distributed mode), fetching every page fresh, so /search and map find its
 * pages. Prints one line per page and a summary.
 */
const list = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

interface IndexFlags {
  limit: number;
  includePaths?: string[];
  excludePaths?: string[];
  crawlEntireDomain?: boolean;
  sitemap?: 'include' | 'skip';
  allowPrivateHosts?: string | boolean;
  quiet?: boolean;
  team: string;
}

export function indexCommand(program: Command) {
  program
    .command('index')
    .description("Crawl a site into this instance's index, so /search finds its pages (stored in QUARRY_DATA_DIR or DATABASE_URL).")
    .argument('<url>', 'where the crawl starts')
    .option('--limit <n>', 'most pages to index', (value) => Number.parseInt(value, 10), 1_000)
    .option('--include-paths <regexes>', 'comma-separated regexes; only matching paths are indexed', list)
    .option('--exclude-paths <regexes>', 'comma-separated regexes; matching paths are skipped', list)
    .option('--crawl-entire-domain', 'follow links outside the start path')
    .option('--sitemap <mode>', 'include | skip')
    .option('--quiet', 'print only the summary')
    .option('--team <id>', 'the team whose index and cache receive the pages (each team sees only its own unless QUARRY_SHARED_INDEX=true)', localTeamId)
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)')
    .action(async (url: string, flags: IndexFlags) => {
      const config = loadConfig(process.env, privateHostsOverride(flags.allowPrivateHosts));
      const storage = config.DATABASE_URL
        ? await (await import('@quarry/storage/distributed')).createPostgresStorage({
            connectionString: config.DATABASE_URL,
            schema: config.QUARRY_PG_SCHEMA,
            maxConnections: 4,
            applicationName: 'quarry-index',
          })
        : createSqliteStorage({ dataDir: config.QUARRY_DATA_DIR });
      const stores: { documentCache: DocumentCache; pageIndex: PageIndex } = { documentCache: storage.documents, pageIndex: storage.pageIndex };
      const engine = buildEngine(config, undefined, stores, 'cli');
      const options: CrawlOptionsInput = {
        limit: flags.limit,
        ...(flags.includePaths ? { includePaths: flags.includePaths } : {}),
        ...(flags.excludePaths ? { excludePaths: flags.excludePaths } : {}),
        ...(flags.crawlEntireDomain ? { crawlEntireDomain: true } : {}),
        ...(flags.sitemap ? { sitemap: flags.sitemap } : {}),
        scrapeOptions: { formats: ['markdown'], maxAge: 0, storeInCache: true },
      };
      let indexed = 0;
      let failed = 0;
      try {
        for await (const event of engine.crawl(url, options, { teamId: flags.team })) {
          if (event.type === 'page') {
            indexed++;
            if (!flags.quiet) process.stdout.write(`indexed ${event.document.metadata.url}\n`);
          } else if (event.type === 'error') {
            failed++;
            process.stderr.write(`failed ${event.url}: ${event.error.message}\n`);
          } else if (event.type === 'done') {
            process.stdout.write(`${indexed} pages indexed, ${failed} failed (${event.status})\n`);
            if (event.status === 'failed') process.exitCode = 1;
          }
        }
      } finally {
        await engine.close();
        await storage.close();
      }
    });
}
