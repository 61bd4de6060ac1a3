import { NotFoundError, ValidationError, type ApiKeyInfo } from '@quarry/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DashboardAuth, PageContext } from './dashboard-auth.js';
import { html, type Html } from './html.js';
import { csrfField, formatTime, notice, renderPage, scrollTable, secretOnce } from './layout.js';
import { formText } from './request-guards.js';
import type { SessionOf } from './session-cookie.js';

/**
 * A team's API keys: create with a name (the secret is shown once, with a copy button), list with
 * prefix and last four, created and last used, and revoke after a confirmation page (effective on
 * the next request: the ledger is asked on every request).
 */
type TeamContext = PageContext<SessionOf<'team'>>;

export function keysPages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { ledger } = auth.services;

  scope.get(
    '/keys',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const query = request.query as { revoked?: string };
      const message = query.revoked === '1' ? notice('ok', 'The key was revoked: requests with it are refused from now on.') : '';
      return sendKeysPage(reply, context, await ledger.listKeys(context.session.teamId), message);
    }),
  );

  scope.post(
    '/keys',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const name = keyName(formText(request, 'name'));
      const created = await ledger.createKey(context.session.teamId, name);
      const shown = secretOnce('new-key', `Your new key “${created.name}”:`, created.key);
      return sendKeysPage(reply.header('cache-control', 'no-store'), context, await ledger.listKeys(context.session.teamId), shown);
    }),
  );

  scope.get(
    '/keys/:id/revoke',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const key = await ownKey(auth, context, (request.params as { id: string }).id);
      const body = html`
<div class="card">
  <p>Revoke the key <strong>${key.name}</strong> (<code>${key.prefix}…${key.last4}</code>)? Every request with it is refused from the next one on; this cannot be undone.</p>
  <form class="actions" method="post" action="/dashboard/keys/${key.id}/revoke">
    ${csrfField(context.csrf)}
    <button type="submit" class="danger">Revoke key</button>
    <a class="button secondary" href="/dashboard/keys">Keep it</a>
  </form>
</div>`;
      return reply
        .type('text/html; charset=utf-8')
        .send(renderPage({ title: 'Revoke a key', session: context.session, csrf: context.csrf, active: '/dashboard/keys' }, body));
    }),
  );

  scope.post(
    '/keys/:id/revoke',
    auth.page('team', 'crawlStatus', async (request, reply, context) => {
      const key = await ownKey(auth, context, (request.params as { id: string }).id);
      await ledger.revokeKey(key.id);
      return reply.redirect('/dashboard/keys?revoked=1', 303);
    }),
  );
}

/** A key name: 1 to 100 characters. */
export function keyName(name: string): string {
  if (name.length < 1 || name.length > 100) throw new ValidationError(`\`name\` must be 1 to 100 characters; got ${name.length}`, 'name');
  return name;
}

async function ownKey(auth: DashboardAuth, context: TeamContext, id: string): Promise<ApiKeyInfo> {
  const key = (await auth.services.ledger.listKeys(context.session.teamId)).find((entry) => entry.id === id);
  if (!key) throw new NotFoundError('Key not found');
  return key;
}

function sendKeysPage(reply: FastifyReply, context: TeamContext, keys: ApiKeyInfo[], message: Html | string) {
  const body = html`
${message}
<form class="inline card" method="post" action="/dashboard/keys">
  ${csrfField(context.csrf)}
  <div class="field"><label for="key-name">Name of the new key</label>
  <input id="key-name" name="name" type="text" required maxlength="100" placeholder="e.g. production crawler"></div>
  <button type="submit">Create key</button>
</form>
<h2>Keys of team ${context.session.teamId}</h2>
${keysTable(keys, { revocable: true, currentKeyId: context.session.keyId })}`;
  return reply
    .type('text/html; charset=utf-8')
    .send(renderPage({ title: 'API keys', session: context.session, csrf: context.csrf, active: '/dashboard/keys' }, body));
}

export function keysTable(keys: ApiKeyInfo[], options: { revocable: boolean; currentKeyId?: string; revokeForm?: (key: ApiKeyInfo) => Html }): Html {
  if (keys.length === 0) return html`<p class="muted">No keys yet.</p>`;
  const rows = keys.map((key) => {
    const state =
      key.revokedAt === undefined
        ? html`<span class="status status-active">active</span>`
        : html`<span class="status status-revoked">revoked</span> ${formatTime(key.revokedAt)}`;
    const action =
      options.revocable && key.revokedAt === undefined
        ? (options.revokeForm?.(key) ?? html`<a href="/dashboard/keys/${key.id}/revoke" aria-label="${`Revoke ${key.name}`}">Revoke…</a>`)
        : '';
    return html`<tr data-key-id="${key.id}"><td>${key.name}${key.id === options.currentKeyId ? html` <span class="muted">(this session)</span>` : ''}</td><td><code>${key.prefix}…${key.last4}</code></td><td>${formatTime(key.createdAt)}</td><td>${formatTime(key.lastUsedAt)}</td><td>${state}</td>${options.revocable ? html`<td>${action}</td>` : ''}</tr>`;
  });
  return scrollTable(
    'API keys',
    html`<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th>${
      options.revocable ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''
    }</tr></thead><tbody>${rows}</tbody></table>`,
  );
}
