import { NotFoundError, parseCrawlRequest, type JobProgress, type JobRecord } from '@quarry/core';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../server/services.js';
import type { DashboardAuth } from './dashboard-auth.js';
import { html, type Html } from './html.js';
import { csrfField, formatTime, renderPage, scrollTable } from './layout.js';
import { formText } from './request-guards.js';

/**
 * The team's jobs (crawls, batch scrapes, and the later kinds): a list with status, progress and
 * credits, and a form that starts a crawl. Another team's jobs are never listed, and opening one by
 * id answers exactly like an unknown id.
 */
const listLimit = 50;

/** Job kinds as people call them; kinds added later show as they are spelled until named here. */
export const jobKindLabels: Record<string, string> = {
  crawl: 'Crawl',
  batch_scrape: 'Batch scrape',
  extract: 'Extract',
  deep_research: 'Deep research',
  llmstxt: 'llms.txt',
  agent: 'Agent',
};

export function kindLabel(kind: string): string {
  return jobKindLabels[kind] ?? kind;
}

/** The job when it exists, has not expired and belongs to `teamId`; NotFoundError otherwise. */
export async function teamJob(services: Services, teamId: string, id: string): Promise<JobRecord> {
  const job = await services.jobStore.getJob(id);
  if (!job || job.teamId !== teamId || job.expiresAt <= services.clock.now()) throw new NotFoundError('Job not found');
  return job;
}

export function statusBadge(status: string): Html {
  return html`<span class="status status-${status}" data-field="status">${status}</span>`;
}

export function jobsPages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { services } = auth;

  scope.get(
    '/jobs',
    auth.page('team', 'crawlStatus', async (_request, reply, context) => {
      const now = auth.now();
      const jobs = (await services.jobStore.listJobs(context.session.teamId, listLimit)).filter((job) => job.expiresAt > now && job.kind !== 'scrape');
      const progress = await Promise.all(jobs.map((job) => services.jobStore.progress(job.id)));
      const body = html`
<h2>Start a crawl</h2>
<form class="stack card" method="post" action="/dashboard/jobs/crawl">
  ${csrfField(context.csrf)}
  <div class="field"><label for="crawl-url">Start URL</label>
  <input id="crawl-url" name="url" type="url" required placeholder="https://example.com/docs/"></div>
  <div class="field"><label for="crawl-limit">Most pages</label>
  <input id="crawl-limit" name="limit" type="number" min="1" max="10000" value="10" required></div>
  <div><button type="submit">Start crawl</button></div>
</form>
<h2>Recent jobs</h2>
${jobs.length === 0 ? html`<p class="muted">No jobs yet. Start a crawl above, or through the API.</p>` : jobsTable(jobs, progress)}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(renderPage({ title: 'Jobs', session: context.session, csrf: context.csrf, active: '/dashboard/jobs' }, body));
    }),
  );

  scope.post(
    '/jobs/crawl',
    auth.page('team', 'crawl', async (request, reply, context) => {
      const teamId = context.session.teamId;
      const limit = Number(formText(request, 'limit') || '10');
      const parsed = parseCrawlRequest('v2', { url: formText(request, 'url'), limit });
      const options = { ...parsed.options, limit: await services.billing.capLimit(teamId, parsed.options.limit) };
      const job = await services.jobs.startCrawl({ teamId, url: parsed.url, options, version: 'v2' });
      return reply.redirect(`/dashboard/jobs/${job.id}`, 303);
    }),
  );
}

/** Jobs with their progress; each URL links to the job's page unless `linked` is false (the admin's view). */
export function jobsTable(jobs: JobRecord[], progress: JobProgress[], linked = true): Html {
  const rows = jobs.map((job, index) => {
    const counts = progress[index]!;
    return html`<tr>
<td data-label="Kind">${kindLabel(job.kind)}</td>
<td data-label="URL" class="url">${linked ? html`<a href="/dashboard/jobs/${job.id}">${job.url}</a>` : job.url}</td>
<td data-label="Status">${statusBadge(job.status)}</td>
<td data-label="Pages" class="number">${counts.completed} / ${counts.total}</td>
<td data-label="Credits" class="number">${counts.creditsUsed}</td>
<td data-label="Started">${formatTime(job.createdAt)}</td>
</tr>`;
  });
  return scrollTable(
    'Recent jobs',
    html`<table class="stack"><thead><tr><th scope="col">Kind</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col" class="number">Pages</th><th scope="col" class="number">Credits</th><th scope="col">Started</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}
