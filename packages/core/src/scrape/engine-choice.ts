import { NotAvailableError } from '../errors.js';
import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * Which engine can serve a request, as a table of capabilities and cost: the cheapest engine that
 * has every feature the request needs wins. HTTP first when nothing needs a browser.
 */
export type EngineFeature = 'waitFor' | 'actions' | 'screenshot' | 'mobile' | 'location' | 'branding';

export interface EngineProfile {
  name: string;
  features: ReadonlySet<EngineFeature>;
  /** Relative cost of one page; lower is tried first. */
  cost: number;
  /** Whether pages come back as scripts left them; a script-rendered page from an engine without this goes on to the next. */
  rendersScripts: boolean;
}

export const engineProfiles = {
  http: { name: 'http', features: new Set<EngineFeature>(), cost: 1, rendersScripts: false },
  browser: {
    name: 'browser',
    features: new Set<EngineFeature>(['waitFor', 'actions', 'screenshot', 'mobile', 'location', 'branding']),
    cost: 20,
    rendersScripts: true,
  },
} satisfies Record<string, EngineProfile>;

/** What in the request needs which feature, with the option name to show the user. */
const featureTriggers: Array<{ feature: EngineFeature; option: string; needs: (options: ScrapeOptions) => boolean }> = [
  { feature: 'actions', option: 'actions', needs: (options) => options.actions.length > 0 },
  { feature: 'waitFor', option: 'waitFor', needs: (options) => options.waitFor > 0 },
  { feature: 'screenshot', option: 'formats: screenshot', needs: (options) => options.formats.some((format) => format.type === 'screenshot') },
  { feature: 'branding', option: 'formats: branding', needs: (options) => options.formats.some((format) => format.type === 'branding') },
  { feature: 'mobile', option: 'mobile', needs: (options) => options.mobile },
  { feature: 'location', option: 'location', needs: (options) => options.location !== undefined },
];

export function requiredFeatures(options: ScrapeOptions): Array<{ feature: EngineFeature; option: string }> {
  return featureTriggers.filter((trigger) => trigger.needs(options)).map(({ feature, option }) => ({ feature, option }));
}

/**
 * The engines able to serve `options`, cheapest first. Throws NotAvailableError naming the
 * options that no configured engine supports.
 */
/** A library user's fix: the engine was created without a browser. */
export const defaultBrowserHint = 'pass a browser fetcher to createEngine (`browser: new PlaywrightFetcher({ executablePath })` from @quarry/adapters)';

export function chooseEngines<T extends EngineProfile>(options: ScrapeOptions, available: T[], browserHint = defaultBrowserHint): T[] {
  const needed = requiredFeatures(options);
  const able = available.filter((engine) => needed.every(({ feature }) => engine.features.has(feature))).sort((a, b) => a.cost - b.cost);
  if (able.length === 0) {
    const names = needed.map(({ option }) => `\`${option}\``).join(', ');
    throw new NotAvailableError(
      `${names} ${needed.length > 1 ? 'need' : 'needs'} the browser engine, which is not available in this engine yet: ${browserHint}`,
    );
  }
  return able;
}
