import type { ChangeHistory, PageSnapshot } from '../ports/change-history.js';

/** ChangeHistory in memory: for library use (histories last as long as the process) and tests. */
export class MemoryChangeHistory implements ChangeHistory {
  private readonly snapshots = new Map<string, PageSnapshot & { order: number }>();
  private order = 0;

  async latest(teamId: string, tag: string | null, urlKey: string): Promise<PageSnapshot | undefined> {
    const found = this.select((entry) => entry.teamId === teamId && (entry.tag ?? '') === (tag ?? '') && entry.urlKey === urlKey)[0];
    return found ? strip(found) : undefined;
  }

  async record(snapshot: PageSnapshot): Promise<void> {
    const key = JSON.stringify([snapshot.teamId, snapshot.tag ?? '', snapshot.urlKey, snapshot.jobId ?? '']);
    this.snapshots.set(key, { ...structuredClone(snapshot), order: this.order++ });
  }

  async previousJobUrls(teamId: string, tag: string | null, site: string, exceptJobId: string): Promise<string[]> {
    const ofSite = this.select((entry) => entry.teamId === teamId && (entry.tag ?? '') === (tag ?? '') && entry.site === site);
    const previous = ofSite.find((entry) => entry.jobId !== undefined && entry.jobId !== exceptJobId)?.jobId;
    return previous === undefined ? [] : ofSite.filter((entry) => entry.jobId === previous).map((entry) => entry.url);
  }

  /** Matching snapshots, newest first. */
  private select(matches: (entry: PageSnapshot) => boolean) {
    return [...this.snapshots.values()].filter(matches).sort((a, b) => b.scrapedAt - a.scrapedAt || b.order - a.order);
  }
}

function strip(entry: PageSnapshot & { order: number }): PageSnapshot {
  const { order: _order, ...snapshot } = entry;
  return structuredClone(snapshot);
}
