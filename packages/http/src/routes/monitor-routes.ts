import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../server/services.js';
import { monitorActions } from './monitor-actions.js';

/**
 * Monitors (v2): create, list, get, update, delete, run now, and their checks. A route parses the
 * path and hands the rest to monitorActions, which schedules with the MonitorScheduler; each check
 * is a `monitor_check` job, charged like the scrapes it runs. Creating a monitor and running one
 * count as crawls for the rate limits; reading, changing and deleting as status reads.
 */
export function monitorRoutes(app: FastifyInstance, services: Services) {
  const actions = monitorActions(services);
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.post('/v2/monitor', { config: { kind: 'crawl' } }, (request) => actions.create(request.caller, request.body));
  app.get('/v2/monitor', { config: { kind: 'crawlStatus' } }, (request) => actions.list(request.caller, request.query));
  app.get('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, (request) => actions.get(request.caller, idOf(request)));
  app.patch('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, (request) => actions.update(request.caller, idOf(request), request.body));
  app.delete('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, (request) => actions.remove(request.caller, idOf(request)));
  app.post('/v2/monitor/:id/run', { config: { kind: 'crawl' } }, (request) => actions.run(request.caller, idOf(request)));
  app.get('/v2/monitor/:id/checks', { config: { kind: 'crawlStatus' } }, (request) => actions.checks(request.caller, idOf(request), request.query));
  app.get('/v2/monitor/:id/checks/:checkId', { config: { kind: 'crawlStatus' } }, (request) =>
    actions.check(request.caller, idOf(request), (request.params as { checkId: string }).checkId, request.query),
  );
}
