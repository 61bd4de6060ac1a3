import { describeJobStore } from '../ports/testing/job-store-suite.js';
import { describeQueue } from '../ports/testing/queue-suite.js';
import { MemoryJobStore } from './memory-job-store.js';
import { MemoryQueue } from './memory-queue.js';

describeJobStore('MemoryJobStore', () => ({ jobs: new MemoryJobStore() }));
describeQueue('MemoryQueue', (clock) => new MemoryQueue(clock));
