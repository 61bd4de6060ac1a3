export * from './actions.js';
export * from './formats.js';
export * from './scrape-options.js';
export * from './normalize-scrape-options.js';
export * from './validate.js';
