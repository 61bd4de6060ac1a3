export { extractMainContent, type MainContentResult } from './main-content.js';
