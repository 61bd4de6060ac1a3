import type { Frontier, JobProgress, JobRecord, PageResults } from '@quarry/core';

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
  /** Each document as its JSON text, as the store holds it: written out as is, parsed only where needed. */
  data: string[];
  error?: string;
}

/** The documents' JSON texts from the store's own (no parse, no stringify), or stringified from `listDocuments`. */
function documentTexts(jobs: PageResults, jobId: string, skip: number, limit: number): Promise<string[]> {
  if (jobs.listDocumentTexts) return jobs.listDocumentTexts(jobId, skip, limit);
  return jobs.listDocuments(jobId, skip, limit).then((documents) => documents.map((document) => JSON.stringify(document)));
}

export async function statusPage(
  jobs: Frontier & PageResults,
  job: JobRecord,
  query: { skip: number; limit: number | undefined },
  nextUrl: (skip: number, limit: number | undefined) => string,
): Promise<StatusPage> {
  const progress: JobProgress = await jobs.progress(job.id);
  const limit = Math.min(query.limit ?? statusPageLimits.defaultLimit, statusPageLimits.maxLimit);
  const candidates = await documentTexts(jobs, job.id, query.skip, limit);
  const data: string[] = [];
  let bytes = 0;
  for (const document of candidates) {
    const size = Buffer.byteLength(document);
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

/** The page as its JSON body, the documents' texts spliced in as they are. */
export function statusPageBody(page: StatusPage): string {
  const { data, ...head } = page;
  return `${JSON.stringify(head).slice(0, -1)},"data":[${data.join(',')}]}`;
}

/** Characters per piece of a body written in pieces: a flat one-byte or two-byte string this long stays under V8's large-object size (128 KB). */
const pieceChars = 32 * 1024;

/**
 * The same body as `statusPageBody`, in pieces of about `pieceChars` (a longer document is a piece
 * of its own), and its length in UTF-8 bytes. A page of 100 documents is 1-3 MB of JSON: joined, it
 * was a flat string in V8's large-object space and copied again on its way to the socket, and the
 * pages an SDK reads one after the other piled up there until the next scavenge (+16-20 MB of a
 * server's peak RSS at the end of a crawl, issue 21d). Written piece by piece, each flattened piece
 * is young-generation garbage.
 */
export function statusPagePieces(page: StatusPage): { pieces: string[]; bytes: number } {
  const { data, ...head } = page;
  const opening = `${JSON.stringify(head).slice(0, -1)},"data":[`;
  let bytes = Buffer.byteLength(opening) + Math.max(0, data.length - 1) + 2;
  const pieces: string[] = [];
  let piece = opening;
  for (let index = 0; index < data.length; index++) {
    const text = data[index] as string;
    bytes += Buffer.byteLength(text);
    if (piece.length > 0 && piece.length + text.length > pieceChars) {
      pieces.push(piece);
      piece = '';
    }
    piece += index === 0 ? text : `,${text}`;
  }
  pieces.push(`${piece}]}`);
  return { pieces, bytes };
}
