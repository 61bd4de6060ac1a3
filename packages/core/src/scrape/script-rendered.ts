import type { PageSignals } from './page-signals.js';

/**
 * Whether an HTML page fetched without a browser was left for scripts to fill, so the browser
 * engine should render it. Rules, first match wins (thresholds measured on the fixtures in
 * core/test/fixtures/page-kind/):
 *
 * - an app root (`#root`, `#app`, `#__next`, `app-root`...) with no content and little text;
 * - a `<noscript>` asking to enable JavaScript and little text;
 * - almost no text and a lot of script.
 *
 * Server-rendered apps (Next.js, Nuxt with content) fill their root and keep their text, so
 * they stay on the HTTP engine.
 */
export const scriptRenderedLimits = {
  /** Below this much visible text an empty root or a noscript plea decides. */
  littleText: 1_000,
  /**
   * Below this much visible text, heavy scripts alone decide. Less than a docs theme's own chrome:
   * the shells and bot walls this rule is for show 0-80 characters (the page-kind fixtures), while a
   * Sphinx page with next to no content (Flask's module index, `static-sphinx-module-index.html`:
   * 220 characters, 8 external scripts) shows its navigation, search box and footer. At 300, that
   * page went to the browser engine: a small crawl then loaded playwright-core (~1.2 s of main-thread
   * CPU) and started Chromium for one page (benchmarks/crawl-real-site/README.md, eighth pass).
   */
  almostNoText: 150,
  /** Inline script bytes counted as heavy; each external script counts as `externalScriptBytes`. */
  heavyScriptBytes: 10_000,
  externalScriptBytes: 10_000,
} as const;

const enableJavascript =
  /\b(enable|turn on|activate|requires?|need|needs)\b[^.]{0,40}\bjavascript\b|\bjavascript\b[^.]{0,40}\b(required|disabled|enabled|needed)\b/i;

const rules: Array<{ reason: string; matches: (signals: PageSignals) => boolean }> = [
  { reason: 'empty-app-root', matches: (signals) => signals.emptyAppRoots.length > 0 && signals.textLength < scriptRenderedLimits.littleText },
  {
    reason: 'noscript-asks-for-javascript',
    matches: (signals) => enableJavascript.test(signals.noscriptText) && signals.textLength < scriptRenderedLimits.littleText,
  },
  {
    reason: 'little-text-heavy-scripts',
    matches: (signals) =>
      signals.textLength < scriptRenderedLimits.almostNoText &&
      signals.inlineScriptBytes + signals.externalScripts * scriptRenderedLimits.externalScriptBytes >= scriptRenderedLimits.heavyScriptBytes,
  },
];

/** The reason the page looks script-rendered, or undefined when its HTML already holds the content. */
export function scriptRenderedReason(signals: PageSignals): string | undefined {
  return rules.find((rule) => rule.matches(signals))?.reason;
}
