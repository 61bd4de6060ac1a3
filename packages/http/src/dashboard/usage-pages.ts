import { NotFoundError } from '@quarry/core';
import type { FastifyInstance } from 'fastify';
import type { DashboardAuth } from './dashboard-auth.js';
import { renderPage } from './layout.js';
import { loadUsage, renderUsage } from './usage-view.js';

/** The team's credits and tokens: remaining, per day, per endpoint kind. */
export function usagePages(scope: FastifyInstance, auth: DashboardAuth): void {
  const { ledger } = auth.services;
  scope.get(
    '/usage',
    auth.page('team', 'crawlStatus', async (_request, reply, context) => {
      const team = await ledger.getTeam(context.session.teamId);
      if (!team) throw new NotFoundError('Team not found');
      const usage = await loadUsage(ledger, team.id, auth.now());
      const page = renderPage({ title: 'Credits & usage', session: context.session, csrf: context.csrf, active: '/dashboard/usage' }, renderUsage(team, usage));
      return reply.type('text/html; charset=utf-8').send(page);
    }),
  );
}
