/**
 * Crawlee variant: CheerioCrawler (got-scraping + cheerio), turndown + gfm on every page, links
 * followed with enqueueLinks (same hostname), storage in memory only.
 *
 *   node run-crawlee.mjs <siteUrl> <outFile> [concurrency=16]
 *
 * CRAWL_EXCLUDE (comma-separated regexes of paths) leaves matching links out, as Quarry's excludePaths.
 *
 * Links with a section anchor (`page.html#install`) are left out, as Firecrawl's and Quarry's
 * frontier refuse them (`noSections`; a fragment holding a route, `#/docs` or `#!/a`, is followed).
 * Crawlee drops the fragment and follows such a link: on Sphinx sites that reaches pages linked
 * only with an anchor (viewcode's `_modules/`, intersphinx links to absolute `/usr/share/doc/`
 * paths, 404 here), which the Quarry side never fetches, so the page sets differed. A Crawlee user
 * gets the same rule with `transformRequestFunction`, as below.
 *
 * Concurrency is fixed (min = max) like Quarry's, so the autoscaler neither ramps up slowly nor
 * runs more requests at once than Quarry does.
 */
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';
// @ts-expect-error turndown ships no types
import TurndownService from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no types
import { gfm } from 'turndown-plugin-gfm';
import { runnerArguments, startMeasuring } from './measure.mjs';

const { siteUrl, outFile, concurrency } = runnerArguments();
log.setLevel(log.LEVELS.WARNING);
const finish = startMeasuring('crawlee', outFile);

// turndown configured as users do for GFM: ATX headings, fenced code, the gfm plugin, scripts removed.
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);
turndown.remove(['script', 'style', 'noscript', 'template']);
// turndown-plugin-gfm throws on some tables (a cell outside a row, `Cannot read properties of null`); a
// user's handler catches that and converts the page again without the plugin, so the page counts as
// crawled with plain-turndown markdown instead of failing the request (and its links).
const plainTurndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
plainTurndown.remove(['script', 'style', 'noscript', 'template']);
let gfmFallbacks = 0;
/** @param {string} html */
const toMarkdown = (html) => {
  try {
    return turndown.turndown(html);
  } catch (error) {
    gfmFallbacks++;
    if (gfmFallbacks <= 3) console.error(`crawlee: turndown-plugin-gfm threw (${error.message}); plain turndown`);
    try {
      return plainTurndown.turndown(html);
    } catch {
      return '';
    }
  }
};

const exclude = (process.env.CRAWL_EXCLUDE ?? '')
  .split(',')
  .filter(Boolean)
  .map((pattern) => new RegExp(pattern));
/** Firecrawl's `noSections`: a fragment that is not a route (longer than one character, with a `/`). */
const refuseSectionAnchors = (request) => {
  const at = request.url.indexOf('#');
  if (at < 0) return request;
  const fragment = request.url.slice(at + 1);
  return fragment.length > 1 && fragment.includes('/') ? request : false;
};
let pages = 0;
let errors = 0;
let markdownChars = 0;
/** @type {string[]} */
const urls = [];
const crawler = new CheerioCrawler(
  {
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestsPerCrawl: 100_000,
    maxRequestRetries: 0,
    async requestHandler({ request, body, enqueueLinks }) {
      markdownChars += toMarkdown(body.toString()).length;
      pages++;
      urls.push(request.loadedUrl ?? request.url);
      await enqueueLinks({ ...(exclude.length ? { exclude } : {}), transformRequestFunction: refuseSectionAnchors });
    },
    failedRequestHandler({ request }, error) {
      errors++;
      if (errors <= 3) console.error(`crawlee: ${request.url}: ${error.message}`);
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true }),
);
await crawler.run([siteUrl]);
if (gfmFallbacks > 0) console.error(`crawlee: ${gfmFallbacks} pages converted without turndown-plugin-gfm`);
finish({ pages, errors, markdownChars, urls });
await crawler.teardown();
