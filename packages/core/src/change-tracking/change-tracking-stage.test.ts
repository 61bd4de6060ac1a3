import { describe, expect, it } from 'vitest';
import type { ScrapeDocument } from '../document.js';
import { MemoryChangeHistory } from '../memory/memory-change-history.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import { ManualClock } from '../ports/testing/manual-clock.js';
import { changeTrackingStage, compare } from './change-tracking-stage.js';
import { gitDiff } from './git-diff.js';

function documentOf(statusCode = 200): ScrapeDocument {
  return {
    metadata: {
      sourceURL: 'https://example.com/a',
      url: 'https://example.com/a',
      statusCode,
      scrapeId: 's',
      creditsUsed: 1,
      proxyUsed: 'basic',
      engine: 'http',
    },
  };
}

describe('compare', () => {
  const previous = { scrapedAt: 0, markdown: '# A\n\nOne line.', statusCode: 200 };
  it('says new, same (whitespace aside), changed and removed', () => {
    expect(compare({ modes: [] }, undefined, { markdown: 'x', statusCode: 200, fields: undefined })).toEqual({
      previousScrapeAt: null,
      changeStatus: 'new',
      visibility: 'visible',
    });
    expect(compare({ modes: ['git-diff'] }, previous, { markdown: '# A\n\n  One   line.\n', statusCode: 200, fields: undefined }).changeStatus).toBe('same');
    const changed = compare({ modes: ['git-diff'] }, previous, { markdown: '# A\n\nTwo lines.', statusCode: 200, fields: undefined });
    expect(changed).toMatchObject({
      previousScrapeAt: '1970-01-01T00:00:00.000Z',
      changeStatus: 'changed',
      diff: gitDiff(previous.markdown, '# A\n\nTwo lines.'),
    });
    expect(compare({ modes: [] }, previous, { markdown: '', statusCode: 404, fields: undefined }).changeStatus).toBe('removed');
    expect(compare({ modes: [] }, previous, { markdown: '', statusCode: 410, fields: undefined }).changeStatus).toBe('removed');
  });

  it('compares fields in json mode, a field change alone is a change', () => {
    const result = compare(
      { modes: ['json'] },
      { ...previous, fields: { price: 1, name: 'A' } },
      { markdown: previous.markdown, statusCode: 200, fields: { price: 2, name: 'A' } },
    );
    expect(result).toMatchObject({ changeStatus: 'changed', json: { price: { previous: 1, current: 2 } } });
    expect(result.diff).toBeUndefined();
  });
});

describe('gitDiff', () => {
  it('is a unified diff and its parse-diff shape', () => {
    const diff = gitDiff('a\nb\nc', 'a\nB\nc');
    expect(diff.text).toBe('--- previous\n+++ current\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
    expect(diff.json.files[0]!.chunks[0]!.changes).toEqual([
      { type: 'normal', normal: true, ln1: 1, ln2: 1, content: ' a' },
      { type: 'del', del: true, ln: 2, content: '-b' },
      { type: 'add', add: true, ln: 2, content: '+B' },
      { type: 'normal', normal: true, ln1: 3, ln2: 3, content: ' c' },
    ]);
  });
});

describe('changeTrackingStage', () => {
  it('records per team and tag and reads the previous scrape back', async () => {
    const history = new MemoryChangeHistory();
    const clock = new ManualClock(1_700_000_000_000);
    const stage = changeTrackingStage({ history, clock });
    const run = async (tag: string | null, markdown: string, teamId = 'team') => {
      const document = documentOf();
      const options = parseScrapeOptions('v2', { formats: ['markdown', { type: 'changeTracking', tag }] });
      await stage.run({ document, markdown, options, context: { teamId } });
      clock.advance(1_000);
      return document.changeTracking?.changeStatus;
    };
    expect(await run(null, 'one')).toBe('new');
    expect(await run(null, 'one')).toBe('same');
    expect(await run('t', 'one')).toBe('new');
    expect(await run(null, 'two')).toBe('changed');
    expect(await run(null, 'two', 'other')).toBe('new');
    expect((await history.latest('team', null, 'https://example.com/a'))?.markdown).toBe('two');
  });
});
