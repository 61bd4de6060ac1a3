/**
 * Runs the scrape's actions in order on the page, one handler per action type (a table: a new
 * action type is one row). Outputs are collected in the API's `actions` result shape, in order.
 * A failing action (no element matches, a script throws) stops the scrape with a
 * ValidationError naming the action, since the action does not fit the page.
 */
import type { Page } from 'playwright-core';
import { ValidationError, type Action, type ActionOutputs, type ActionType, type ScreenshotSpec } from '@quarry/core';
import type { NetworkQuiet } from './network-quiet.js';

export interface ActionScope {
  page: Page;
  quiet: NetworkQuiet;
  outputs: ActionOutputs;
  /** Milliseconds left for the whole scrape. */
  remainingMs(): number;
}

/** After an action that may start loading, wait this long for quiet, at most `capMs`. */
const settle = { quietMs: 250, capMs: 2_000 } as const;

/**
 * How long an action waits for its element: at most half of what is left of the scrape (and at
 * most 10 s), so a selector that matches nothing fails with the action named, not with a timeout.
 */
const elementWaitCapMs = 10_000;
const elementWait = (scope: ActionScope) => Math.max(1, Math.min(elementWaitCapMs, scope.remainingMs() / 2));

type Handler<T extends ActionType> = (scope: ActionScope, action: Extract<Action, { type: T }>) => Promise<void>;

async function settleAfter(scope: ActionScope): Promise<void> {
  await scope.quiet.settle(scope.page, settle.quietMs, Math.min(settle.capMs, scope.remainingMs() / 4));
}

/** Screenshot of the page (PNG, or JPEG with `quality`), at a given viewport when asked. */
export async function captureScreenshot(page: Page, spec: ScreenshotSpec, timeoutMs: number) {
  const previous = page.viewportSize();
  if (spec.viewport) await page.setViewportSize(spec.viewport);
  try {
    const type = spec.quality ? 'jpeg' : 'png';
    const bytes = await page.screenshot({
      fullPage: spec.fullPage,
      type,
      ...(spec.quality ? { quality: spec.quality } : {}),
      timeout: timeoutMs,
      animations: 'disabled',
    });
    return { bytes: new Uint8Array(bytes), contentType: `image/${type}` };
  } finally {
    if (spec.viewport && previous) await page.setViewportSize(previous);
  }
}

/** Wraps a user script so `return x` works; a plain expression is evaluated as is. */
function scriptSource(script: string): string {
  return /\breturn\b/.test(script) ? `(async () => { ${script}\n})()` : script;
}

const handlers: { [T in ActionType]: Handler<T> } = {
  wait: async (scope, action) => {
    if (action.selector)
      await scope.page
        .locator(action.selector)
        .first()
        .waitFor({ state: 'visible', timeout: elementWait(scope) });
    else await scope.page.waitForTimeout(action.milliseconds ?? 0);
  },
  click: async (scope, action) => {
    const matches = scope.page.locator(action.selector);
    if (action.all) {
      await matches.first().waitFor({ state: 'attached', timeout: elementWait(scope) });
      for (const element of await matches.all()) await element.click({ timeout: elementWait(scope) });
    } else {
      await matches.first().click({ timeout: elementWait(scope) });
    }
    await settleAfter(scope);
  },
  write: async (scope, action) => {
    await scope.page.keyboard.type(action.text);
  },
  press: async (scope, action) => {
    await scope.page.keyboard.press(action.key);
    await settleAfter(scope);
  },
  scroll: async (scope, action) => {
    const sign = action.direction === 'up' ? -1 : 1;
    if (action.selector) {
      await scope.page
        .locator(action.selector)
        .first()
        .evaluate((element, direction) => element.scrollBy(0, direction * element.clientHeight), sign, { timeout: elementWait(scope) });
    } else {
      await scope.page.evaluate(`window.scrollBy(0, ${sign} * window.innerHeight)`);
    }
    await settleAfter(scope);
  },
  screenshot: async (scope, action) => {
    scope.outputs.screenshots.push(
      await captureScreenshot(
        scope.page,
        { fullPage: action.fullPage, ...(action.quality ? { quality: action.quality } : {}), ...(action.viewport ? { viewport: action.viewport } : {}) },
        scope.remainingMs(),
      ),
    );
  },
  scrape: async (scope) => {
    scope.outputs.scrapes.push({ url: scope.page.url(), html: await scope.page.content() });
  },
  executeJavascript: async (scope, action) => {
    const value: unknown = await scope.page.evaluate(scriptSource(action.script));
    scope.outputs.javascriptReturns.push({ type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value: value ?? null });
    await settleAfter(scope);
  },
  pdf: async (scope, action) => {
    const bytes = await scope.page.pdf({ format: action.format, landscape: action.landscape, scale: action.scale, printBackground: true });
    scope.outputs.pdfs.push({ bytes: new Uint8Array(bytes), contentType: 'application/pdf' });
  },
};

export async function runActions(scope: Omit<ActionScope, 'outputs'>, actions: readonly Action[]): Promise<ActionOutputs> {
  const outputs: ActionOutputs = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    try {
      await (handlers[action.type] as Handler<ActionType>)({ ...scope, outputs }, action as never);
    } catch (error) {
      if (scope.page.isClosed()) throw error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ValidationError([{ field: `actions[${index}]`, message: `\`actions[${index}]\` (${action.type}) failed on the page: ${reason}` }]);
    }
  }
  return outputs;
}
