import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * A status page longer than one piece (32 K characters) is written piece by piece (status-page.ts,
 * job-views.ts): over real HTTP it must arrive as the same JSON, with a Content-Length that is its
 * byte length (non-ASCII text included), and a short page as one string, as before.
 */
let site: TestServer;
let quarry: TestQuarry;

const paragraph = (index: number) => `<p>Paragraph ${index}: naïve café – “quoted” text, ${'lorem ipsum dolor '.repeat(20)}</p>`;
const page = (title: string, paragraphs: number) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${Array.from({ length: paragraphs }, (_, index) => paragraph(index)).join('')}</main></body></html>`;

beforeAll(async () => {
  site = await startTestServer({
    '/large-1': { body: page('Large one', 200) },
    '/large-2': { body: page('Large two', 150) },
    '/small': { body: page('Small', 1) },
  });
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function finishedBatch(urls: string[]): Promise<string> {
  const started = await fetch(`${quarry.url}/v1/batch/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ urls, formats: ['markdown', 'rawHtml'] }),
  }).then((response) => response.json());
  expect(started.success).toBe(true);
  for (let attempt = 0; attempt < 200; attempt++) {
    const status = await fetch(`${quarry.url}/v1/batch/scrape/${started.id}?limit=1`).then((response) => response.json());
    if (status.status === 'completed') return started.id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the batch did not complete');
}

async function rawStatus(id: string, query = '') {
  const response = await fetch(`${quarry.url}/v1/batch/scrape/${id}${query}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, body: JSON.parse(bytes.toString('utf8')) };
}

describe('status pages written in pieces', () => {
  it('answers a page of large documents as one JSON body whose Content-Length is its byte length', async () => {
    const id = await finishedBatch([`${site.url}/large-1`, `${site.url}/large-2`, `${site.url}/small`]);
    const { response, bytes, body } = await rawStatus(id);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    expect(body).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3 });
    expect(body.data).toHaveLength(3);
    const rawHtml = body.data.map((document: { rawHtml: string }) => document.rawHtml).sort();
    expect(rawHtml).toEqual([page('Large one', 200), page('Large two', 150), page('Small', 1)].sort());
    for (const document of body.data) expect(document.markdown).toContain('naïve café – “quoted”');
  });

  it('answers a short page as before', async () => {
    const id = await finishedBatch([`${site.url}/small`]);
    const { response, bytes, body } = await rawStatus(id, '?limit=1');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].rawHtml).toBe(page('Small', 1));
  });
});
