/** Loads the extraction-dev corpora from ../shared/bench-data (relative to the repo root), in place. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeHtml } from './decode-html.js';

export const corpusRoot = new URL('../../../shared/bench-data/extraction-dev/', import.meta.url).pathname;

export interface AebPage {
  id: string;
  url: string;
  html: string;
  articleBody: string;
}

export interface TrafPage {
  id: string;
  url: string;
  html: string;
  with: string[];
  without: string[];
}

export function loadAeb(): AebPage[] {
  const folder = join(corpusRoot, 'aeb');
  const truth = JSON.parse(readFileSync(join(folder, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
  return Object.entries(truth).map(([id, { url, articleBody }]) => ({
    id,
    url,
    articleBody,
    html: gunzipSync(readFileSync(join(folder, 'html', `${id}.html.gz`))).toString('utf8'),
  }));
}

export function loadTraf(): TrafPage[] {
  const folder = join(corpusRoot, 'traf');
  const evaluation = JSON.parse(readFileSync(join(folder, 'evaldata.json'), 'utf8')) as Record<string, { file: string; with: string[]; without: string[] }>;
  return Object.entries(evaluation).map(([url, entry]) => ({
    id: entry.file.replace(/\.html\.gz$/, ''),
    url,
    with: entry.with,
    without: entry.without,
    html: decodeHtml(gunzipSync(readFileSync(join(folder, 'html', entry.file)))),
  }));
}
