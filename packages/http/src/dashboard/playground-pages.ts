import type { ScrapeDocument } from '@quarry/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '../errors/to-http.js';
import { scrapeAction } from '../routes/scrape-routes.js';
import { publicOrigin } from '../server/request-context.js';
import { curlSnippet, javascriptSnippet, pythonSnippet, type SnippetRequest } from './code-snippets.js';
import type { DashboardAuth, PageContext } from './dashboard-auth.js';
import { metadataList, renderMarkdown, screenshotSource } from './document-view.js';
import { html, type Html } from './html.js';
import { csrfField, notice, renderPage } from './layout.js';
import { formBody, formText } from './request-guards.js';
import type { SessionOf } from './session-cookie.js';
import { playgroundTabs } from './playground-tools.js';

/**
 * The playground: scrape one URL with chosen formats, exactly as POST /v2/scrape would (same
 * options schema, same credits, same rate limit), and show markdown, html, links, metadata and the
 * screenshot side by side, with the equivalent curl and SDK calls.
 */
type TeamContext = PageContext<SessionOf<'team'>>;

const formatChoices = [
  { name: 'markdown', label: 'Markdown' },
  { name: 'html', label: 'HTML (cleaned)' },
  { name: 'rawHtml', label: 'Raw HTML' },
  { name: 'links', label: 'Links' },
  { name: 'screenshot', label: 'Screenshot (needs Chromium)' },
];
const htmlShownLimit = 200_000;

interface PlaygroundInput {
  url: string;
  formats: string[];
  onlyMainContent: boolean;
}

export function playgroundPages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { services } = auth;

  scope.get(
    '/playground',
    auth.page('team', 'crawlStatus', async (_request, reply, context) => {
      return sendPlayground(reply, context, { url: '', formats: ['markdown'], onlyMainContent: true }, html``);
    }),
  );

  scope.post(
    '/playground',
    auth.page('team', 'scrape', async (request, reply, context) => {
      const input: PlaygroundInput = {
        url: formText(request, 'url'),
        formats: formBody(request)
          .getAll('formats')
          .filter((format) => formatChoices.some((choice) => choice.name === format)),
        onlyMainContent: formText(request, 'onlyMainContent') === 'on',
      };
      if (input.formats.length === 0) input.formats = ['markdown'];
      try {
        // The API's own action: the same checks, team scope and charge as POST /v2/scrape.
        const caller = { teamId: context.session.teamId, keyId: context.session.keyId };
        const { data } = await scrapeAction(services, caller, { url: input.url, formats: input.formats, onlyMainContent: input.onlyMainContent }, 'v2');
        return sendPlayground(reply, context, input, html`${results(data)}${snippets(snippetRequest(request, input))}`);
      } catch (error) {
        const failure = toHttpError(error);
        if (failure.status >= 500 && failure.status !== 501) request.log.warn({ err: error }, 'playground scrape failed');
        const message = notice('error', html`<strong>The scrape failed (${failure.status}).</strong> ${failure.body.error}`);
        return sendPlayground(reply.status(failure.status), context, input, html`${message}${snippets(snippetRequest(request, input))}`);
      }
    }),
  );
}

function snippetRequest(request: FastifyRequest, input: PlaygroundInput): SnippetRequest {
  return { baseUrl: publicOrigin(request), ...input };
}

function sendPlayground(reply: FastifyReply, context: TeamContext, input: PlaygroundInput, output: Html) {
  const body = html`${playgroundTabs('scrape')}
<form class="stack card" method="post" action="/dashboard/playground">
  ${csrfField(context.csrf)}
  <div class="field"><label for="playground-url">URL</label>
  <input id="playground-url" name="url" type="url" required value="${input.url}" placeholder="https://example.com/"></div>
  <fieldset><legend>Formats</legend>
  ${formatChoices.map(
    (choice) =>
      html`<label><input type="checkbox" name="formats" value="${choice.name}"${input.formats.includes(choice.name) ? html` checked` : ''}> ${choice.label}</label>`,
  )}
  </fieldset>
  <label><input type="checkbox" name="onlyMainContent"${input.onlyMainContent ? html` checked` : ''}> Only the main content (leave out navigation, headers, footers)</label>
  <div><button type="submit">Scrape</button></div>
</form>
<div id="playground-output" aria-live="polite">${output}</div>`;
  return reply
    .type('text/html; charset=utf-8')
    .send(renderPage({ title: 'Playground', session: context.session, csrf: context.csrf, active: '/dashboard/playground' }, body));
}

function results(document: ScrapeDocument): Html {
  const panel = (id: string, title: string, content: Html) =>
    html`<section class="panel" id="${id}" aria-labelledby="${id}-heading"><h2 id="${id}-heading">${title}</h2>${content}</section>`;
  const clip = (text: string) => (text.length > htmlShownLimit ? `${text.slice(0, htmlShownLimit)}\n… (cut at ${htmlShownLimit} characters)` : text);
  const screenshot = screenshotSource(document.screenshot);
  const panels = [
    document.markdown !== undefined
      ? panel(
          'result-markdown',
          'Markdown',
          html`<div class="rendered">${renderMarkdown(document.markdown)}</div><details><summary>Markdown source</summary><pre class="wrap">${document.markdown}</pre></details>`,
        )
      : '',
    document.html !== undefined ? panel('result-html', 'HTML', html`<pre class="wrap">${clip(document.html)}</pre>`) : '',
    document.rawHtml !== undefined ? panel('result-raw-html', 'Raw HTML', html`<pre class="wrap">${clip(document.rawHtml)}</pre>`) : '',
    document.links !== undefined
      ? panel('result-links', `Links (${document.links.length})`, html`<ul class="rendered">${document.links.map((link) => html`<li>${link}</li>`)}</ul>`)
      : '',
    panel('result-metadata', 'Metadata', metadataList(document.metadata)),
    screenshot
      ? panel(
          'result-screenshot',
          'Screenshot',
          html`<div class="screenshot"><img src="${screenshot}" alt="Screenshot of ${document.metadata?.sourceURL ?? 'the page'}"></div>`,
        )
      : '',
  ];
  return html`<h2>Result</h2><div class="panels">${panels}</div>`;
}

function snippets(request: SnippetRequest): Html {
  const block = (id: string, title: string, code: string) =>
    html`<section class="panel"><h3 id="${id}-heading">${title}</h3><pre id="${id}" aria-labelledby="${id}-heading">${code}</pre><button type="button" class="button secondary" data-copy="${id}" hidden>Copy</button></section>`;
  return html`<h2>The same request in code</h2>
<p class="muted">Set <code>QUARRY_API_KEY</code> to one of your API keys.</p>
<div class="panels">
${block('snippet-curl', 'curl', curlSnippet(request))}
${block('snippet-js', 'JavaScript SDK (@mendable/firecrawl-js)', javascriptSnippet(request))}
${block('snippet-python', 'Python SDK (firecrawl-py)', pythonSnippet(request))}
</div>`;
}
