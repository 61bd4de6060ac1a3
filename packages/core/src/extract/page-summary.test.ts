import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { declaredSummaries, findSummaryBlock } from './page-summary.js';

const summary = 'Die Abogebühr eines Nutzers soll nur noch unter den Künstlern verteilt werden, die er gehört hat.';

describe('declared summary', () => {
  it('reads the head, drops a truncation mark and short taglines', () => {
    const document = parseDocument(
      `<head><meta name="description" content="  ${summary.slice(0, -1)} …"><meta property="og:description" content="Nachrichten aus aller Welt"></head>`,
    );
    expect(declaredSummaries(document)).toEqual([summary.slice(0, -1)]);
  });

  it('finds the smallest block holding the summary, passing over a teaser link with the same text', () => {
    const document = parseDocument(
      `<body><ul><li><a href="/other"><p>${summary}</p></a></li></ul><div class="intro"><p class="atc-IntroText"><strong>Die Abogebühr</strong> eines Nutzers soll nur noch unter den Künstlern verteilt werden, die er gehört hat.</p></div><p>Body text.</p></body>`,
    );
    expect(findSummaryBlock(document, [summary])?.attribs.class).toBe('atc-IntroText');
  });

  it('leaves a caption that repeats the summary alone', () => {
    const document = parseDocument(`<body><figure><img src="x.jpg"><figcaption>${summary}</figcaption></figure><p>Body text.</p></body>`);
    expect(findSummaryBlock(document, [summary])).toBeUndefined();
  });
});
