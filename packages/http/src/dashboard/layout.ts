import { assetPaths } from './assets.js';
import { html, type Html } from './html.js';
import type { DashboardSession } from './session-cookie.js';

/** The frame of every dashboard page: skip link, header with navigation and sign-out, main. */
export interface PageFrame {
  title: string;
  session?: DashboardSession;
  /** The session's CSRF token (forms in the frame need it: sign-out). */
  csrf?: string;
  /** Path of the navigation entry to mark as the current page. */
  active?: string;
}

const teamNavigation = [
  { path: '/dashboard/usage', label: 'Credits & usage' },
  { path: '/dashboard/keys', label: 'API keys' },
  { path: '/dashboard/jobs', label: 'Jobs' },
  { path: '/dashboard/playground', label: 'Playground' },
];
const adminNavigation = [{ path: '/dashboard/admin', label: 'Teams' }];

export function renderPage(frame: PageFrame, body: Html): string {
  const navigation = frame.session ? (frame.session.role === 'admin' ? adminNavigation : teamNavigation) : [];
  const who = frame.session ? (frame.session.role === 'admin' ? 'Operator (admin)' : `Team ${frame.session.teamId}`) : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Quarry dashboard</title>
<link rel="stylesheet" href="${assetPaths.css}">
<script src="${assetPaths.js}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/dashboard">Quarry</a>
  ${
    navigation.length
      ? html`<nav aria-label="Dashboard"><ul>${navigation.map(
          (entry) => html`<li><a href="${entry.path}"${entry.path === frame.active ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
        )}</ul></nav>`
      : ''
  }
  ${
    frame.session
      ? html`<form class="sign-out" method="post" action="/dashboard/logout">
  <span class="who">${who}</span>
  <input type="hidden" name="_csrf" value="${frame.csrf ?? ''}">
  <button type="submit" class="link-button">Sign out</button>
</form>`
      : ''
  }
</header>
<main id="main" tabindex="-1">
<h1>${frame.title}</h1>
${body}
</main>
<div id="announcer" class="visually-hidden" aria-live="polite"></div>
</body>
</html>`.text;
}

/** A hidden CSRF field for a form of the signed-in session. */
export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

/** A table that scrolls sideways on a narrow screen, reachable with the keyboard. */
export function scrollTable(label: string, table: Html): Html {
  return html`<div class="table-scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

export function notice(kind: 'ok' | 'error' | 'warning', message: Html | string): Html {
  return html`<div class="notice notice-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</div>`;
}

export function formatTime(at: number | undefined): Html {
  if (at === undefined) return html`<span class="muted">never</span>`;
  const iso = new Date(at).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function formatCredits(credits: number | null): string {
  return credits === null ? 'unlimited' : credits.toLocaleString('en-US');
}

/** The secret shown once, with a copy button (the client script makes it work). */
export function secretOnce(id: string, label: string, secret: string): Html {
  return html`<div class="secret-once">
  <p><strong>${label}</strong> It is shown only this once: copy it now.</p>
  <div class="secret-row"><code id="${id}" class="secret">${secret}</code>
  <button type="button" class="button" data-copy="${id}" hidden>Copy</button></div>
</div>`;
}
