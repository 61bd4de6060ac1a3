import type { MonitorRecord } from '../ports/monitor-store.js';

/**
 * What a `monitor_check` job was asked to do, stored as its request: the monitor's targets as they
 * were when the check was created, when it runs (`runAt`: the message is delayed until then) and
 * its webhook, which gets only the `completed` event (sent when the check found changes).
 */
export interface MonitorCheckRequest {
  monitorId: string;
  trigger: 'scheduled' | 'manual';
  runAt: number;
  /** The scheduled check that scheduled this one (a re-run of its first step recognizes its own tick). */
  previousCheckId?: string;
  targets: MonitorRecord['targets'];
  webhook?: { url: string; headers: Record<string, string>; metadata: Record<string, string>; events: ['completed'] };
}

export function monitorCheckRequestOf(
  monitor: MonitorRecord,
  trigger: MonitorCheckRequest['trigger'],
  runAt: number,
  previousCheckId?: string,
): MonitorCheckRequest {
  return {
    monitorId: monitor.id,
    trigger,
    runAt,
    ...(previousCheckId ? { previousCheckId } : {}),
    targets: monitor.targets,
    ...(monitor.webhook
      ? {
          webhook: {
            url: monitor.webhook.url,
            headers: monitor.webhook.headers ?? {},
            metadata: monitor.webhook.metadata ?? {},
            events: ['completed'] as ['completed'],
          },
        }
      : {}),
  };
}

/** The changeTracking history of a monitor's pages: separate from the team's other scrapes. */
export const monitorTag = (monitorId: string) => `monitor:${monitorId}`;
