import { spawn } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCrawlRequest } from '@quarry/core';
import { ManualClock, queueMessage } from '@quarry/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStorage, migrations, openSqlite } from '../src/index.js';
import { tempDirs } from './temp-dirs.js';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const job = (id: string) => ({
  id,
  kind: 'crawl' as const,
  teamId: 'team-a',
  status: 'scraping' as const,
  url: 'https://example.com/',
  request: { version: 'v2' as const, options: parseCrawlRequest('v2', { url: 'https://example.com/' }).options },
  createdAt: 1,
  expiresAt: 2,
  kickoffDone: true,
});

describe('SQLite durability', () => {
  it('brings back the messages of a closed connection once their leases expire', async () => {
    const dataDir = dirs.make();
    const clock = new ManualClock();
    const first = createSqliteStorage({ dataDir, clock });
    await first.jobs.createJob(job('job-1'));
    await first.queue.enqueue(['a', 'b', 'c'].map((key) => queueMessage(key)));
    expect((await first.queue.lease(2, 60_000)).map((message) => message.key)).toEqual(['a', 'b']);
    first.close();

    const second = createSqliteStorage({ dataDir, clock });
    expect(await second.jobs.getJob('job-1')).toEqual(job('job-1'));
    expect(await second.queue.depth()).toEqual({ waiting: 1, active: 2 });
    const [c] = await second.queue.lease(10, 60_000);
    expect(c?.key).toBe('c');
    await second.queue.ack(c!);
    clock.advance(60_000);
    const back = await second.queue.lease(10, 60_000);
    expect(back.map((message) => [message.key, message.attempts])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    second.close();
  });

  it('shares leases between two connections to the same file', async () => {
    const dataDir = dirs.make();
    const clock = new ManualClock();
    const one = createSqliteStorage({ dataDir, clock });
    const two = createSqliteStorage({ dataDir, clock });
    await one.queue.enqueue(['a', 'b'].map((key) => queueMessage(key)));
    const [a] = await one.queue.lease(1, 1_000);
    expect((await two.queue.lease(10, 1_000)).map((message) => message.key)).toEqual(['b']);
    expect(await two.queue.lease(10, 1_000)).toEqual([]);
    await one.queue.ack(a!);
    clock.advance(1_000);
    expect((await two.queue.lease(10, 1_000)).map((message) => message.key)).toEqual(['b']);
    one.close();
    two.close();
  });

  it('keeps every committed write in the files a crash leaves (database and WAL, never checkpointed)', async () => {
    const dataDir = dirs.make();
    const live = createSqliteStorage({ dataDir });
    live.db.pragma('wal_autocheckpoint = 0');
    await live.jobs.createJob(job('job-1'));
    await live.jobs.addItems('job-1', [{ url: 'https://example.com/a', key: 'a', discoveryDepth: 0 }], 10);
    await live.queue.enqueue([queueMessage('a')]);
    const copy = dirs.make();
    for (const suffix of ['', '-wal']) {
      const source = join(dataDir, `quarry.db${suffix}`);
      if (existsSync(source)) copyFileSync(source, join(copy, `quarry.db${suffix}`));
    }
    const recovered = createSqliteStorage({ dataDir: copy });
    expect(await recovered.jobs.getItem('job-1', 'a')).toMatchObject({ state: 'queued' });
    expect(await recovered.queue.depth()).toEqual({ waiting: 1, active: 0 });
    recovered.close();
    live.close();
  });

  it('survives a SIGKILL of the process that held leases: results kept, leased messages delivered again', async () => {
    const dataDir = dirs.make();
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url)), dataDir], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const report = await new Promise<{ leased: string[]; leaseEndsBy: number }>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!));
      });
      child.on('exit', (code) => reject(new Error(`child exited with ${code} before reporting: ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(report.leased).toEqual(['a', 'b', 'c', 'd']);

    const clock = new ManualClock(report.leaseEndsBy + 1);
    const after = createSqliteStorage({ dataDir, clock });
    expect(await after.jobs.progress('job-1')).toEqual({ total: 5, completed: 1, failed: 0, pending: 4, creditsUsed: 2 });
    expect(await after.ledger.getCredits('team-a')).toBe(98);
    const back = await after.queue.lease(10, 60_000);
    expect(back.map((message) => [message.key, message.attempts])).toEqual([
      ['b', 1],
      ['c', 1],
      ['d', 1],
      ['e', 0],
    ]);
    after.close();
  });

  it('keeps the limit, dedup and single delivery across processes writing at once', async () => {
    const dataDir = dirs.make();
    const setup = createSqliteStorage({ dataDir });
    await setup.jobs.createJob(job('job-1'));
    setup.close();
    const children = [1, 2, 3].map((seed) => runChild('add-items-child.ts', [dataDir, String(seed)]));
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const outputs = await Promise.all(children.map((child) => child.done));
    const results = outputs.map((output) => JSON.parse(output.split('\n')[1]!) as { added: string[]; leased: string[] });
    const added = results.flatMap((result) => result.added);
    const leased = results.flatMap((result) => result.leased);
    expect(added).toHaveLength(300);
    expect(new Set(added).size).toBe(300);
    expect(new Set(leased).size).toBe(leased.length);
    const after = createSqliteStorage({ dataDir });
    expect((await after.jobs.progress('job-1')).total).toBe(300);
    expect(await after.queue.depth()).toEqual({ waiting: 300 - leased.length, active: leased.length });
    after.close();
  });

  it("acks a page's message in the transaction that stores it: a failure midway leaves both the item and the lease", async () => {
    const dataDir = dirs.make();
    const clock = new ManualClock();
    const worker = createSqliteStorage({ dataDir, clock });
    const other = createSqliteStorage({ dataDir, clock });
    expect(worker.jobs.acksMessages).toBe(true);
    await worker.jobs.createJob(job('job-1'));
    await worker.jobs.addItems(
      'job-1',
      ['a', 'b'].map((key) => ({ url: `https://example.com/${key}`, key, discoveryDepth: 1 })),
      10,
    );
    await worker.queue.enqueue(['a', 'b'].map((key) => queueMessage(key)));
    const [a, b] = await worker.queue.lease(2, 60_000);
    const document = (url: string, extra = {}) => ({
      markdown: '# page',
      metadata: { sourceURL: url, url, statusCode: 200, scrapeId: 's', creditsUsed: 1, proxyUsed: 'basic' as const, engine: 'http' as const, ...extra },
    });
    expect(await worker.jobs.finishItem('job-1', 'team-a', { key: 'a', document: document(a!.url), credits: 1, finishedAt: 1, ack: a! })).toBe(true);
    expect(await other.queue.depth()).toEqual({ waiting: 0, active: 1 });
    expect(await other.jobs.getItem('job-1', 'a')).toMatchObject({ state: 'done' });

    // The document cannot be stored (a BigInt does not serialise): the transaction stops after the ack and the item update.
    const broken = { key: 'b', document: document(b!.url, { size: 1n }), credits: 1, finishedAt: 1, ack: b! };
    await expect(worker.jobs.finishItem('job-1', 'team-a', broken)).rejects.toThrow(/BigInt/);
    expect(await other.jobs.getItem('job-1', 'b')).toMatchObject({ state: 'queued' });
    expect(await other.queue.depth()).toEqual({ waiting: 0, active: 1 });
    clock.advance(60_000);
    expect((await other.queue.lease(10, 60_000)).map((message) => [message.key, message.attempts])).toEqual([['b', 1]]);
    expect(await other.jobs.progress('job-1')).toMatchObject({ completed: 1, pending: 1 });
    worker.close();
    other.close();
  });

  it("reads a job's status, kickoff and error from the row each time, as another connection left them", async () => {
    const dataDir = dirs.make();
    const one = createSqliteStorage({ dataDir });
    const two = createSqliteStorage({ dataDir });
    await one.jobs.createJob(job('job-1'));
    const first = (await one.jobs.getJob('job-1'))!;
    expect(first).toEqual(job('job-1'));
    (first.request as { version: string }).version = 'v0'; // a caller's change stays its own
    await two.jobs.updateJob('job-1', { status: 'cancelled', error: 'stopped', kickoffDone: false, expiresAt: 9 });
    expect(await one.jobs.getJob('job-1')).toEqual({ ...job('job-1'), status: 'cancelled', error: 'stopped', kickoffDone: false, expiresAt: 9 });
    await two.jobs.deleteExpired(10);
    expect(await one.jobs.getJob('job-1')).toBeUndefined();
    await two.jobs.createJob({ ...job('job-1'), url: 'https://example.org/', createdAt: 5 }); // the same id again: a new job
    expect(await one.jobs.getJob('job-1')).toEqual({ ...job('job-1'), url: 'https://example.org/', createdAt: 5 });
    one.close();
    two.close();
  });

  it('writes the page index in batches that other connections see once written, and writes what waits at close', async () => {
    const dataDir = dirs.make();
    const page = (name: string) => ({ scope: '', url: `https://example.com/${name}`, title: name, description: '', text: `${name} quarry`, storedAt: 1 });
    const search = { scope: '', query: 'quarry', limit: 10 };
    const writer = createSqliteStorage({ dataDir, pageIndex: { batchSize: 2, flushMs: 60_000 } });
    const reader = createSqliteStorage({ dataDir });
    await writer.pageIndex.add(page('a'));
    expect(await writer.pageIndex.search(search)).toHaveLength(1); // its own pages at once (the read wrote 'a')
    await writer.pageIndex.add(page('b'));
    expect((await reader.pageIndex.search(search)).map((hit) => hit.title)).toEqual(['a']);
    await writer.pageIndex.add(page('c')); // a batch of two: written now
    expect((await reader.pageIndex.search(search)).map((hit) => hit.title).sort()).toEqual(['a', 'b', 'c']);
    await writer.pageIndex.add(page('d'));
    writer.close();
    expect((await reader.pageIndex.search(search)).map((hit) => hit.title).sort()).toEqual(['a', 'b', 'c', 'd']);
    reader.close();
  });

  it('writes the document cache in batches: its own reads see an entry at once, other connections once written, the rest at close', async () => {
    const dataDir = dirs.make();
    const entry = (name: string) => ({
      key: name,
      url: `https://example.com/${name}`,
      document: {
        markdown: name,
        metadata: {
          sourceURL: `https://example.com/${name}`,
          url: `https://example.com/${name}`,
          statusCode: 200,
          scrapeId: `s-${name}`,
          creditsUsed: 1,
          proxyUsed: 'basic' as const,
          engine: 'http' as const,
        },
      },
      storedAt: 1,
      links: [`https://example.com/${name}/next`],
    });
    const keys = async (storage: ReturnType<typeof createSqliteStorage>) => {
      const found: string[] = [];
      for (const name of ['a', 'b', 'c', 'd']) if (await storage.documents.get(name, 10, 2)) found.push(name);
      return found;
    };
    const writer = createSqliteStorage({ dataDir, documents: { batchSize: 2, flushMs: 60_000 } });
    const reader = createSqliteStorage({ dataDir });
    const a = entry('a');
    await writer.documents.put(a);
    a.document.markdown = 'changed after put'; // the entry is taken as it was
    expect(await reader.documents.get('a', 10, 2)).toBeUndefined();
    await writer.documents.put(entry('b')); // a batch of two: written now
    expect(await keys(reader)).toEqual(['a', 'b']);
    expect((await reader.documents.get('a', 10, 2))?.document.markdown).toBe('a');
    await writer.documents.put(entry('c'));
    expect(await writer.documents.get('c', 10, 2)).toMatchObject({ links: ['https://example.com/c/next'] }); // its own read writes first
    await writer.documents.put(entry('d'));
    writer.close();
    expect(await keys(reader)).toEqual(['a', 'b', 'c', 'd']);
    reader.close();
  });

  it("writes the document cache's waiting entries in the transaction that stores a page, and keeps them waiting when it fails", async () => {
    const dataDir = dirs.make();
    const writer = createSqliteStorage({ dataDir, documents: { batchSize: 50, flushMs: 60_000 } });
    const reader = createSqliteStorage({ dataDir });
    await writer.jobs.createJob(job('job-1'));
    await writer.jobs.addItems(
      'job-1',
      ['a', 'b', 'c'].map((key) => ({ url: `https://example.com/${key}`, key, discoveryDepth: 1 })),
      10,
    );
    const document = (name: string, extra = {}) => ({
      markdown: name,
      metadata: {
        sourceURL: `https://example.com/${name}`,
        url: `https://example.com/${name}`,
        statusCode: 200,
        scrapeId: 's',
        creditsUsed: 1,
        proxyUsed: 'basic' as const,
        engine: 'http' as const,
        ...extra,
      },
    });
    const put = (name: string) => writer.documents.put({ key: name, url: `https://example.com/${name}`, document: document(name), storedAt: 1 });
    const cached = async (name: string) => (await reader.documents.get(name, 10, 2)) !== undefined;

    await put('a');
    expect(await cached('a')).toBe(false); // waits for its batch
    expect(await writer.jobs.finishItem('job-1', 'team-a', { key: 'a', document: document('a'), credits: 1, finishedAt: 1 })).toBe(true);
    expect(await cached('a')).toBe(true); // written with the page

    // The page cannot be stored (a BigInt does not serialise): the entry written in its transaction is rolled back and still waits.
    await put('b');
    await expect(writer.jobs.finishItem('job-1', 'team-a', { key: 'b', document: document('b', { size: 1n }), credits: 1, finishedAt: 1 })).rejects.toThrow(
      /BigInt/,
    );
    expect(await cached('b')).toBe(false);
    expect(await writer.jobs.finishItem('job-1', 'team-a', { key: 'c', document: document('c'), credits: 1, finishedAt: 1 })).toBe(true);
    expect(await cached('b')).toBe(true);
    expect(await reader.jobs.getItem('job-1', 'b')).toMatchObject({ state: 'queued' });
    writer.close();
    reader.close();
  });

  it('migrates once: reopening applies nothing, and a newer schema is refused', () => {
    const file = join(dirs.make(), 'quarry.db');
    openSqlite(file).close();
    const db = openSqlite(file);
    expect(db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: migrations.length });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.prepare('UPDATE schema_version SET version = ?').run(migrations.length + 1);
    db.close();
    expect(() => openSqlite(file)).toThrow(/newer than this Quarry/);
  });
});

describe('SQLite housekeeping', () => {
  it('deletes expired finished jobs with everything they hold, and keeps running ones', async () => {
    const storage = createSqliteStorage({ dataDir: dirs.make() });
    await storage.jobs.createJob({ ...job('old'), expiresAt: 100 });
    await storage.jobs.createJob({ ...job('running'), expiresAt: 100 });
    await storage.jobs.createJob({ ...job('fresh'), expiresAt: 10_000 });
    await storage.jobs.addItems('old', [{ url: 'https://example.com/a', key: 'a', discoveryDepth: 0 }], 10);
    await storage.jobs.finishItem('old', 'team-a', {
      key: 'a',
      error: { code: 'timeout', message: 'slow', url: 'https://example.com/a' },
      credits: 0,
      finishedAt: 1,
    });
    await storage.jobs.addRobotsBlocked('old', ['https://example.com/private']);
    await storage.jobs.updateJob('old', { status: 'completed' });
    await storage.jobs.updateJob('fresh', { status: 'completed' });
    expect(await storage.jobs.deleteExpired(100)).toBe(1);
    expect(await storage.jobs.getJob('old')).toBeUndefined();
    expect(await storage.jobs.getJob('running')).toBeDefined();
    expect(await storage.jobs.getJob('fresh')).toBeDefined();
    const leftovers = storage.db
      .prepare(
        "SELECT (SELECT count(*) FROM job_items WHERE job_id = 'old') + (SELECT count(*) FROM job_errors WHERE job_id = 'old') + (SELECT count(*) FROM job_robots_blocked WHERE job_id = 'old') AS n",
      )
      .get();
    expect(leftovers).toEqual({ n: 0 });
    storage.close();
  });
});

/**
 * Runs a fixture script in a child process (node --import tsx) that prints `ready`, waits for a line
 * on stdin, works, and exits; `done` resolves with all it printed.
 */
function runChild(script: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url)), ...args], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) onReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<string>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${script} exited with ${code}: ${stderr}`))));
  });
  return { ready: Promise.race([ready, done.then(() => undefined)]), done, go: () => child.stdin.write('go\n') };
}
