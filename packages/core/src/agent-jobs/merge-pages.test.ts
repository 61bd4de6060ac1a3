import { describe, expect, it } from 'vitest';
import { mergePages } from './merge-pages.js';

describe('mergePages', () => {
  it('concatenates arrays without duplicates, picks scalars by agreement, and keeps the sources', () => {
    expect(
      mergePages([
        { url: 'a', value: { name: 'Kettle', price: 39, tags: ['steel', 'Tea'], maker: { country: 'DE' } } },
        { url: 'b', value: { name: 'Pot', price: 39, tags: ['tea ', 'kitchen'], maker: { country: 'de' } } },
        { url: 'c', value: { name: 'Kettle', price: null, tags: [] } },
      ]),
    ).toEqual({
      value: { name: 'Kettle', price: 39, tags: ['steel', 'Tea', 'kitchen'], maker: { country: 'DE' } },
      sources: {
        name: ['a', 'c'],
        price: ['a', 'b'],
        tags: ['a', 'b'],
        'tags[0]': ['a'],
        'tags[1]': ['a', 'b'],
        'tags[2]': ['b'],
        'maker.country': ['a', 'b'],
      },
    });
  });

  it('dedupes objects in arrays whatever their key order, and lets the first page win a tie', () => {
    const merged = mergePages([
      { url: 'a', value: { items: [{ id: 1, title: 'One' }], status: 'open' } },
      {
        url: 'b',
        value: {
          items: [
            { title: 'one', id: 1 },
            { id: 2, title: 'Two' },
          ],
          status: 'closed',
        },
      },
    ]);
    expect(merged.value).toEqual({
      items: [
        { id: 1, title: 'One' },
        { id: 2, title: 'Two' },
      ],
      status: 'open',
    });
    expect(merged.sources.status).toEqual(['a']);
  });

  it('answers null when no page stated anything', () => {
    expect(mergePages([{ url: 'a', value: null }])).toEqual({ value: null, sources: {} });
    expect(mergePages([])).toEqual({ value: null, sources: {} });
  });
});
