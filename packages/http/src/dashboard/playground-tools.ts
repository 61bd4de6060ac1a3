import { NotConfiguredError, ValidationError, parseExtractRequest } from '@quarry/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '../errors/to-http.js';
import { mapAction } from '../routes/map-routes.js';
import { searchAction } from '../routes/search-routes.js';
import type { DashboardAuth, PageContext } from './dashboard-auth.js';
import { html, type Html } from './html.js';
import { csrfField, notice, renderPage } from './layout.js';
import { formText } from './request-guards.js';
import type { SessionOf } from './session-cookie.js';

/**
 * The playground's other tools, each as its API endpoint would answer (same option schema, credits
 * and rate limit): crawl (starts a job, watched on its job page), map and search (results listed
 * here), extract (URLs, a prompt and a JSON schema; a job whose page shows the data).
 */
type TeamContext = PageContext<SessionOf<'team'>>;
type Tool = 'scrape' | 'crawl' | 'map' | 'search' | 'extract';

const toolLabels: Record<Tool, string> = { scrape: 'Scrape', crawl: 'Crawl', map: 'Map', search: 'Search', extract: 'Extract' };

/** The tabs above every playground form. */
export function playgroundTabs(active: Tool): Html {
  return html`<nav class="pager" aria-label="Playground tools">${(Object.keys(toolLabels) as Tool[]).map(
    (tool) =>
      html`<a href="/dashboard/playground${tool === 'scrape' ? '' : `/${tool}`}"${tool === active ? html` aria-current="page"` : ''}>${toolLabels[tool]}</a>`,
  )}</nav>`;
}

const field = (id: string, label: string, control: Html, hint?: string) =>
  html`<div class="field"><label for="${id}">${label}</label>${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}${control}</div>`;

const forms: Record<Exclude<Tool, 'scrape'>, (values: Record<string, string>, csrf: string) => Html> = {
  crawl: (values, csrf) => html`<form class="stack card" method="post" action="/dashboard/jobs/crawl">${csrfField(csrf)}
${field('crawl-url', 'Start URL', html`<input id="crawl-url" name="url" type="url" required value="${values.url ?? ''}" placeholder="https://example.com/docs/">`)}
${field('crawl-limit', 'Most pages', html`<input id="crawl-limit" name="limit" type="number" min="1" max="10000" value="${values.limit ?? '10'}" required>`)}
<div><button type="submit">Start crawl</button></div></form>`,
  map: (values, csrf) => html`<form class="stack card" method="post" action="/dashboard/playground/map">${csrfField(csrf)}
${field('map-url', 'Site URL', html`<input id="map-url" name="url" type="url" required value="${values.url ?? ''}" placeholder="https://example.com/">`)}
${field('map-search', 'Only links about (optional)', html`<input id="map-search" name="search" type="text" value="${values.search ?? ''}">`)}
<div><button type="submit">Map</button></div></form>`,
  search: (values, csrf) => html`<form class="stack card" method="post" action="/dashboard/playground/search">${csrfField(csrf)}
${field('search-query', 'Query', html`<input id="search-query" name="query" type="search" required value="${values.query ?? ''}">`)}
${field('search-limit', 'Most results', html`<input id="search-limit" name="limit" type="number" min="1" max="100" value="${values.limit ?? '5'}" required>`)}
<div><button type="submit">Search</button></div></form>`,
  extract: (values, csrf) => html`<form class="stack card" method="post" action="/dashboard/playground/extract">${csrfField(csrf)}
${field('extract-urls', 'URLs, one per line', html`<textarea id="extract-urls" name="urls" rows="3" required>${values.urls ?? ''}</textarea>`)}
${field('extract-prompt', 'Prompt (optional with a schema)', html`<input id="extract-prompt" name="prompt" type="text" value="${values.prompt ?? ''}">`)}
${field('extract-schema', 'JSON schema (optional with a prompt)', html`<textarea id="extract-schema" name="schema" rows="6" aria-describedby="extract-schema-hint" spellcheck="false">${values.schema ?? ''}</textarea>`, 'e.g. {"type":"object","properties":{"title":{"type":"string"}}}')}
<div><button type="submit">Extract</button></div></form>`,
};

export function playgroundTools(scope: FastifyInstance, auth: DashboardAuth): void {
  const { services } = auth;
  const send = (reply: FastifyReply, context: TeamContext, tool: Exclude<Tool, 'scrape'>, values: Record<string, string>, output: Html | string) =>
    reply
      .type('text/html; charset=utf-8')
      .send(
        renderPage(
          { title: `Playground: ${toolLabels[tool].toLowerCase()}`, session: context.session, csrf: context.csrf, active: '/dashboard/playground' },
          html`${playgroundTabs(tool)}${forms[tool](values, context.csrf)}<div id="playground-output" aria-live="polite">${output}</div>`,
        ),
      );
  const failed = (
    request: FastifyRequest,
    reply: FastifyReply,
    context: TeamContext,
    tool: Exclude<Tool, 'scrape'>,
    values: Record<string, string>,
    error: unknown,
  ) => {
    const failure = toHttpError(error);
    if (failure.status >= 500 && failure.status !== 501) request.log.warn({ err: error }, `playground ${tool} failed`);
    return send(
      reply.status(failure.status),
      context,
      tool,
      values,
      notice('error', html`<strong>The ${tool} failed (${failure.status}).</strong> ${failure.body.error}`),
    );
  };

  for (const tool of ['crawl', 'map', 'search', 'extract'] as const) {
    scope.get(
      `/playground/${tool}`,
      auth.page('team', 'crawlStatus', async (_request, reply, context) => send(reply, context, tool, {}, '')),
    );
  }

  scope.post(
    '/playground/map',
    auth.page('team', 'map', async (request, reply, context) => {
      const values = { url: formText(request, 'url'), search: formText(request, 'search') };
      try {
        const caller = { teamId: context.session.teamId, keyId: context.session.keyId };
        const { links } = (await mapAction(services, caller, { url: values.url, ...(values.search ? { search: values.search } : {}) }, 'v2')) as {
          links: Array<{ url: string; title?: string }>;
        };
        return send(
          reply,
          context,
          'map',
          values,
          html`<h2>Links (${links.length})</h2><ul class="rendered" id="map-links">${links.map((link) => html`<li>${link.url}${link.title ? html` — ${link.title}` : ''}</li>`)}</ul>`,
        );
      } catch (error) {
        return failed(request, reply, context, 'map', values, error);
      }
    }),
  );

  scope.post(
    '/playground/search',
    auth.page('team', 'search', async (request, reply, context) => {
      const values = { query: formText(request, 'query'), limit: formText(request, 'limit') || '5' };
      try {
        const caller = { teamId: context.session.teamId, keyId: context.session.keyId };
        const answer = await searchAction(services, caller, { query: values.query, limit: Number(values.limit) }, 'v2');
        const web = (answer.data as { web?: Array<{ url: string; title?: string; description?: string }> }).web ?? [];
        const items = web.map(
          (result) =>
            html`<li><a href="${result.url}" rel="noopener noreferrer">${result.title || result.url}</a>${result.description ? html`<br><span class="muted">${result.description}</span>` : ''}</li>`,
        );
        return send(
          reply,
          context,
          'search',
          values,
          html`<h2>Results (${web.length})</h2>${web.length ? html`<ol class="rendered" id="search-results">${items}</ol>` : html`<p class="muted">No results.</p>`}`,
        );
      } catch (error) {
        return failed(request, reply, context, 'search', values, error);
      }
    }),
  );

  scope.post(
    '/playground/extract',
    auth.page('team', 'extract', async (request, reply, context) => {
      const values = { urls: formText(request, 'urls'), prompt: formText(request, 'prompt'), schema: formText(request, 'schema') };
      try {
        let schema: unknown;
        if (values.schema.trim()) {
          try {
            schema = JSON.parse(values.schema);
          } catch (error) {
            throw new ValidationError(`\`schema\` must be JSON: ${(error as Error).message}`, 'schema');
          }
        }
        const urls = values.urls
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        const parsed = parseExtractRequest('v2', { urls, ...(values.prompt ? { prompt: values.prompt } : {}), ...(schema !== undefined ? { schema } : {}) });
        if (!services.llm && !parsed.options.schema)
          throw new NotConfiguredError(
            'Extract with only a prompt needs an LLM provider, and none is configured: give a JSON schema (filled from each page’s structured data), or ask the operator to configure one.',
          );
        await services.billing.requireCredits(context.session.teamId, 1);
        const job = await services.jobs.startAgentJob({
          kind: 'extract',
          teamId: context.session.teamId,
          url: parsed.options.urls[0] ?? parsed.options.prompt ?? '',
          request: { version: 'v2', options: parsed.options },
        });
        return reply.redirect(`/dashboard/jobs/${job.id}`, 303);
      } catch (error) {
        return failed(request, reply, context, 'extract', values, error);
      }
    }),
  );
}
