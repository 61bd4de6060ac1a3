import type { SqliteDatabase } from './open-sqlite.js';

export interface WriteBatchOptions {
  /** Writes made together in one transaction (a full batch is written at once). */
  batchSize: number;
  /** Longest a write waits before its batch is written (ms). */
  flushMs: number;
}

/**
 * Writes waiting that may ride along in another write transaction of the same connection (the
 * document cache's, in `SqliteJobStore.finishItem`'s).
 */
export interface PendingWrites {
  /**
   * Writes what waits inside the caller's open transaction, under a savepoint (a failure rolls back
   * only these rows, which then wait for the next write); returns what to call once the caller's
   * transaction has committed (the rows are then no longer waiting), or undefined when nothing was written.
   */
  writeWithin(): (() => void) | undefined;
}

/**
 * Writes of derived data (the page index, the document cache) held and made together in one
 * transaction: a commit per page was most of their cost on the server's main thread (FTS5 writes
 * its terms once per transaction; a commit writes the changed pages to the WAL). A batch is written
 * when `batchSize` writes wait or `flushMs` after the first; the owner calls `flush` before each of
 * its reads, so a process always reads its own writes. A batch that cannot be written (the file
 * locked past the busy timeout) waits for the next flush; a process killed meanwhile loses the
 * writes of its last `flushMs`.
 */
export class WriteBatch<Row> implements PendingWrites {
  /** Rows waiting, by key: a later write of the same key replaces the earlier one and goes last. */
  private readonly pending = new Map<string, Row>();
  private readonly writeAll;
  private timer: NodeJS.Timeout | undefined;

  /** `write` writes a whole batch (the rows in the order they were added), inside the batch's transaction. */
  constructor(
    private readonly db: SqliteDatabase,
    write: (rows: Row[]) => void,
    private readonly options: WriteBatchOptions,
  ) {
    this.writeAll = db.transaction(write);
  }

  add(key: string, row: Row): void {
    this.pending.delete(key);
    this.pending.set(key, row);
    if (this.pending.size >= this.options.batchSize) this.flush();
    else this.timer ??= setTimeout(() => this.flushQuietly(), this.options.flushMs).unref();
  }

  /** Writes the rows waiting, in one transaction. Throws what SQLite throws; the rows then wait for the next flush. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.writeAll.immediate(entries.map(([, row]) => row));
    for (const [key, row] of entries) if (this.pending.get(key) === row) this.pending.delete(key);
  }

  writeWithin(): (() => void) | undefined {
    if (this.pending.size === 0) return undefined;
    const entries = [...this.pending];
    try {
      this.writeAll(entries.map(([, row]) => row)); // in the caller's transaction: a savepoint
    } catch {
      return undefined;
    }
    return () => {
      for (const [key, row] of entries) if (this.pending.get(key) === row) this.pending.delete(key);
      if (this.pending.size === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** The timer's flush: a batch that cannot be written now is tried again later. */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      if (!this.db.open) {
        this.pending.clear(); // closed without `flush` (SqliteStorage.close flushes): nothing to write to
        return;
      }
      this.timer ??= setTimeout(() => this.flushQuietly(), this.options.flushMs).unref();
    }
  }
}
