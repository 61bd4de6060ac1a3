import type { Action } from '../options/actions.js';

/** Whose session: a team's earlier scrape, by its metadata.scrapeId. */
export interface SessionKey {
  teamId: string;
  scrapeId: string;
}

/** What one interaction gave back, in the fields Firecrawl's clients read (BrowserExecuteResponse). */
export interface InteractOutcome {
  /** The value the code returned (JSON unless a string), or the actions' outputs. */
  result?: string;
  /** Console output of the page while the code ran (log/info/debug). */
  stdout: string;
  /** Console warnings and errors, then the thrown error if the code threw. */
  stderr: string;
  /** 0 when the code finished, 1 when it threw, 124 when it ran out of time. */
  exitCode: number;
  /** The code ran out of time; the page was closed with its session. */
  killed: boolean;
}

/**
 * Browser sessions kept between requests for interact: one page per team scrape, opened at the
 * scrape's URL on first use, closed after a time-to-live, on stop, or when the team opens one
 * more than its limit allows (the oldest goes). Every request from a kept page goes through the
 * same SSRF guard as scrapes. Implemented by the browser adapter.
 */
export interface BrowserSessions {
  /** Runs JavaScript inside the page (the browser's sandbox), at most `timeoutMs`. */
  evaluate(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome>;
  /**
   * Runs Node.js code given a `page` object in a locked-down child process (no fs, network,
   * process or require; CPU and memory bounded); its page calls are performed on the session's page.
   */
  runNode(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome>;
  /** Runs scrape actions (click, write, press, scroll, wait, executeJavascript...) on the page. */
  runActions(key: SessionKey, url: URL, actions: Action[], timeoutMs: number): Promise<InteractOutcome>;
  /** The page's current HTML, for a model choosing actions; undefined when no session is held. */
  snapshot(key: SessionKey): Promise<string | undefined>;
  /** Closes the session; its age in ms, or undefined when none was held. */
  stop(key: SessionKey): Promise<number | undefined>;
  /** Sessions open now (all teams). */
  count(): number;
  close(): Promise<void>;
}
