/**
 * AdBlocker: the Ghostery filter engine (Adblock Plus / uBlock syntax: network rules, cosmetic
 * rules, scriptlets) fed with filter lists the operator provides, or `defaultFilterList()`.
 * Network rules are applied in the fetcher's one route handler (after the SSRF check, see
 * request-route.ts); cosmetic rules are injected per frame by the Ghostery Playwright helper.
 * Cookie banners of `cookieBannerSelectors` are also removed from the DOM, so their text never
 * reaches markdown.
 */
import type { PlaywrightBlocker } from '@ghostery/adblocker-playwright';
import type { Page, Request as PlaywrightRequest } from 'playwright-core';
import { cookieBannerSelectors, defaultFilterList } from './default-filter-list.js';
import { loadGhostery } from './load-playwright.js';

type Ghostery = Awaited<ReturnType<typeof loadGhostery>>;

export type BlockDecision = { action: 'continue' } | { action: 'abort' } | { action: 'fulfill'; body: Buffer | string; contentType: string };

export class AdBlocker {
  private constructor(
    private readonly ghostery: Ghostery,
    private readonly engine: PlaywrightBlocker,
  ) {}

  /** `lists`: filter list texts (EasyList format); the built-in default list when empty. */
  static async create(lists: readonly string[] = []): Promise<AdBlocker> {
    const ghostery = await loadGhostery();
    const text = lists.length > 0 ? lists.join('\n') : defaultFilterList();
    return new AdBlocker(
      ghostery,
      ghostery.PlaywrightBlocker.parse(text, { loadCosmeticFilters: true, loadNetworkFilters: true, enableMutationObserver: false }),
    );
  }

  /** What to do with a request; the main document is never blocked. */
  decide(request: PlaywrightRequest): BlockDecision {
    const details = this.ghostery.fromPlaywrightDetails(request as never);
    if (details.isMainFrame()) return { action: 'continue' };
    const { match, redirect } = this.engine.match(details);
    if (redirect) {
      return redirect.contentType.endsWith(';base64')
        ? { action: 'fulfill', body: Buffer.from(redirect.body, 'base64'), contentType: redirect.contentType.slice(0, -7) }
        : { action: 'fulfill', body: redirect.body, contentType: redirect.contentType };
    }
    return match ? { action: 'abort' } : { action: 'continue' };
  }

  /** Injects cosmetic rules into each frame as it navigates. */
  watch(page: Page): void {
    page.on('framenavigated', (frame) => void this.engine.onFrameNavigated(frame as never));
    page.once('domcontentloaded', () => void this.engine.onFrameNavigated(page.mainFrame() as never));
  }

  /** Removes consent banners (and the scroll lock they leave) from the page. */
  static async removeCookieBanners(page: Page): Promise<void> {
    const script = `(() => {
      for (const element of document.querySelectorAll(${JSON.stringify(cookieBannerSelectors.join(','))})) element.remove();
      for (const element of [document.documentElement, document.body]) if (element && getComputedStyle(element).overflow === 'hidden') element.style.overflow = 'auto';
    })()`;
    await page.evaluate(script).catch(() => undefined);
  }
}
