export { SearxngSearch, type SearxngSearchOptions } from './searxng-search.js';
export { SerperSearch, type SerperSearchOptions } from './serper-search.js';
