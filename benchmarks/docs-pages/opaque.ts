/**
 * `--opaque-names` for the docs-pages benchmark: each extractor reads the page with its class and
 * id names made meaningless (`main-content/opaque-names.ts`), in-page references renamed with the
 * ids they name, and its markdown's in-page links named back, so a link scores as on the named page.
 * Code-language tokens are kept unless `keepCodeLanguage` is false.
 */
import type { Extractor } from '../main-content/extractors.js';
import { type OpaquePage, opaquePage } from '../main-content/opaque-names.js';

export function opaqueExtractors(extractors: [string, Extractor][], keepCodeLanguage: boolean): [string, Extractor][] {
  // Both extractors read the same page one after the other: the renaming is done once per page.
  let last: { html: string; page: OpaquePage } | undefined;
  const renamed = (html: string): OpaquePage => {
    if (last?.html !== html) last = { html, page: opaquePage(html, { references: true, keepCodeLanguage }) };
    return last.page;
  };
  return extractors.map(([name, extract]) => [
    name,
    (html, url) => {
      const page = renamed(html);
      const extraction = extract(page.html, url);
      return { ...extraction, markdown: page.restore(extraction.markdown) };
    },
  ]);
}
