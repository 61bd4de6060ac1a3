export * from './monitor-schedule.js';
export * from './monitor-options.js';
export * from './monitor-check-request.js';
export * from './monitor-check.js';
export * from './monitor-scheduler.js';
