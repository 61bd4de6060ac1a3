import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its SHA (EVALSHA), loaded again when the server answers NOSCRIPT (after a
 * restart, which forgets loaded scripts). Scripts run atomically on the server.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(
    private readonly lua: string,
    private readonly keyCount: number,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run<T = unknown>(redis: Redis, keys: string[], args: Array<string | number>): Promise<T> {
    if (keys.length !== this.keyCount) throw new Error(`Script expects ${this.keyCount} keys; got ${keys.length}`);
    try {
      return (await redis.evalsha(this.sha, this.keyCount, ...keys, ...args)) as T;
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      return (await redis.eval(this.lua, this.keyCount, ...keys, ...args)) as T;
    }
  }
}
