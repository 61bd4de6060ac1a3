/**
 * Whose stored pages a request sees: the index, the maxAge cache and change-tracking histories are
 * per team by default (a page one team crawled, an intranet page perhaps, is never another team's
 * search hit or cache hit). The operator may share them across teams (QUARRY_SHARED_INDEX=true);
 * library use without teams shares one scope.
 */
export interface StoreSharing {
  /** True when every team reads and writes one shared scope. */
  sharedAcrossTeams: boolean;
}

/** The team of library calls that name none. */
export const libraryTeamId = 'library';

/** The shared scope. */
export const sharedScope = '';

/** The scope of `teamId`'s stored pages: the team itself, or the shared scope. */
export function storeScope(teamId: string | undefined, sharing: StoreSharing | undefined): string {
  return sharing?.sharedAcrossTeams ? sharedScope : (teamId ?? libraryTeamId);
}

/** A cache key within a scope: the shared scope keeps the key as it is (entries stored before scopes). */
export function scopedCacheKey(scope: string, key: string): string {
  return scope === sharedScope ? key : `team:${scope} ${key}`;
}
