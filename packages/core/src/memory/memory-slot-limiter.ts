import { systemClock, type Clock } from '../ports/clock.js';
import type { SlotClaim, SlotDecision, SlotLimiter } from '../ports/slot-limiter.js';

interface KeyState {
  /** Holder token -> expiry (epoch ms). */
  holders: Map<string, number>;
  closedUntil: number;
}

/** The SlotLimiter of one process (library crawls, the embedded server). */
export class MemorySlotLimiter implements SlotLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly held = new Map<string, string[]>();
  private nextToken = 1;

  constructor(private readonly clock: Clock = systemClock) {}

  async acquire(claims: SlotClaim[], ttlMs: number): Promise<SlotDecision> {
    const now = this.clock.now();
    for (const claim of claims) {
      const state = this.stateOf(claim.key, now);
      if (state.closedUntil > now) return { retryInMs: state.closedUntil - now };
      if (state.holders.size >= claim.limit) return { retryInMs: 0 };
    }
    const token = String(this.nextToken++);
    for (const claim of claims) this.stateOf(claim.key, now).holders.set(token, now + ttlMs);
    this.held.set(
      token,
      claims.map((claim) => claim.key),
    );
    return { token };
  }

  async release(token: string, cooldown?: { key: string; ms: number }): Promise<void> {
    const keys = this.held.get(token);
    if (!keys) return;
    this.held.delete(token);
    const now = this.clock.now();
    for (const key of keys) {
      const state = this.keys.get(key);
      if (!state) continue;
      state.holders.delete(token);
      if (cooldown && cooldown.key === key && cooldown.ms > 0) state.closedUntil = now + cooldown.ms;
      if (state.holders.size === 0 && state.closedUntil <= now) this.keys.delete(key);
    }
  }

  /** The key's state with expired holders dropped. */
  private stateOf(key: string, now: number): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { holders: new Map(), closedUntil: 0 };
      this.keys.set(key, state);
    }
    for (const [token, expiresAt] of state.holders) if (expiresAt <= now) state.holders.delete(token);
    return state;
  }
}
