import { describeSlotLimiter } from '../ports/testing/slot-limiter-suite.js';
import { MemorySlotLimiter } from './memory-slot-limiter.js';

describeSlotLimiter('MemorySlotLimiter', async (clock) => {
  const limiter = new MemorySlotLimiter(clock);
  return [limiter, limiter];
});
