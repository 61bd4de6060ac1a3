import { siteOf } from '../cache/cache-key.js';
import type { CrawlRules } from '../crawl/crawl-rules.js';
import { dedupKey } from '../crawl/url-normalize.js';
import type { FormatOf } from '../options/formats.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { ChangeHistory } from '../ports/change-history.js';
import type { FrontierEntry, JobRecord } from '../ports/job-store.js';

/**
 * Pages a crawl did not reach but the previous crawl of the same site (same team, same tag) did:
 * with changeTracking, the crawl scrapes them once more at its end and reports them with
 * `visibility: "hidden"` (as Firecrawl does), so a page dropped from the site's links still shows
 * whether it changed or was removed. They are items of the crawl like any other, marked by a
 * discovery depth of -1, so the work survives restarts; their links are not followed.
 *
 *   crawl out of work -> previousJobUrls(team, tag, site, this crawl) -> minus this crawl's keys
 *     -> items at depth -1 -> scraped with visibility hidden -> crawl completes
 */
export const hiddenPageDepth = -1;

export function changeTrackingOf(options: ScrapeOptions): FormatOf<'changeTracking'> | undefined {
  return options.formats.find((format): format is FormatOf<'changeTracking'> => format.type === 'changeTracking');
}

/** The frontier entries of the hidden pages (the job store drops keys the crawl already has). */
export async function hiddenPageEntries(history: ChangeHistory, job: JobRecord, rules: CrawlRules, scrapeOptions: ScrapeOptions): Promise<FrontierEntry[]> {
  const tracking = changeTrackingOf(scrapeOptions);
  if (!tracking) return [];
  const urls = await history.previousJobUrls(job.teamId, tracking.tag || null, siteOf(job.url), job.id);
  const entries = new Map<string, FrontierEntry>();
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    const key = dedupKey(parsed, rules.keyOptions);
    if (!entries.has(key)) entries.set(key, { url, key, discoveryDepth: hiddenPageDepth });
  }
  return [...entries.values()];
}
