import { RedisScript } from '../redis/redis-script.js';

/**
 * The lease bookkeeping of `BullmqQueue`, as atomic Lua scripts. BullMQ holds the messages (wait,
 * prioritized and active lists); these scripts keep, beside them:
 *
 *   leased    zset  message -> time its lease ends (clock ms)
 *   delayed   zset  message -> time it is ready again after a release with a delay
 *   tokens    hash  message -> token of its current lease
 *   attempts  hash  message -> deliveries whose lease expired
 *   job:<id>  set   messages of one Quarry job (for removeJob)
 *
 * A leased or delayed message stays in BullMQ's active list; giving it back moves it to wait.
 */

/** KEYS leased, tokens, attempts; ARGV until, then id/token pairs. Records leases; returns attempts. */
export const recordLeases = new RedisScript(
  `
  local attempts = {}
  for index = 2, #ARGV, 2 do
    local id = ARGV[index]
    redis.call('ZADD', KEYS[1], ARGV[1], id)
    redis.call('HSET', KEYS[2], id, ARGV[index + 1])
    table.insert(attempts, tonumber(redis.call('HGET', KEYS[3], id) or '0'))
  end
  return attempts
  `,
  3,
);

/**
 * KEYS leased, delayed, tokens, attempts; ARGV now, max. Ends expired leases (counting an attempt)
 * and delays that are over; returns their messages, which the caller moves back to wait.
 */
export const takeDue = new RedisScript(
  `
  local due = {}
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('HINCRBY', KEYS[4], id, 1)
    table.insert(due, id)
  end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])) do
    redis.call('ZREM', KEYS[2], id)
    table.insert(due, id)
  end
  return due
  `,
  4,
);

/** KEYS leased, tokens, attempts, job set; ARGV id, token. Ends the lease if it is current: 1, else 0. */
export const endLease = new RedisScript(
  `
  if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('SREM', KEYS[4], ARGV[1])
  return 1
  `,
  4,
);

/**
 * KEYS leased, tokens, delayed; ARGV id, token, readyAt, hasDelay. Gives a current lease back:
 * 2 when the message now waits in `delayed`, 1 when the caller must move it to wait, 0 when the
 * lease was not current.
 */
export const giveBack = new RedisScript(
  `
  if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  if ARGV[4] == '1' then
    redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
    return 2
  end
  return 1
  `,
  3,
);

/** KEYS leased, delayed, tokens, attempts, job set. Forgets every message of a job; returns them. */
export const forgetJob = new RedisScript(
  `
  local ids = redis.call('SMEMBERS', KEYS[5])
  for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('HDEL', KEYS[4], id)
  end
  redis.call('DEL', KEYS[5])
  return ids
  `,
  5,
);

/** KEYS BullMQ active list, leased, delayed. Messages active in BullMQ that no lease accounts for. */
export const findUnaccounted = new RedisScript(
  `
  local found = {}
  for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
    if not redis.call('ZSCORE', KEYS[2], id) and not redis.call('ZSCORE', KEYS[3], id) then
      table.insert(found, id)
    end
  end
  return found
  `,
  3,
);
