import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extractMetadata } from './metadata.js';

const metadataOf = (head: string) => extractMetadata(parseDocument(`<html><head>${head}</head><body></body></html>`), 'https://example.com/');

describe('extractMetadata', () => {
  it('keeps a value repeated under the same name once (themes emit viewport twice)', () => {
    const metadata = metadataOf(
      '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="viewport" content="width=device-width, initial-scale=1">',
    );
    expect(metadata.viewport).toBe('width=device-width, initial-scale=1');
  });

  it('still lists different values under one name, and joins descriptions', () => {
    const metadata = metadataOf(
      '<meta name="keywords" content="a"><meta name="keywords" content="b"><meta name="keywords" content="a"><meta name="description" content="one"><meta name="description" content="two">',
    );
    expect(metadata.keywords).toEqual(['a', 'b']);
    expect(metadata.description).toBe('one, two');
  });
});
