import type { StoreSharing } from '../cache/store-scope.js';
import type { ChangeHistory } from '../ports/change-history.js';

/** The team every snapshot is kept under when histories are shared across teams. */
export const sharedHistoryTeam = '~shared';

/**
 * A ChangeHistory that keeps one history for every team (QUARRY_SHARED_INDEX=true): each call
 * reads and writes the shared team's snapshots, whoever asks.
 */
export function sharedChangeHistory(history: ChangeHistory): ChangeHistory {
  return {
    latest: (_teamId, tag, urlKey) => history.latest(sharedHistoryTeam, tag, urlKey),
    record: (snapshot) => history.record({ ...snapshot, teamId: sharedHistoryTeam }),
    previousJobUrls: (_teamId, tag, site, exceptJobId) => history.previousJobUrls(sharedHistoryTeam, tag, site, exceptJobId),
  };
}

/** The histories a process reads and writes: one shared history when the operator shares stores across teams. */
export function changeHistoryFor(history: ChangeHistory, sharing: StoreSharing | undefined): ChangeHistory {
  return sharing?.sharedAcrossTeams ? sharedChangeHistory(history) : history;
}
