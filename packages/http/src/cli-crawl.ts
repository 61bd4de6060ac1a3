import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CrawlOptionsInput, MapOptionsInput, ScrapeDocument } from '@quarry/core';
import { privateHostsOverride } from './cli-flags.js';
import { CrawlProgress } from './cli-progress.js';
import { buildEngine, engineOf, loadConfig } from './compose.js';

/** `quarry crawl` and `quarry map`: the crawl rules as flags, output as files, JSON lines or URLs. */
const list = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
const integer = (value: string) => Number.parseInt(value, 10);

function ruleOptions(command: Command): Command {
  return command
    .option('--include-paths <regexes>', 'comma-separated regexes; only matching paths are crawled', list)
    .option('--exclude-paths <regexes>', 'comma-separated regexes; matching paths are skipped', list)
    .option('--max-discovery-depth <n>', 'link hops from the start page', integer)
    .option('--crawl-entire-domain', 'follow links outside the start path')
    .option('--allow-external-links', 'follow links to other sites')
    .option('--allow-subdomains', 'follow links to subdomains')
    .option('--ignore-query-parameters', 'treat URLs differing only in the query as one')
    .option('--ignore-robots-txt', 'do not read robots.txt')
    .option('--sitemap <mode>', 'include | skip | only (map)')
    .option('--delay <seconds>', 'seconds between requests', Number.parseFloat)
    .option('--max-concurrency <n>', 'pages fetched at once', integer)
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)');
}

interface RuleFlags {
  includePaths?: string[];
  excludePaths?: string[];
  maxDiscoveryDepth?: number;
  crawlEntireDomain?: boolean;
  allowExternalLinks?: boolean;
  allowSubdomains?: boolean;
  ignoreQueryParameters?: boolean;
  ignoreRobotsTxt?: boolean;
  sitemap?: 'include' | 'skip' | 'only';
  delay?: number;
  maxConcurrency?: number;
  allowPrivateHosts?: string | boolean;
}

export function crawlCommand(program: Command) {
  ruleOptions(
    program
      .command('crawl')
      .description('Crawl a site: one markdown file per page plus pages.jsonl, or JSON lines with --json.')
      .argument('<url>', 'where the crawl starts')
      .option('--limit <n>', 'most pages to crawl', integer, 100)
      .option('--out <dir>', 'folder for the markdown files and pages.jsonl', 'crawl-output')
      .option('--json', 'stream documents as JSON lines to stdout instead of writing files')
      .option('--no-main-content', 'keep whole pages, not only their main content'),
  ).action(async (url: string, flags: RuleFlags & { limit: number; out: string; json?: boolean; mainContent: boolean }) => {
    // Every crawl converts pages: the worker loads while robots.txt and the first page are fetched.
    const { engine } = engineOf(loadConfig(process.env, privateHostsOverride(flags.allowPrivateHosts)), { surface: 'cli', startTransformWorker: true });
    const options: CrawlOptionsInput = {
      ...rules(flags),
      ...(flags.sitemap && flags.sitemap !== 'only' ? { sitemap: flags.sitemap } : {}),
      limit: flags.limit,
      scrapeOptions: { formats: ['markdown'], onlyMainContent: flags.mainContent },
    };
    const progress = flags.json ? undefined : new CrawlProgress(process.stderr, flags.limit);
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    try {
      if (!flags.json) await mkdir(flags.out, { recursive: true });
      const index: string[] = [];
      const names = new Set<string>();
      for await (const event of engine.crawl(url, options, { signal: controller.signal })) {
        if (event.type === 'page') {
          if (flags.json) process.stdout.write(`${JSON.stringify(event.document)}\n`);
          else index.push(JSON.stringify(await writePage(flags.out, event.document, names)));
          progress?.page(event.progress);
        } else if (event.type === 'error') {
          if (flags.json) process.stdout.write(`${JSON.stringify({ url: event.url, error: event.error })}\n`);
          else index.push(JSON.stringify({ url: event.url, status: 'error', error: event.error.message }));
          progress?.error(event.progress);
        } else {
          progress?.finish(event.status, event.progress, event.robotsBlocked.length);
          if (!flags.json) await writeFile(join(flags.out, 'pages.jsonl'), index.map((line) => `${line}\n`).join(''));
          if (event.status === 'failed') throw new Error(event.error ?? 'crawl failed');
        }
      }
    } finally {
      process.off('SIGINT', onSignal);
      progress?.stop();
      await engine.close();
    }
  });
}

export function mapCommand(program: Command) {
  ruleOptions(
    program
      .command('map')
      .description('List the URLs of a site (sitemap plus a breadth-first walk), one per line.')
      .argument('<url>', 'the site')
      .option('--search <query>', 'rank URLs by relevance to a query')
      .option('--limit <n>', 'most URLs', integer)
      .option('--timeout <ms>', 'milliseconds allowed', integer)
      .option('--no-subdomains', 'leave out subdomains')
      .option('--json', 'print {url, title, description} objects as JSON lines'),
  ).action(async (url: string, flags: RuleFlags & { search?: string; limit?: number; timeout?: number; subdomains: boolean; json?: boolean }) => {
    const engine = buildEngine(loadConfig(process.env, privateHostsOverride(flags.allowPrivateHosts)), undefined, {}, 'cli');
    try {
      const options: MapOptionsInput = {
        ...(flags.search ? { search: flags.search } : {}),
        ...(flags.limit ? { limit: flags.limit } : {}),
        ...(flags.timeout ? { timeout: flags.timeout } : {}),
        ...(flags.sitemap ? { sitemap: flags.sitemap } : {}),
        ...(flags.ignoreQueryParameters !== undefined ? { ignoreQueryParameters: flags.ignoreQueryParameters } : {}),
        includeSubdomains: flags.subdomains,
      };
      const links = await engine.map(url, options);
      process.stdout.write(links.map((link) => `${flags.json ? JSON.stringify(link) : link.url}\n`).join(''));
    } finally {
      await engine.close();
    }
  });
}

function rules(flags: RuleFlags): CrawlOptionsInput {
  return {
    ...(flags.includePaths ? { includePaths: flags.includePaths } : {}),
    ...(flags.excludePaths ? { excludePaths: flags.excludePaths } : {}),
    ...(flags.maxDiscoveryDepth !== undefined ? { maxDiscoveryDepth: flags.maxDiscoveryDepth } : {}),
    ...(flags.crawlEntireDomain ? { crawlEntireDomain: true } : {}),
    ...(flags.allowExternalLinks ? { allowExternalLinks: true } : {}),
    ...(flags.allowSubdomains ? { allowSubdomains: true } : {}),
    ...(flags.ignoreQueryParameters ? { ignoreQueryParameters: true } : {}),
    ...(flags.ignoreRobotsTxt ? { ignoreRobotsTxt: true } : {}),
    ...(flags.delay !== undefined ? { delay: flags.delay } : {}),
    ...(flags.maxConcurrency !== undefined ? { maxConcurrency: flags.maxConcurrency } : {}),
  };
}

/** Writes a page's markdown to a file named after its URL path; returns its pages.jsonl record. */
async function writePage(out: string, document: ScrapeDocument, names: Set<string>) {
  const url = new URL(document.metadata.url);
  const base =
    `${url.hostname}${url.pathname}`
      .replace(/\/+$/, '')
      .replace(/[^a-zA-Z0-9._-]+/g, '_')
      .slice(0, 180) || 'index';
  let name = `${base}.md`;
  for (let counter = 2; names.has(name); counter++) name = `${base}-${counter}.md`;
  names.add(name);
  await writeFile(join(out, name), document.markdown ?? '');
  return { url: document.metadata.url, status: document.metadata.statusCode, title: document.metadata.title ?? null, file: name };
}
