import { afterEach, describe, expect, it } from 'vitest';
import { transformHtml, type HtmlTransformInput } from '@quarry/core';
import { WorkerPoolTransformer } from '../src/index.js';
import { heapMbFor } from '../src/worker-pool-transformer.js';

const article = (title: string, paragraphs: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="About ${title}"><meta property="og:title" content="${title} (og)"></head>
<body>
<nav><a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/blog/">Blog</a></nav>
<main><article><h1>${title}</h1>
${Array.from({ length: paragraphs }, (_, index) => `<p>Paragraph ${index} of ${title} explains <a href="/p/${index}">page ${index}</a> with <strong>bold</strong> and <code>code</code> words in a sentence long enough to count as prose.</p>`).join('\n')}
<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>alpha</td><td>1</td></tr><tr><td>beta</td><td>2</td></tr></tbody></table>
<pre><code class="language-ts">const answer: number = 42;\nconsole.log(answer);</code></pre>
<ul><li>one</li><li>two <em>three</em></li></ul>
<img src="/img/${title}.png" alt="${title}">
</article></main>
<footer><p>Footer text</p><a href="https://elsewhere.example/x">out</a></footer>
</body></html>`;

function input(html: string, overrides: Partial<HtmlTransformInput> = {}): HtmlTransformInput {
  return {
    html,
    url: 'http://site.test/docs/page',
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    want: { markdown: true, html: true, links: true, images: true },
    ...overrides,
  };
}

/**
 * A scripted worker: answers with the url, throws on `throw`, dies on `crash`, never answers
 * `hold...`, and works `slow-<ms>...` for that many milliseconds before answering.
 */
const scriptedWorker = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort } from 'node:worker_threads';
    parentPort.on('message', ({ id, input }) => {
      if (input.url === 'crash') process.exit(3);
      if (input.url.startsWith('hold')) return;
      if (input.url.startsWith('slow-')) {
        const until = Date.now() + Number(input.url.split('-')[1]);
        while (Date.now() < until);
      }
      if (input.url === 'throw') parentPort.postMessage({ id, error: { name: 'TypeError', message: 'bad page' } });
      else parentPort.postMessage({ id, output: { markdown: input.url, metadata: {}, usedWholePage: false } });
    });
    parentPort.postMessage({ ready: true });
  `)}`,
);
const brokenWorker = new URL(`data:text/javascript,${encodeURIComponent(`throw new Error('cannot load');`)}`);

const pools: WorkerPoolTransformer[] = [];
function pool(options: ConstructorParameters<typeof WorkerPoolTransformer>[0]) {
  const created = new WorkerPoolTransformer(options);
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

describe('WorkerPoolTransformer', () => {
  it('answers exactly what the inline transformHtml answers', async () => {
    const transformer = pool({ workers: 2 });
    const inputs = [
      input(article('Alpha', 3)),
      input(article('Beta', 12), { onlyMainContent: false }),
      input(article('Gamma', 6), { includeTags: ['article'], excludeTags: ['table'] }),
      input('<p>just a fragment with <a href="../up">a link</a></p>', { want: { markdown: true, html: false, links: true, images: false } }),
      input(article('Delta', 2), { want: { markdown: false, html: false, links: true, images: false } }),
    ];
    const outputs = await Promise.all(inputs.map((each) => transformer.transform(each)));
    expect(outputs).toEqual(inputs.map((each) => transformHtml(each)));
  });

  it('starts no worker before the first page, and at most `workers` under load', async () => {
    const transformer = pool({ workers: 2 });
    expect(transformer.size).toBe(0);
    const inputs = Array.from({ length: 40 }, (_, index) => input(article(`Page ${index}`, 1 + (index % 7))));
    const outputs = await Promise.all(inputs.map((each) => transformer.transform(each)));
    expect(outputs.map((output) => output.metadata.title)).toEqual(inputs.map((_, index) => `Page ${index}`));
    expect(outputs[7]).toEqual(transformHtml(inputs[7]!));
    expect(transformer.size).toBe(2);
  });

  it('start() starts one worker before any page, which then converts the first pages', async () => {
    const transformer = pool({ workers: 2 });
    transformer.start();
    expect(transformer.size).toBe(1);
    transformer.start();
    expect(transformer.size).toBe(1);
    const output = await transformer.transform(input(article('First', 2)));
    expect(output.metadata.title).toBe('First');
    expect(transformer.size).toBe(1);
  });

  it('start() does nothing once the pool is closed', async () => {
    const transformer = pool({ workers: 1 });
    await transformer.close();
    transformer.start();
    expect(transformer.size).toBe(0);
  });

  it('rejects a page that throws with a plain Error, and the same worker carries on', async () => {
    const transformer = pool({ workers: 1 });
    const failure = await transformer.transform(input(article('Bad', 2), { includeTags: ['[[['] })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/name/i);
    const after = await transformer.transform(input(article('Good', 2)));
    expect(after.metadata.title).toBe('Good');
    expect(transformer.size).toBe(1);
  });

  it('keeps the name and message of a remote error', async () => {
    const transformer = pool({ workers: 1, workerUrl: scriptedWorker });
    await expect(transformer.transform(input('', { url: 'throw' }))).rejects.toMatchObject({ name: 'TypeError', message: 'bad page' });
  });

  it('fails the page a crashed worker was converting and hands the pages posted behind it to a replacement', async () => {
    const transformer = pool({ workers: 1, workerUrl: scriptedWorker });
    expect((await transformer.transform(input('', { url: 'first' }))).markdown).toBe('first');
    // All three are posted to the one worker at once (it gets pages ahead); it dies on the first.
    const results = await Promise.allSettled([
      transformer.transform(input('', { url: 'crash' })),
      transformer.transform(input('', { url: 'posted-behind-the-crash' })),
      transformer.transform(input('', { url: 'also-behind' })),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/transform worker crashed: exited with code 3/);
    const answers = results.slice(1).map((result) => (result as PromiseFulfilledResult<{ markdown: string }>).value.markdown);
    expect(answers).toEqual(['posted-behind-the-crash', 'also-behind']);
    expect((await transformer.transform(input('', { url: 'later' }))).markdown).toBe('later');
    expect(transformer.size).toBe(1);
  });

  it('runs each page posted ahead to a worker against the deadline from when the worker starts it', async () => {
    // Four pages of 400 ms each, posted at once to one worker: 1.6 s in all, but each page is
    // within its 1.5 s deadline, counted from when the worker finished the page before it.
    const transformer = pool({ workers: 1, workerUrl: scriptedWorker, deadlineMs: 1_500 });
    transformer.start();
    const urls = ['slow-400-a', 'slow-400-b', 'slow-400-c', 'slow-400-d'];
    const outputs = await Promise.all(urls.map((url) => transformer.transform(input('', { url }))));
    expect(outputs.map((output) => output.markdown)).toEqual(urls);
    expect(transformer.size).toBe(1);
  });

  it('fails every waiting page when the worker script cannot start, and tries again on the next page', async () => {
    const transformer = pool({ workers: 2, workerUrl: brokenWorker });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((index) => transformer.transform(input('', { url: `p${index}` }))));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason.message).toMatch(/failed to start: cannot load/);
    }
    await expect(transformer.transform(input(''))).rejects.toThrow(/failed to start/);
  });

  it('fails a page that outgrows the worker heap as too large, never on the calling thread, and carries on', async () => {
    // largePageHeapMb at the workers' heap: no page gets a worker of its own (see the next tests).
    const transformer = pool({ workers: 1, resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 }, largePageHeapMb: 48 });
    const big = `<html><head><title>Big</title></head><body>${'<div><p>x <a href="/a">y</a></p></div>'.repeat(150_000)}</body></html>`;
    const [failed, queued] = await Promise.allSettled([transformer.transform(input(big)), transformer.transform(input(article('Behind', 2)))]);
    expect(failed.status).toBe('rejected');
    expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: 'target_failed', kind: 'too-large' });
    expect((failed as PromiseRejectedResult).reason.message).toMatch(/too large to convert.*52 MB heap/);
    // The page queued behind it on the same worker is converted by the replacement.
    expect(queued.status === 'fulfilled' ? queued.value.metadata.title : String(queued.reason)).toBe('Behind');
    expect((await transformer.transform(input(article('Fine', 2)))).metadata.title).toBe('Fine');
  }, 60_000);

  it('converts a page too long for the workers heap on a worker of its own, sized to it, then ends that worker', async () => {
    // 10,000 paragraphs (~1.6 M characters, a quarter of nodejs-doc's all.html): more than 24 MB
    // of old space holds while converting (~34 MB since a page this long is extracted in place).
    const long = article('Long', 10_000);
    const limits = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 24 };
    expect(heapMbFor(long)).toBeGreaterThan(limits.maxOldGenerationSizeMb);
    const transformer = pool({ workers: 1, resourceLimits: limits });
    const [converted, small] = await Promise.all([transformer.transform(input(long)), transformer.transform(input(article('Small', 2)))]);
    expect(converted).toEqual(transformHtml(input(long)));
    expect(small.metadata.title).toBe('Small');
    expect(transformer.size).toBe(1); // the pool's own worker; the large page's is gone
    // The same page on the pool's heap alone (no room for large pages) fails as too large.
    const bounded = pool({ workers: 1, resourceLimits: limits, largePageHeapMb: limits.maxOldGenerationSizeMb });
    await expect(bounded.transform(input(long))).rejects.toMatchObject({ kind: 'too-large', message: expect.stringMatching(/28 MB heap/) });
  }, 60_000);

  it('bounds a large page by largePageHeapMb: past it the page fails as too large and the next one converts', async () => {
    const transformer = pool({ workers: 1, resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 }, largePageHeapMb: 96 });
    const big = `<html><head><title>Big</title></head><body>${'<div><p>x <a href="/a">y</a></p></div>'.repeat(150_000)}</body></html>`;
    const [failed, next] = await Promise.allSettled([transformer.transform(input(big)), transformer.transform(input(article('Long', 1_500)))]);
    expect(failed.status === 'rejected' && failed.reason).toMatchObject({ kind: 'too-large', message: expect.stringMatching(/100 MB heap/) });
    expect(next.status === 'fulfilled' ? next.value.metadata.title : String(next.reason)).toBe('Long');
  }, 60_000);

  it('fails a page still converting after the deadline, terminates its worker and carries on', async () => {
    const transformer = pool({ workers: 1, workerUrl: scriptedWorker, deadlineMs: 200 });
    const [held, behind] = await Promise.allSettled([
      transformer.transform(input('', { url: 'hold-forever' })),
      transformer.transform(input('', { url: 'next' })),
    ]);
    expect(held.status).toBe('rejected');
    expect((held as PromiseRejectedResult).reason).toMatchObject({ kind: 'too-large' });
    expect((held as PromiseRejectedResult).reason.message).toMatch(/longer than 200 ms/);
    expect(behind.status === 'fulfilled' && behind.value.markdown).toBe('next');
    expect(transformer.size).toBe(0); // the stuck worker was terminated...
    expect((await transformer.transform(input('', { url: 'after' }))).markdown).toBe('after');
    expect(transformer.size).toBe(1); // ...and replaced on demand
  });

  it('converts a page of a million unclosed inline tags within the deadline or fails it, never hanging', async () => {
    const transformer = pool({ workers: 1, deadlineMs: 3_000 });
    const hostile = `<html><body>${'<b>x'.repeat(1_000_000)}</body></html>`;
    const started = Date.now();
    await expect(transformer.transform(input(hostile))).rejects.toMatchObject({ kind: 'too-large' });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await transformer.transform(input(article('After', 2)))).metadata.title).toBe('After');
  }, 60_000);

  it('close rejects unanswered pages, terminates the workers and refuses new pages', async () => {
    const transformer = pool({ workers: 2 });
    const settled = Promise.allSettled(Array.from({ length: 6 }, (_, index) => transformer.transform(input(article(`Late ${index}`, 30)))));
    await transformer.close();
    const results = await settled;
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(transformer.size).toBe(0);
    await expect(transformer.transform(input(article('After', 1)))).rejects.toThrow(/closed/);
    await transformer.close();
  });

  it('converts on the calling thread while every worker is busy only when told to', async () => {
    const busy = pool({ workers: 1, workerUrl: scriptedWorker, useCallingThread: true });
    // Eight pages fill what the worker takes ahead; the next one waits, so the calling thread converts it.
    const held = Promise.allSettled(Array.from({ length: 8 }, (_, index) => busy.transform(input('', { url: `hold-${index}` }))));
    const page = input(article('Inline', 3));
    expect(await busy.transform(page)).toEqual(transformHtml(page));
    await busy.close();
    expect((await held).map((result) => result.status)).toEqual(Array(8).fill('rejected'));

    const waits = pool({ workers: 1, workerUrl: scriptedWorker });
    const outputs = await Promise.all(['a', 'b', 'c', 'd'].map((url) => waits.transform(input(article('Ignored', 1), { url }))));
    expect(outputs.map((output) => output.markdown)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses a worker count below one', () => {
    expect(() => new WorkerPoolTransformer({ workers: 0 })).toThrow(/`workers` must be an integer of at least 1; got 0/);
  });
});
