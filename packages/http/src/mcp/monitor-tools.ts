import { ValidationError } from '@quarry/core';
import { monitorActions } from '../routes/monitor-actions.js';
import { anyObject, bool, num, str, strings, type McpTool, type ToolContext } from './mcp-tool.js';

/**
 * firecrawl-mcp's monitor tools over the same actions as /v2/monitor. `firecrawl_monitor_create`
 * takes the REST body as `body`, or a shorthand: `page`/`pages`, `scheduleText`, `timezone`, `name`,
 * `webhookUrl` (Quarry has no search targets or e-mail, so `queries` and `email` are refused).
 */
const actionsOf = (context: ToolContext) => monitorActions(context.services);
const idArgument = { id: str('The monitor id.') };

export const monitorTools: McpTool[] = [
  {
    name: 'firecrawl_monitor_create',
    description:
      'Watch pages for changes on a schedule: `body` as POST /v2/monitor takes it, or `page`/`pages` with `scheduleText` (e.g. "every 30 minutes"), `timezone`, `name` and `webhookUrl`.',
    inputSchema: {
      type: 'object',
      properties: {
        body: anyObject('The whole create request, as POST /v2/monitor takes it.'),
        page: str(),
        pages: strings(),
        queries: strings('Search targets (not available in Quarry).'),
        goal: str(),
        name: str(),
        scheduleText: str(),
        timezone: str(),
        email: str('E-mail notifications (not available in Quarry).'),
        includeDiffs: bool(),
        webhookUrl: str(),
      },
    },
    kind: 'crawl',
    run: (context, args) => actionsOf(context).create(context.caller, createBody(args)),
  },
  {
    name: 'firecrawl_monitor_list',
    description: "The team's monitors, newest first.",
    inputSchema: { type: 'object', properties: { limit: num(), offset: num() } },
    kind: 'crawlStatus',
    run: (context, args) => actionsOf(context).list(context.caller, args),
  },
  {
    name: 'firecrawl_monitor_get',
    description: 'One monitor: its targets, schedule, next run and last check.',
    inputSchema: { type: 'object', properties: idArgument, required: ['id'] },
    kind: 'crawlStatus',
    run: (context, args) => actionsOf(context).get(context.caller, String(args.id ?? '')),
  },
  {
    name: 'firecrawl_monitor_update',
    description: 'Change a monitor: `body` as PATCH /v2/monitor/{id} takes it (status "paused"/"active", schedule, targets, webhook...).',
    inputSchema: { type: 'object', properties: { ...idArgument, body: anyObject() }, required: ['id', 'body'] },
    kind: 'crawlStatus',
    run: (context, args) => actionsOf(context).update(context.caller, String(args.id ?? ''), args.body),
  },
  {
    name: 'firecrawl_monitor_delete',
    description: 'Delete a monitor; its schedule stops.',
    inputSchema: { type: 'object', properties: idArgument, required: ['id'] },
    kind: 'crawlStatus',
    run: (context, args) => actionsOf(context).remove(context.caller, String(args.id ?? '')),
  },
  {
    name: 'firecrawl_monitor_run',
    description: 'Run a check of a monitor now, outside its schedule.',
    inputSchema: { type: 'object', properties: idArgument, required: ['id'] },
    kind: 'crawl',
    run: (context, args) => actionsOf(context).run(context.caller, String(args.id ?? '')),
  },
  {
    name: 'firecrawl_monitor_checks',
    description: "A monitor's checks, newest first, each with its summary (same, changed, new, removed, error).",
    inputSchema: { type: 'object', properties: { ...idArgument, limit: num(), offset: num() }, required: ['id'] },
    kind: 'crawlStatus',
    run: (context, args) => actionsOf(context).checks(context.caller, String(args.id ?? ''), { limit: args.limit, offset: args.offset }),
  },
  {
    name: 'firecrawl_monitor_check',
    description: 'One check of a monitor with its pages and their diffs.',
    inputSchema: { type: 'object', properties: { ...idArgument, checkId: str(), status: str('Only pages with this status.') }, required: ['id', 'checkId'] },
    kind: 'crawlStatus',
    run: (context, args) =>
      actionsOf(context).check(context.caller, String(args.id ?? ''), String(args.checkId ?? ''), args.status ? { status: args.status } : {}),
  },
];

/** The REST body of firecrawl_monitor_create: `body` as given, else built from the shorthand. */
function createBody(args: Record<string, unknown>): unknown {
  if (args.body !== undefined) return args.body;
  if (Array.isArray(args.queries) && args.queries.length > 0)
    throw new ValidationError('`queries`: search targets are not available in this engine; watch `page`/`pages` instead', 'queries');
  if (typeof args.email === 'string' && args.email.trim())
    throw new ValidationError('`email`: e-mail notifications are not available in this engine; use `webhookUrl`', 'email');
  const urls = [
    ...(typeof args.page === 'string' ? [args.page] : []),
    ...(Array.isArray(args.pages) ? args.pages.filter((url): url is string => typeof url === 'string') : []),
  ];
  if (urls.length === 0) throw new ValidationError('firecrawl_monitor_create needs `body`, `page` or `pages`', 'page');
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const webhookUrl = text(args.webhookUrl);
  return {
    name: text(args.name) ?? `Monitor ${urls[0]}`,
    schedule: { text: text(args.scheduleText) ?? 'every 30 minutes', timezone: text(args.timezone) ?? 'UTC' },
    ...(text(args.goal) ? { goal: text(args.goal) } : {}),
    targets: [{ type: 'scrape', urls }],
    ...(webhookUrl ? { webhook: { url: webhookUrl } } : {}),
  };
}
