import { NotFoundError, ValidationError, type Team } from '@quarry/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DashboardAuth, PageContext } from './dashboard-auth.js';
import { html, type Html } from './html.js';
import { keyName, keysTable } from './keys-pages.js';
import { jobsTable } from './jobs-pages.js';
import { csrfField, formatCredits, notice, renderPage, scrollTable, secretOnce } from './layout.js';
import { formText } from './request-guards.js';
import type { SessionOf } from './session-cookie.js';
import { loadUsage, renderUsage, usageWindowDays } from './usage-view.js';

/**
 * The operator's view: every team with its credits and usage; create a team (with its first key),
 * set a team's credits, create a key for a team, and a team's usage, keys (any of which the admin
 * can revoke) and recent jobs.
 */
type AdminContext = PageContext<SessionOf<'admin'>>;

const teamIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const notices: Record<string, string> = { credits: 'Credits saved.' };

export function adminPages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { ledger } = auth.services;

  const sendTeams = async (reply: FastifyReply, context: AdminContext, message: Html | string) => {
    const teams = await ledger.listTeams();
    const rows = await Promise.all(
      teams.map(async (team) => {
        const [usage, keys] = await Promise.all([loadUsage(ledger, team.id, auth.now()), ledger.listKeys(team.id)]);
        return teamRow(team, usage.credits, keys.filter((key) => key.revokedAt === undefined).length, context.csrf);
      }),
    );
    const body = html`
${message}
<h2>Create a team</h2>
<form class="stack card" method="post" action="/dashboard/admin/teams">
  ${csrfField(context.csrf)}
  <div class="field"><label for="team-name">Team name</label>
  <span class="hint" id="team-name-hint">Letters, digits, dot, dash and underscore; it is also the team's id.</span>
  <input id="team-name" name="name" type="text" required maxlength="64" pattern="[A-Za-z0-9][A-Za-z0-9._\\-]*" aria-describedby="team-name-hint"></div>
  <div class="field"><label for="team-credits">Credits</label>
  <span class="hint" id="team-credits-hint">A whole number, or empty for unlimited.</span>
  <input id="team-credits" name="credits" type="text" inputmode="numeric" value="${auth.services.config.QUARRY_DEFAULT_CREDITS}" aria-describedby="team-credits-hint"></div>
  <div class="field"><label for="team-key-name">Name of its first API key</label>
  <span class="hint" id="team-key-hint">Leave empty to create the team without a key. Once any key exists, the API asks every request for one.</span>
  <input id="team-key-name" name="keyName" type="text" maxlength="100" value="default" aria-describedby="team-key-hint"></div>
  <div><button type="submit">Create team</button></div>
</form>
<h2>Teams</h2>
${scrollTable(
  'Teams',
  html`<table><thead><tr><th scope="col">Team</th><th scope="col" class="number">Credits remaining</th><th scope="col" class="number">Credits used (${usageWindowDays} days)</th><th scope="col" class="number">Tokens used</th><th scope="col" class="number">Active keys</th><th scope="col">Set credits</th></tr></thead><tbody>${rows}</tbody></table>`,
)}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: 'Teams', session: context.session, csrf: context.csrf, active: '/dashboard/admin' }, body));
  };

  scope.get(
    '/admin',
    auth.page('admin', 'crawlStatus', async (request, reply, context) => {
      const saved = notices[(request.query as { saved?: string }).saved ?? ''];
      return sendTeams(reply, context, saved ? notice('ok', saved) : '');
    }),
  );

  scope.post(
    '/admin/teams',
    auth.page('admin', 'crawlStatus', async (request, reply, context) => {
      const id = formText(request, 'name');
      if (!teamIdPattern.test(id))
        throw new ValidationError('`name` must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit', 'name');
      if (await ledger.getTeam(id)) throw new ValidationError(`A team named ${id} exists already`, 'name');
      const credits = parseCredits(formText(request, 'credits'));
      const keyLabel = formText(request, 'keyName');
      await ledger.ensureTeam(id, id);
      await ledger.setCredits(id, credits);
      const key = keyLabel ? await ledger.createKey(id, keyName(keyLabel)) : undefined;
      const message = html`${notice('ok', `Team ${id} created with ${formatCredits(credits)} credits.`)}${
        key ? secretOnce('new-key', `API key “${key.name}” of team ${id}:`, key.key) : ''
      }`;
      return sendTeams(reply.header('cache-control', 'no-store'), context, message);
    }),
  );

  scope.post(
    '/admin/teams/:id/credits',
    auth.page('admin', 'crawlStatus', async (request, reply) => {
      const team = await requireTeam(auth, (request.params as { id: string }).id);
      await ledger.setCredits(team.id, parseCredits(formText(request, 'credits')));
      return reply.redirect('/dashboard/admin?saved=credits', 303);
    }),
  );

  const sendTeam = async (reply: FastifyReply, context: AdminContext, team: Team, message: Html | string) => {
    const { jobStore } = auth.services;
    const [usage, keys, allJobs] = await Promise.all([loadUsage(ledger, team.id, auth.now()), ledger.listKeys(team.id), jobStore.listJobs(team.id, 50)]);
    const jobs = allJobs.filter((job) => job.expiresAt > auth.now());
    const progress = await Promise.all(jobs.map((job) => jobStore.progress(job.id)));
    const revokeForm = (key: { id: string; name: string }) =>
      html`<form class="inline" method="post" action="/dashboard/admin/teams/${team.id}/keys/${key.id}/revoke">${csrfField(context.csrf)}<button type="submit" class="danger" aria-label="${`Revoke ${key.name} of ${team.id}`}">Revoke</button></form>`;
    const body = html`
<p><a href="/dashboard/admin">← All teams</a></p>
${message}
${renderUsage(team, usage)}
<h2>API keys</h2>
<form class="inline card" method="post" action="/dashboard/admin/teams/${team.id}/keys">
  ${csrfField(context.csrf)}
  <div class="field"><label for="key-name">Name of a new key for ${team.id}</label>
  <input id="key-name" name="name" type="text" required maxlength="100"></div>
  <button type="submit">Create key</button>
</form>
${keysTable(keys, { revocable: true, revokeForm })}
<h2>Recent jobs</h2>
${jobs.length === 0 ? html`<p class="muted">No jobs.</p>` : jobsTable(jobs, progress, false)}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: `Team ${team.id}`, session: context.session, csrf: context.csrf, active: '/dashboard/admin' }, body));
  };

  scope.get(
    '/admin/teams/:id',
    auth.page('admin', 'crawlStatus', async (request, reply, context) => {
      return sendTeam(reply, context, await requireTeam(auth, (request.params as { id: string }).id), '');
    }),
  );

  scope.post(
    '/admin/teams/:id/keys/:keyId/revoke',
    auth.page('admin', 'crawlStatus', async (request, reply, context) => {
      const params = request.params as { id: string; keyId: string };
      const team = await requireTeam(auth, params.id);
      const key = (await ledger.listKeys(team.id)).find((candidate) => candidate.id === params.keyId && candidate.revokedAt === undefined);
      if (!key) throw new NotFoundError('No active key with that id in this team');
      await ledger.revokeKey(key.id);
      return sendTeam(reply, context, team, notice('ok', `Key “${key.name}” of ${team.id} revoked: requests with it are refused from now on.`));
    }),
  );

  scope.post(
    '/admin/teams/:id/keys',
    auth.page('admin', 'crawlStatus', async (request, reply, context) => {
      const team = await requireTeam(auth, (request.params as { id: string }).id);
      const key = await ledger.createKey(team.id, keyName(formText(request, 'name')));
      return sendTeam(reply.header('cache-control', 'no-store'), context, team, secretOnce('new-key', `API key “${key.name}” of team ${team.id}:`, key.key));
    }),
  );
}

function teamRow(team: Team, usedCredits: number, activeKeys: number, csrf: string): Html {
  const inputId = `credits-${team.id}`;
  return html`<tr>
<th scope="row"><a href="/dashboard/admin/teams/${team.id}">${team.id}</a></th>
<td class="number">${formatCredits(team.credits)}</td>
<td class="number">${usedCredits.toLocaleString('en-US')}</td>
<td class="number">${team.tokensUsed.toLocaleString('en-US')}</td>
<td class="number">${activeKeys}</td>
<td><form class="inline" method="post" action="/dashboard/admin/teams/${team.id}/credits">${csrfField(csrf)}
<label class="visually-hidden" for="${inputId}">Credits of ${team.id} (empty for unlimited)</label>
<input id="${inputId}" name="credits" type="text" inputmode="numeric" size="10" value="${team.credits ?? ''}">
<button type="submit" aria-label="${`Save the credits of ${team.id}`}">Save</button></form></td>
</tr>`;
}

/** Credits from a form: a whole number >= 0, or empty / "unlimited" for unlimited. */
export function parseCredits(text: string): number | null {
  if (text === '' || text.toLowerCase() === 'unlimited') return null;
  const credits = Number(text.replace(/[_,\s]/g, ''));
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new ValidationError(`\`credits\` must be a whole number >= 0 or empty for unlimited; got ${JSON.stringify(text)}`, 'credits');
  return credits;
}

async function requireTeam(auth: DashboardAuth, id: string): Promise<Team> {
  const team = await auth.services.ledger.getTeam(id);
  if (!team) throw new NotFoundError('Team not found');
  return team;
}
