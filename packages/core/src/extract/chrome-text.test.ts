import { describe, expect, it } from 'vitest';
import { isChromeText, isDateLine } from './chrome-text.js';

describe('isDateLine', () => {
  it.each([
    'Updated 11:21 pm CST, Tuesday, November 19, 2019',
    '23.10.2018',
    '7. oktober 2020',
    'First Published: Tuesday, November 19, 2019 08:38 AM',
    'Veröffentlicht am 3. März 2021 um 10:15 Uhr',
  ])('knows %s is only a date', (text) => expect(isDateLine(text)).toBe(true));

  it.each(['On November 19, 2019 the senate met.', 'Chapter 3', 'March'])('knows %s is more than a date', (text) => expect(isDateLine(text)).toBe(false));
});

describe('isChromeText', () => {
  it.each([
    'Edit this page',
    'Last updated on Jan 5, 2024 by Ada',
    'Share',
    'Advertisement',
    'On this page',
    'Next Post »',
    '« Previous',
    'Tags: rust, memory',
    'Read also: Why ownership matters',
    '[Related: Salesforce keynote recap]',
    'Foto: Max Muster',
    '© 2024 Example Corp',
    'Related articles',
    'Leave a reply',
    '3 comments',
    'Reading time: 4 min',
    '5 min read',
  ])('flags %s', (text) => expect(isChromeText(text)).toBe(true));

  it.each([
    'Next up is the drum dance performed with adorable drums!',
    'Category 5 hurricanes are the strongest storms on the scale.',
    'Related research has shown the opposite effect in mice.',
    'Sharing is how open source grows.',
  ])('keeps %s', (text) => expect(isChromeText(text)).toBe(false));
});
