import { setFlagsFromString } from 'node:v8';
import { Command, Option } from 'commander';
import { asQuarryError, type ScrapeDocument, type ScrapeOptionsInput } from '@quarry/core';
import { crawlCommand, mapCommand } from './cli-crawl.js';
import { doctorCommand } from './cli-doctor.js';
import { indexCommand } from './cli-index.js';
import { mcpCommand } from './cli-mcp.js';
import { parseCommand } from './cli-parse.js';
import { keysCommands, serveCommand } from './cli-server.js';
import { workerCommand } from './cli-worker.js';
import { buildEngine, loadConfig } from './compose.js';
import { privateHostsOverride } from './cli-flags.js';

/**
 * The `quarry` command. Each subcommand parses its flags into API options, calls the engine and
 * prints; failures print one line and exit non-zero.
 */
export async function main(argv: string[]): Promise<void> {
  const program = new Command().name('quarry').description('Turn web pages into LLM-ready data.').showHelpAfterError().exitOverride();
  program.hook('preAction', (_program, command) => {
    if (longRunningCommands.has(command.name())) return;
    tuneHeapGrowth();
    tuneCompiler();
  });

  program
    .command('scrape')
    .description('Scrape one page and print it (markdown by default).')
    .argument('<url>', 'the page to scrape')
    .addOption(new Option('-f, --format <format>', 'what to print').choices(['markdown', 'html', 'rawHtml', 'links']).default('markdown'))
    .option('--no-main-content', 'keep the whole page, not only its main content')
    .option('--include-tags <selectors>', 'comma-separated CSS selectors of the only elements to keep')
    .option('--exclude-tags <selectors>', 'comma-separated CSS selectors of elements to remove')
    .option('--timeout <ms>', 'milliseconds allowed for the scrape', (value) => Number.parseInt(value, 10))
    .option('--json', 'print the whole document as JSON')
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)')
    .action(async (url: string, flags: ScrapeFlags) => {
      const engine = buildEngine(loadConfig(process.env, privateHostsOverride(flags.allowPrivateHosts)), undefined, {}, 'cli');
      try {
        const document = await engine.scrape(url, scrapeOptionsFromFlags(flags));
        process.stdout.write(render(document, flags));
        // A page cut at a per-page bound (QUARRY_MAX_*) says so; --json carries it in the document.
        if (document.warning && !flags.json) process.stderr.write(`quarry: warning: ${document.warning}\n`);
      } finally {
        await engine.close();
      }
    });

  parseCommand(program);
  crawlCommand(program);
  mapCommand(program);
  indexCommand(program);
  serveCommand(program);
  workerCommand(program);
  keysCommands(program);
  mcpCommand(program);
  doctorCommand(program);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      process.exitCode = (error as { exitCode?: number }).exitCode ?? 1;
      return;
    }
    const quarryError = asQuarryError(error);
    process.stderr.write(`quarry: ${quarryError.message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}

interface ScrapeFlags {
  format: 'markdown' | 'html' | 'rawHtml' | 'links';
  mainContent: boolean;
  includeTags?: string;
  excludeTags?: string;
  timeout?: number;
  json?: boolean;
  allowPrivateHosts?: string | boolean;
}

function scrapeOptionsFromFlags(flags: ScrapeFlags): ScrapeOptionsInput {
  const list = (value: string | undefined) =>
    value
      ? value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
      : [];
  return {
    formats: flags.json ? ['markdown', 'html', 'rawHtml', 'links'] : [flags.format],
    onlyMainContent: flags.mainContent,
    includeTags: list(flags.includeTags),
    excludeTags: list(flags.excludeTags),
    ...(flags.timeout !== undefined ? { timeout: flags.timeout } : {}),
  };
}

function render(document: ScrapeDocument, flags: ScrapeFlags): string {
  if (flags.json) return `${JSON.stringify(document, null, 2)}\n`;
  if (flags.format === 'links') return (document.links ?? []).map((link) => `${link}\n`).join('');
  const text = document[flags.format] ?? '';
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * V8 lets the old generation grow to 1.1-4x its live size after each full collection, by how fast
 * the program allocates: a crawl's main thread, promoting the pages that wait for a transform
 * worker, grew to ~110 MB of old space for ~60 MB live. 1.2x keeps the heap near what is live.
 * cmake-doc CLI crawl (benchmarks/crawl-real-site/README.md, issue 14 third pass): peak RSS
 * 306/304 -> 266/265 MB, CPU per page within the noise; `--optimize-for-size` reached ~200 MB but cost 40 % more
 * CPU. The flag is read at each full collection, so setting it at start applies to the whole run
 * (and to the transform workers, whose isolates start later).
 *
 * Not for the long-running commands: `serve` and `worker` keep more live data (stored pages, status
 * pages in flight), so 1.2x made them collect often on the main thread, which is what bounds their
 * pages/s on a loaded machine (README, "Issue 14, third pass: the server path").
 */
const longRunningCommands = new Set(['serve', 'worker']);

function tuneHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=20');
}

/**
 * A CLI run is short: on a small site the transform code is optimized while the crawl is already
 * half done. With inlining, each optimizing compile of a cleanup rule or walk takes in every helper
 * it calls, and a rule whose later branches had not run yet when it was compiled is thrown away and
 * compiled again: converting python-tornado-doc's 100 pages once, V8's background (compiler)
 * threads took ~1.3 s of CPU beside ~1 s for the transform, ~0.5 s without inlining. Without it,
 * 100-page crawls (tornado, flask, sphinx-doc) took 13-26 % less CPU per page and cmake-doc's 1,948
 * pages 6 % less (benchmarks/crawl-real-site/README.md, "Issue 14, ninth pass: the cold
 * transform"). `serve` and `worker` run long enough for the inlined code to pay its compiles back,
 * so they keep V8's default. Set before any command's work, so the transform workers (same
 * process, same flags) start with it.
 */
function tuneCompiler(): void {
  setFlagsFromString('--no-turbo-inlining');
}
