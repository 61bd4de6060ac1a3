import { describeMonitorStore } from '../ports/testing/monitor-store-suite.js';
import { MemoryMonitorStore } from './memory-monitor-store.js';

describeMonitorStore('MemoryMonitorStore', () => new MemoryMonitorStore());
