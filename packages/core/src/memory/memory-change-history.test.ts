import { describeChangeHistory } from '../ports/testing/change-history-suite.js';
import { MemoryChangeHistory } from './memory-change-history.js';

describeChangeHistory('MemoryChangeHistory', () => new MemoryChangeHistory());
