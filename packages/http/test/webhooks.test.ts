import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { docsSiteRoutes, startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { generate } from 'selfsigned';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** Webhooks from crawls and batches, received by a local HTTPS receiver, signed, with metadata echoed. */
const secret = 'test-webhook-secret';
let site: TestServer;
let quarry: TestQuarry;
let receiver: Server;
let receiverUrl: string;
let folder: string;
const received: Array<{ body: Record<string, any>; raw: string; headers: Record<string, string | string[] | undefined> }> = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quarry-webhooks-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as Parameters<typeof generate>[1]);
  await writeFile(join(folder, 'ca.pem'), pems.cert);
  receiver = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      received.push({ raw, body: JSON.parse(raw), headers: request.headers });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_WEBHOOK_SECRET: secret, QUARRY_WEBHOOK_CA_FILE: join(folder, 'ca.pem') });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

const eventsOf = (id: string) => received.filter((entry) => entry.body.id === id);

describe('webhooks', () => {
  it('sends crawl.started, one crawl.page per document and crawl.completed, signed, with metadata', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const job = await firecrawl.crawl(`${site.url}/blog/`, {
      webhook: { url: receiverUrl, metadata: { run: 'ci' }, events: ['started', 'page', 'completed'] },
      pollInterval: 1,
      timeout: 60,
    });
    expect(job.status).toBe('completed');
    // crawl.started comes before any page, and crawl.completed means nothing more is coming: once it
    // is here, every page is already here.
    const events = await waitFor(() => {
      const list = eventsOf(job.id!);
      return list.some((entry) => entry.body.type === 'crawl.completed') ? list : undefined;
    });
    const types = events.map((entry) => entry.body.type);
    expect(types[0]).toBe('crawl.started');
    expect(types.at(-1)).toBe('crawl.completed');
    expect(types.filter((type) => type === 'crawl.page')).toHaveLength(job.data.length);
    const pageIds = events
      .filter((entry) => entry.body.type === 'crawl.page')
      .map((entry) => entry.body.data[0].metadata.scrapeId)
      .sort();
    expect(pageIds).toEqual(job.data.map((document) => document.metadata?.scrapeId).sort());
    for (const entry of events) {
      expect(entry.body).toMatchObject({ success: true, id: job.id, metadata: { run: 'ci' }, webhookId: expect.any(String) });
      const signature = `sha256=${createHmac('sha256', secret).update(entry.raw).digest('hex')}`;
      expect(entry.headers['x-quarry-signature']).toBe(signature);
      expect(entry.headers['x-firecrawl-signature']).toBe(signature);
    }
  });

  it('sends batch_scrape events and honours the events filter', async () => {
    const response = await fetch(`${quarry.url}/v1/batch/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.url}/about`, `${site.url}/docs/`], webhook: { url: receiverUrl, events: ['completed'] } }),
    });
    const { id } = (await response.json()) as { id: string };
    await waitFor(() => eventsOf(id).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventsOf(id).map((entry) => entry.body.type)).toEqual(['batch_scrape.completed']);
  });

  it('refuses a plain http webhook unless the operator allows it', async () => {
    const response = await fetch(`${quarry.url}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/`, webhook: 'http://127.0.0.1:9/hook' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/https/);
  });
  // Last: creating a key turns authentication on for this server.
  it('signs with the team’s own secret when it has one', async () => {
    const ledger = quarry.services.ledger;
    await ledger.ensureTeam('signed', 'signed');
    await ledger.setWebhookSecret('signed', 'team-secret-123');
    const key = (await ledger.createKey('signed', 'ci')).key;
    const response = await fetch(`${quarry.url}/v2/batch/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ urls: [`${site.url}/about`], webhook: { url: receiverUrl, events: ['completed'] } }),
    });
    const { id } = (await response.json()) as { id: string };
    const [event] = await waitFor(() => (eventsOf(id).length > 0 ? eventsOf(id) : undefined));
    expect(event!.headers['x-quarry-signature']).toBe(`sha256=${createHmac('sha256', 'team-secret-123').update(event!.raw).digest('hex')}`);
    await ledger.revokeKey((await ledger.listKeys('signed'))[0]!.id);
  });
});
