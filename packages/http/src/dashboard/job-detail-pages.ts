import { NotFoundError, terminalJobStatuses, type JobRecord } from '@quarry/core';
import type { FastifyInstance } from 'fastify';
import type { DashboardAuth } from './dashboard-auth.js';
import { metadataList, renderMarkdown } from './document-view.js';
import { agentResultSection } from './agent-result.js';
import { html, type Html } from './html.js';
import { csrfField, formatTime, notice, renderPage, scrollTable } from './layout.js';
import { kindLabel, statusBadge, teamJob } from './jobs-pages.js';
import { markdownFileName, zipStore } from './zip-store.js';

/**
 * One job: status and progress (live while it runs: the client script polls `/progress`), credits,
 * a cancel button (after a confirmation page), its errors and robots-blocked URLs, and the result
 * browser (pages in completion order; each page's markdown rendered, and its metadata).
 */
const pageSize = 25;

export function jobDetailPages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { services } = auth;
  const jobOf = (request: { params: unknown }, teamId: string) => teamJob(services, teamId, (request.params as { id: string }).id);
  const frame = (title: string, context: { session: Parameters<typeof renderPage>[0]['session']; csrf: string }) => ({
    title,
    session: context.session,
    csrf: context.csrf,
    active: '/dashboard/jobs',
  });

  scope.get(
    '/jobs/:id',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const skip = Math.max(0, Math.floor(Number((request.query as { skip?: string }).skip ?? 0)) || 0);
      const [result, progress, documents, errors, robotsBlocked] = await Promise.all([
        agentResultSection(services.jobStore, job),
        services.jobStore.progress(job.id),
        services.jobStore.listDocuments(job.id, skip, pageSize),
        services.jobStore.listErrors(job.id),
        services.jobStore.listRobotsBlocked(job.id),
      ]);
      const isRunning = job.status === 'scraping';
      const pages = documents.map(
        (document, index) =>
          html`<tr><td class="number">${skip + index + 1}</td><td><a href="/dashboard/jobs/${job.id}/pages/${skip + index}">${document.metadata?.title || document.metadata?.sourceURL || 'Untitled'}</a></td><td>${document.metadata?.sourceURL ?? ''}</td><td class="number">${document.metadata?.statusCode ?? ''}</td></tr>`,
      );
      const body = html`
<p><a href="/dashboard/jobs">← All jobs</a></p>
<section class="card" aria-labelledby="progress-heading" ${isRunning ? html`data-progress-url="/dashboard/jobs/${job.id}/progress"` : ''}>
  <h2 id="progress-heading">${kindLabel(job.kind)} of <span class="rendered">${job.url}</span></h2>
  <dl class="meta">
    <dt>Status</dt><dd>${statusBadge(job.status)}</dd>
    <dt>Pages</dt><dd><span data-field="completed">${progress.completed}</span> completed of <span data-field="total">${progress.total}</span>, <span data-field="failed">${progress.failed}</span> failed</dd>
    <dt>Credits</dt><dd data-field="creditsUsed">${progress.creditsUsed}</dd>
    <dt>Started</dt><dd>${formatTime(job.createdAt)}</dd>
    <dt>Job id</dt><dd><code>${job.id}</code></dd>
    ${job.error ? html`<dt>Error</dt><dd>${job.error}</dd>` : ''}
  </dl>
  <label for="job-progress" class="visually-hidden">Progress</label>
  <progress id="job-progress" max="${Math.max(progress.total, 1)}" value="${progress.completed}">${progress.completed} of ${progress.total}</progress>
  ${isRunning ? html`<p class="actions"><a class="button danger" href="/dashboard/jobs/${job.id}/cancel">Cancel job…</a></p>` : ''}
  ${!isRunning && progress.completed > 0 ? html`<p class="actions"><a class="button secondary" href="/dashboard/jobs/${job.id}/results.jsonl" download>Download JSONL</a> <a class="button secondary" href="/dashboard/jobs/${job.id}/results.zip" download>Download markdown (zip)</a></p>` : ''}
</section>
${result}
<h2>Pages</h2>
${
  documents.length === 0
    ? html`<p class="muted">${isRunning ? 'No page finished yet.' : 'No pages.'}</p>`
    : scrollTable(
        'Pages',
        html`<table><thead><tr><th scope="col" class="number">#</th><th scope="col">Title</th><th scope="col">URL</th><th scope="col" class="number">Status</th></tr></thead><tbody>${pages}</tbody></table>`,
      )
}
${pager(job, skip, documents.length)}
<h2>Errors</h2>
${
  errors.length === 0
    ? html`<p class="muted">None.</p>`
    : scrollTable(
        'Errors',
        html`<table><thead><tr><th scope="col">URL</th><th scope="col">Error</th><th scope="col">When</th></tr></thead><tbody>${errors.map(
          (error) =>
            html`<tr><td>${error.url}</td><td>${error.code ? html`<code>${error.code}</code> ` : ''}${error.error}</td><td>${error.timestamp}</td></tr>`,
        )}</tbody></table>`,
      )
}
<h2>Blocked by robots.txt</h2>
${robotsBlocked.length === 0 ? html`<p class="muted">None.</p>` : html`<ul>${robotsBlocked.map((url) => html`<li>${url}</li>`)}</ul>`}`;
      return reply.type('text/html; charset=utf-8').send(renderPage(frame(`${kindLabel(job.kind)} ${job.id.slice(0, 8)}`, context), body));
    }),
  );

  scope.get(
    '/jobs/:id/progress',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const progress = await services.jobStore.progress(job.id);
      return reply.header('cache-control', 'no-store').send({
        status: job.status,
        completed: progress.completed,
        total: progress.total,
        failed: progress.failed,
        creditsUsed: progress.creditsUsed,
      });
    }),
  );

  scope.get(
    '/jobs/:id/pages/:index',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const index = Number((request.params as { index: string }).index);
      const [document] = Number.isSafeInteger(index) && index >= 0 ? await services.jobStore.listDocuments(job.id, index, 1) : [];
      if (!document) throw new NotFoundError('Page not found');
      const hasNext = (await services.jobStore.listDocuments(job.id, index + 1, 1)).length > 0;
      const title = document.metadata?.title || document.metadata?.sourceURL || `Page ${index + 1}`;
      const body = html`
<p><a href="/dashboard/jobs/${job.id}">← ${kindLabel(job.kind)} ${job.id.slice(0, 8)}</a></p>
<nav class="pager" aria-label="Pages of this job">
  ${index > 0 ? html`<a href="/dashboard/jobs/${job.id}/pages/${index - 1}">← Previous page</a>` : ''}
  ${hasNext ? html`<a href="/dashboard/jobs/${job.id}/pages/${index + 1}">Next page →</a>` : ''}
</nav>
<div class="panels">
  <section class="panel" aria-labelledby="markdown-heading">
    <h2 id="markdown-heading">Markdown</h2>
    ${
      document.markdown === undefined
        ? html`<p class="muted">This job did not ask for markdown.</p>`
        : html`<div class="rendered" id="rendered-markdown">${renderMarkdown(document.markdown)}</div>
    <details><summary>Markdown source</summary><pre class="wrap">${document.markdown}</pre></details>`
    }
  </section>
  <section class="panel" aria-labelledby="metadata-heading">
    <h2 id="metadata-heading">Metadata</h2>
    ${metadataList(document.metadata)}
  </section>
</div>`;
      return reply.type('text/html; charset=utf-8').send(renderPage(frame(String(title), context), body));
    }),
  );

  // A finished job's pages, whole: one JSON document per line, or one markdown file per page.
  const allDocuments = async (jobId: string) => {
    const documents = [];
    for (let skip = 0; ; skip += 500) {
      const batch = await services.jobStore.listDocuments(jobId, skip, 500);
      documents.push(...batch);
      if (batch.length < 500) return documents;
    }
  };
  scope.get(
    '/jobs/:id/results.jsonl',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const lines = (await allDocuments(job.id)).map((document) => `${JSON.stringify(document)}\n`).join('');
      return reply.type('application/x-ndjson; charset=utf-8').header('content-disposition', `attachment; filename="${job.kind}-${job.id}.jsonl"`).send(lines);
    }),
  );
  scope.get(
    '/jobs/:id/results.zip',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const files = (await allDocuments(job.id)).map((document, index) => ({
        name: markdownFileName(index, document.metadata?.sourceURL),
        content: document.markdown ?? '',
      }));
      return reply.type('application/zip').header('content-disposition', `attachment; filename="${job.kind}-${job.id}-markdown.zip"`).send(zipStore(files));
    }),
  );

  scope.get(
    '/jobs/:id/cancel',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      const body = terminalJobStatuses.has(job.status)
        ? notice('warning', html`This job is ${job.status} already. <a href="/dashboard/jobs/${job.id}">Back to the job</a>`)
        : html`<div class="card"><p>Cancel the ${kindLabel(job.kind).toLowerCase()} of <strong>${job.url}</strong>? Pages in flight finish; no new page starts. Pages done so far are kept.</p>
<form class="actions" method="post" action="/dashboard/jobs/${job.id}/cancel">${csrfField(context.csrf)}
<button type="submit" class="danger">Cancel job</button> <a class="button secondary" href="/dashboard/jobs/${job.id}">Keep it running</a></form></div>`;
      return reply.type('text/html; charset=utf-8').send(renderPage(frame('Cancel a job', context), body));
    }),
  );

  scope.post(
    '/jobs/:id/cancel',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const job = await jobOf(request, context.session.teamId);
      await services.jobs.cancel(job.id);
      return reply.redirect(`/dashboard/jobs/${job.id}`, 303);
    }),
  );
}

function pager(job: JobRecord, skip: number, shown: number): Html {
  if (skip === 0 && shown < pageSize) return html``;
  return html`<nav class="pager" aria-label="More pages">
${skip > 0 ? html`<a href="/dashboard/jobs/${job.id}?skip=${Math.max(0, skip - pageSize)}">← Earlier pages</a>` : ''}
${shown === pageSize ? html`<a href="/dashboard/jobs/${job.id}?skip=${skip + pageSize}">Later pages →</a>` : ''}
</nav>`;
}
