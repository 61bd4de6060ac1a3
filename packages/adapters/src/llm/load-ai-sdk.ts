/**
 * The AI SDK (`ai`, with zod and OpenTelemetry) loads on the first LLM call, not at import: it adds
 * ~20 MB of RSS to every process that imports `@quarry/adapters`, and most (a crawl, a scrape
 * without JSON extraction) never call a model.
 */
type AiSdk = typeof import('ai');

let loading: Promise<AiSdk> | undefined;
let loaded: AiSdk | undefined;

export function loadAiSdk(): Promise<AiSdk> {
  loading ??= import('ai').then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** The SDK once loaded; before that no SDK error can exist (every call loads it first). */
export function loadedAiSdk(): AiSdk | undefined {
  return loaded;
}
