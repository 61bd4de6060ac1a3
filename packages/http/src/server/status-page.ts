import type { Frontier, JobProgress, JobRecord, PageResults, ScrapeDocument } from '@quarry/core';

/**
 * One page of a crawl or batch status. Documents in completion order from `skip`, at most `limit`
 * and at most 10 MB of JSON (always at least one document). `next` is given only when finished
 * documents were left out of this response, never for documents that are not finished yet (the
 * SDKs would spin on it), and it is absent, not null, on the last page (the v1 SDK needs that).
 */
export const statusPageLimits = { defaultLimit: 100, maxLimit: 1_000, maxBytes: 10 * 1024 * 1024 } as const;

export interface StatusPage {
  success: true;
  status: JobRecord['status'];
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  next?: string;
  data: ScrapeDocument[];
  error?: string;
}

export async function statusPage(
  jobs: Frontier & PageResults,
  job: JobRecord,
  query: { skip: number; limit: number | undefined },
  nextUrl: (skip: number, limit: number | undefined) => string,
): Promise<StatusPage> {
  const progress: JobProgress = await jobs.progress(job.id);
  const limit = Math.min(query.limit ?? statusPageLimits.defaultLimit, statusPageLimits.maxLimit);
  const candidates = await jobs.listDocuments(job.id, query.skip, limit);
  const data: ScrapeDocument[] = [];
  let bytes = 0;
  for (const document of candidates) {
    const size = Buffer.byteLength(JSON.stringify(document));
    if (data.length > 0 && bytes + size > statusPageLimits.maxBytes) break;
    bytes += size;
    data.push(document);
  }
  const finishedAfter = progress.completed - (query.skip + data.length);
  const page: StatusPage = {
    success: true,
    status: job.status,
    completed: progress.completed,
    total: job.status === 'scraping' ? progress.total : Math.max(progress.completed, progress.total - progress.pending),
    creditsUsed: progress.creditsUsed,
    expiresAt: new Date(job.expiresAt).toISOString(),
    data,
    ...(job.error ? { error: job.error } : {}),
  };
  if (finishedAfter > 0 && data.length > 0) page.next = nextUrl(query.skip + data.length, query.limit);
  return page;
}
