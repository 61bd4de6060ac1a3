import type { FastifyInstance } from 'fastify';
import { creditPrices, NotAvailableError, NotConfiguredError, NotFoundError, ValidationError, type BrowserSessions, type SessionKey } from '@quarry/core';
import { bodyObject, take } from '../server/body.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { actionsForPrompt } from './interact-prompt.js';

/** Credits per interact call that finished (Firecrawl's pricing for it is not documented). */
export const interactCredits = creditPrices.interact;

export const interactLanguages = ['javascript', 'node', 'python', 'bash'] as const;
const timeoutLimits = { defaultSeconds: 30, maxSeconds: 300 } as const;
const languages = interactLanguages;
type Language = (typeof languages)[number];

/** The request body as JSON Schema (the OpenAPI document); parseInteractRequest checks the same rules. */
export const interactRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    code: {
      type: 'string',
      minLength: 1,
      description: "JavaScript run inside the page; an expression's value or a `return` is the result. Send code or prompt.",
    },
    prompt: {
      type: 'string',
      minLength: 1,
      description: 'What to do on the page, in words: the configured model turns it into scrape actions (501 without a model).',
    },
    language: {
      enum: [...interactLanguages],
      default: 'javascript',
      description: "`javascript` runs in the page; `node` (the SDK's default), python and bash answer 501.",
    },
    timeout: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: timeoutLimits.maxSeconds,
      default: timeoutLimits.defaultSeconds,
      description: 'Seconds the run may take; past it the run is killed and the session closed.',
    },
    origin: { type: 'string' },
    integration: { type: 'string' },
  },
} as const;

export interface InteractRequest {
  code?: string;
  prompt?: string;
  language: Language;
  timeoutMs: number;
}

/**
 * POST /v2/scrape/{scrapeId}/interact: code or a prompt run on a browser page kept for that scrape
 * (opened at the scrape's URL on first use, BrowserSessions); DELETE closes it. The scrape must be
 * the caller team's (404 otherwise). Charged `interactCredits` when the run finished, never on failure.
 */
export function interactRoutes(app: FastifyInstance, services: Services) {
  app.post('/v2/scrape/:id/interact', { config: { kind: 'scrape' } }, async (request) => {
    const { id } = request.params as { id: string };
    return interactAction(services, request.caller, id, request.body);
  });

  app.delete('/v2/scrape/:id/interact', { config: { kind: 'scrape' } }, async (request) => {
    const { id } = request.params as { id: string };
    return stopInteractAction(services, request.caller, id);
  });
}

export async function interactAction(services: Services, caller: Caller, scrapeId: string, body: unknown) {
  const input = parseInteractRequest(body);
  const document = await services.jobs.getScrape(caller.teamId, scrapeId);
  // The language is the code's: a prompt becomes actions whatever the SDK sends (it sends "node").
  if (input.code !== undefined && input.language === 'node' && !services.config.QUARRY_INTERACT_NODE) {
    throw new NotConfiguredError(
      'Interact with `language: "node"` (code given a `page` object) is off on this server: the operator enables it with QUARRY_INTERACT_NODE=true; or send `language: "javascript"` to run the code inside the page',
    );
  }
  if (input.code !== undefined && (input.language === 'python' || input.language === 'bash')) {
    throw new NotAvailableError(`Interact with \`language: "${input.language}"\` is not available on this server; use "javascript" (in the page) or "node"`);
  }
  const sessions = sessionsOf(services);
  await services.billing.requireCredits(caller.teamId, interactCredits);
  const key: SessionKey = { teamId: caller.teamId, scrapeId };
  const url = new URL(document.metadata.url ?? document.metadata.sourceURL);
  // A call that finished costs its credits; a prompt's model tokens are charged with them either way.
  const { outcome } = await services.billing.chargeRequest(
    caller,
    'interact',
    async () =>
      input.code === undefined
        ? promptOutcome(services, sessions, key, url, input.prompt!, input.timeoutMs)
        : {
            outcome:
              input.language === 'node'
                ? await sessions.runNode(key, url, input.code, input.timeoutMs)
                : await sessions.evaluate(key, url, input.code, input.timeoutMs),
            tokens: 0,
          },
    ({ outcome, tokens }) => ({ credits: outcome.exitCode === 0 ? interactCredits : 0, tokens }),
  );
  const finished = outcome.exitCode === 0;
  return {
    success: finished,
    ...(outcome.result !== undefined ? { result: outcome.result } : {}),
    output: outcome.result ?? outcome.stdout,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    exitCode: outcome.exitCode,
    killed: outcome.killed,
    ...(finished ? {} : { error: outcome.stderr.trim().split('\n')[0] || 'The code failed' }),
    creditsUsed: finished ? interactCredits : 0,
  };
}

export async function stopInteractAction(services: Services, caller: Caller, scrapeId: string) {
  await services.jobs.getScrape(caller.teamId, scrapeId);
  const durationMs = await sessionsOf(services).stop({ teamId: caller.teamId, scrapeId });
  if (durationMs === undefined) {
    throw new NotFoundError(
      `No interact session is open for scrape ${scrapeId}: it was never opened, was stopped, or closed after ${services.config.QUARRY_INTERACT_TTL_SECONDS} s unused`,
    );
  }
  return { success: true, status: 'stopped', sessionDurationMs: durationMs, creditsBilled: 0 };
}

async function promptOutcome(services: Services, sessions: BrowserSessions, key: SessionKey, url: URL, prompt: string, timeoutMs: number) {
  const llm = services.llm;
  if (!llm) throw new NotConfiguredError('Interact with a `prompt` needs a language model: set QUARRY_LLM_PROVIDER (see the README), or send `code`');
  // Opens the session when none is held, so the model sees the page.
  await sessions.evaluate(key, url, 'true', timeoutMs);
  const html = (await sessions.snapshot(key)) ?? '';
  const { actions, tokens } = await actionsForPrompt(llm, prompt, html);
  return { outcome: await sessions.runActions(key, url, actions, timeoutMs), tokens };
}

function sessionsOf(services: Services): BrowserSessions {
  const { sessions } = services;
  if (!sessions) throw new NotConfiguredError('Interact needs the browser engine: install Chromium (apt-get install chromium) or set QUARRY_CHROMIUM_PATH');
  return sessions;
}

/** The body of POST interact; a 400 naming the field otherwise. */
export function parseInteractRequest(body: unknown): InteractRequest {
  const { picked, rest } = take(bodyObject(body), ['code', 'prompt', 'language', 'timeout']);
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`\`${unknown}\` is not an interact field (code, prompt, language, timeout)`, unknown);
  for (const field of ['code', 'prompt'] as const) {
    const value = picked[field];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new ValidationError(`\`${field}\` must be a non-empty string; got ${JSON.stringify(value)}`, field);
    }
  }
  const code = picked.code as string | undefined;
  const prompt = picked.prompt as string | undefined;
  if (code === undefined && prompt === undefined) throw new ValidationError('Either `code` or `prompt` is required', 'code');
  if (code !== undefined && prompt !== undefined) throw new ValidationError('Send `code` or `prompt`, not both', 'prompt');
  const language = picked.language ?? 'javascript';
  if (typeof language !== 'string' || !(languages as readonly string[]).includes(language)) {
    throw new ValidationError(`\`language\` must be one of ${languages.join(', ')}; got ${JSON.stringify(language)}`, 'language');
  }
  const timeout = picked.timeout ?? timeoutLimits.defaultSeconds;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > timeoutLimits.maxSeconds) {
    throw new ValidationError(
      `\`timeout\` must be a number of seconds above 0 and at most ${timeoutLimits.maxSeconds}; got ${JSON.stringify(timeout)}`,
      'timeout',
    );
  }
  return {
    ...(code !== undefined ? { code } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
    language: language as Language,
    timeoutMs: Math.round(timeout * 1000),
  };
}
