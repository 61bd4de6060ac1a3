import pg from 'pg';
import { isConnectionError, translatePostgresError } from './postgres-errors.js';

export type QueryValues = unknown[];

/** What a statement runs on: the pool (autocommit) or the client of an open transaction. */
export interface Queryable {
  query<Row extends object = Record<string, unknown>>(sql: string, values?: QueryValues): Promise<Row[]>;
  /** Like `query`, and also answers how many rows the statement touched. */
  execute(sql: string, values?: QueryValues): Promise<number>;
}

export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Schema of every Quarry table (created when missing); `quarry` by default. */
  schema: string;
  /** Most connections this process opens. */
  maxConnections: number;
  /**
   * How long a statement keeps being retried while the database cannot be reached (ms). 0 fails at
   * once with an `unavailable` error (the API answers 503); a worker waits out a short outage.
   */
  retryUnavailableMs: number;
  /** Name shown in pg_stat_activity. */
  applicationName: string;
}

export const defaultPostgresOptions: Omit<PostgresDatabaseOptions, 'connectionString'> = {
  schema: 'quarry',
  maxConnections: 10,
  retryUnavailableMs: 0,
  applicationName: 'quarry',
};

const identifierPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** deadlock_detected and serialization_failure: the statement was rolled back and may run again. */
const isConflict = (error: unknown) => ['40P01', '40001'].includes((error as { code?: string }).code ?? '');
const maxConflictRetries = 5;

/** BIGINT (int8) columns as numbers: Quarry stores epoch milliseconds and counts, all far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A pool of connections to one Quarry schema. Every statement goes through `query`/`execute` or a
 * `transaction`, which translate failures (see postgres-errors.ts) and count round trips for the
 * benchmarks. The owner closes it.
 */
export class PostgresDatabase implements Queryable {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** Statements sent so far (BEGIN and COMMIT included), for statements-per-page figures. */
  statements = 0;

  constructor(private readonly options: PostgresDatabaseOptions) {
    if (!identifierPattern.test(options.schema)) {
      throw new Error(`The PostgreSQL schema name must be a lowercase identifier (letters, digits, _); got ${JSON.stringify(options.schema)}`);
    }
    this.schema = options.schema;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections,
      application_name: options.applicationName,
      options: `-c search_path=${options.schema}`,
      connectionTimeoutMillis: 5_000,
      types,
    });
    // An idle connection that the server closes (restart, failover) must not crash the process;
    // the next statement opens a new one or reports the outage.
    this.pool.on('error', () => undefined);
  }

  async query<Row extends object = Record<string, unknown>>(sql: string, values?: QueryValues): Promise<Row[]> {
    return (await this.run((client) => client.query<Row>(sql, values))).rows;
  }

  async execute(sql: string, values?: QueryValues): Promise<number> {
    return (await this.run((client) => client.query(sql, values))).rowCount ?? 0;
  }

  /**
   * Runs `work` in one transaction on one connection (READ COMMITTED): committed when it resolves,
   * rolled back when it throws. A transaction cut by a lost connection is retried whole within
   * `retryUnavailableMs`, so `work` must be safe to run again (Quarry's are: each either committed
   * fully or not at all, and its writes are idempotent by key).
   */
  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    return this.withRetry(async () => {
      const client = await this.pool.connect();
      let broken = false;
      const queryable = this.queryableOf(client, () => (broken = true));
      try {
        await queryable.execute('BEGIN');
        const result = await work(queryable);
        await queryable.execute('COMMIT');
        return result;
      } catch (error) {
        if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private run<T>(statement: (client: pg.Pool) => Promise<T>): Promise<T> {
    return this.withRetry(() => {
      this.statements++;
      return statement(this.pool);
    });
  }

  private queryableOf(client: pg.PoolClient, onBroken: () => void): Queryable {
    const send = async (sql: string, values?: QueryValues) => {
      this.statements++;
      try {
        return await client.query(sql, values);
      } catch (error) {
        if (isConnectionError(error)) onBroken();
        throw error;
      }
    };
    return {
      query: async <Row extends object>(sql: string, values?: QueryValues) => (await send(sql, values)).rows as Row[],
      execute: async (sql: string, values?: QueryValues) => (await send(sql, values)).rowCount ?? 0,
    };
  }

  /**
   * Runs a statement or transaction again when PostgreSQL aborted it for a deadlock or a
   * serialization failure (a few times: each is atomic, so nothing of it was kept), and while the
   * database cannot be reached, within `retryUnavailableMs`.
   */
  private async withRetry<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.options.retryUnavailableMs;
    let conflicts = 0;
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        return await attempt();
      } catch (error) {
        if (isConflict(error) && conflicts++ < maxConflictRetries) continue;
        if (!isConnectionError(error) || Date.now() + wait > deadline) throw translatePostgresError(error);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
