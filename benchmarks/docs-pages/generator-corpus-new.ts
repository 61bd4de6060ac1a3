/**
 * Task 13n: three more real docs generators nobody here tuned on, as Debian installs them
 * (`--generators-new`, apart from the six of `generator-corpus.ts` so their figures do not move):
 * - gi-docgen (GTK 4's API reference, `libgtk-4-doc`): the tuning half is GTK's own reference
 *   (`gtk4/`) split in halves by a hash; GDK's and GSK's references (`gdk4/`, `gsk4/`) are held out
 *   whole. Quotas by the file name's kind (class, interface, struct, method, property, signal, ...,
 *   and the hand-written chapters), files up to 400 KB; indexes (`index`, `*_index`,
 *   `classes_hierarchy`) are lists of links and are not sampled.
 * - the Apache httpd manual in its own template (`apache2-doc`, English only): module pages
 *   (`mod/mod_*.html`, `core`, the MPMs) and guide pages; no folder indexes, sitemap or directive
 *   lists (links only); at most 18 pages per folder.
 * - SQLite's documentation in sqlite.org's template (`sqlite3-doc`): C-API pages (`c3ref/`) and
 *   the other pages; files up to 400 KB (the SQL pages with every syntax diagram inline weigh
 *   1.5 MB), no lists of links (`c3ref/*list`, `keyword_index`, `sitemap`, `toc`, `docs`).
 *
 * The sample is fixed by a hash of each page's path and split by a second hash before any score of
 * these pages was read (the commit that adds this file prints no score).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export type NewGeneratorName = 'gidocgen' | 'apache' | 'sqlite';

export interface NewGeneratorSite {
  name: NewGeneratorName;
  package: string;
  root: string;
}

export const newGeneratorSites: readonly NewGeneratorSite[] = [
  { name: 'gidocgen', package: 'libgtk-4-doc', root: '/usr/share/doc/libgtk-4-doc' },
  { name: 'apache', package: 'apache2-doc', root: '/usr/share/doc/apache2-doc/manual/en' },
  { name: 'sqlite', package: 'sqlite3-doc', root: '/usr/share/doc/sqlite3' },
];

export interface NewGeneratorCandidate {
  generator: NewGeneratorName;
  path: string;
  kind: string;
  heldOut: boolean;
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
const maxBytes = 400_000;

function htmlFiles(root: string, under = ''): string[] {
  const folder = join(root, under);
  if (!existsSync(folder)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...htmlFiles(root, relative(root, path)));
    else if (entry.name.endsWith('.html')) files.push(relative(root, path));
  }
  return files;
}

interface NewRule {
  files: (root: string) => string[];
  classify: (path: string, html: string) => { kind: string; folder: string } | undefined;
  quotas: Record<string, number>;
  perFolder: number;
  total: number;
  /** Held out whatever the split says (gi-docgen: GDK's and GSK's references). */
  alwaysHeldOut?: (path: string) => boolean;
}

const gidocgenKinds = ['class', 'iface', 'struct', 'method', 'property', 'signal', 'ctor', 'func', 'enum', 'vfunc', 'callback', 'const'];

const newRules: Record<NewGeneratorName, NewRule> = {
  gidocgen: {
    files: (root) => ['gtk4', 'gdk4', 'gsk4'].flatMap((manual) => htmlFiles(root, manual)),
    classify: (path, html) => {
      if (html.length > maxBytes || !html.includes('<section id="main"')) return undefined;
      const [manual, file] = path.split('/') as [string, string];
      if (/^(?:index|.*_index|classes_hierarchy)\.html$/.test(file)) return undefined;
      const prefix = file.split('.')[0]!;
      const kind = gidocgenKinds.includes(prefix) ? prefix : file.split('.').length === 2 ? 'chapter' : 'other';
      return { kind, folder: `${manual}:${kind}` };
    },
    quotas: {
      class: 24,
      iface: 5,
      struct: 5,
      method: 10,
      property: 6,
      signal: 6,
      ctor: 4,
      func: 4,
      enum: 4,
      vfunc: 2,
      callback: 2,
      const: 2,
      chapter: 10,
      other: 2,
    },
    perFolder: 12,
    total: 86,
    alwaysHeldOut: (path) => !path.startsWith('gtk4/'),
  },
  apache: {
    files: (root) => htmlFiles(root),
    classify: (path, html) => {
      if (!html.includes('id="page-content"')) return undefined;
      const file = path.split('/').pop()!;
      if (/^(?:index|sitemap|quickreference|directives|glossary)\.html$/.test(file)) return undefined;
      const folder = path.includes('/') ? path.split('/')[0]! : '.';
      return { kind: folder === 'mod' ? 'module' : 'guide', folder };
    },
    quotas: { module: 18, guide: 22 },
    perFolder: 18,
    total: 40,
  },
  sqlite: {
    files: (root) => htmlFiles(root),
    classify: (path, html) => {
      if (html.length > maxBytes || html.length < 3000) return undefined;
      const file = path.split('/').pop()!;
      if (/^(?:.*list|keyword_index|sitemap|toc|docs|index|chronology|changes|releaselog.*)\.html$/.test(file)) return undefined;
      const folder = path.includes('/') ? path.split('/')[0]! : '.';
      return { kind: folder === 'c3ref' ? 'c-api' : 'page', folder: `${folder}:${path.split('/').pop()![0]}` };
    },
    quotas: { 'c-api': 14, page: 26 },
    perFolder: 4,
    total: 40,
  },
};

function sampleNew(name: NewGeneratorName, root: string): NewGeneratorCandidate[] {
  const rule = newRules[name];
  const ordered = rule
    .files(root)
    .map((path) => ({ path, hash: hashOf(`13n:${name}:${path}`) }))
    .sort((a, b) => (a.hash < b.hash ? -1 : 1));
  const taken: { path: string; kind: string }[] = [];
  const perKind = new Map<string, number>();
  const perFolder = new Map<string, number>();
  for (const { path } of ordered) {
    if (taken.length >= rule.total) break;
    const found = rule.classify(path, readFileSync(join(root, path), 'utf8'));
    if (!found) continue;
    if ((perFolder.get(found.folder) ?? 0) >= rule.perFolder) continue;
    if ((perKind.get(found.kind) ?? 0) >= (rule.quotas[found.kind] ?? 0)) continue;
    perFolder.set(found.folder, (perFolder.get(found.folder) ?? 0) + 1);
    perKind.set(found.kind, (perKind.get(found.kind) ?? 0) + 1);
    taken.push({ path, kind: found.kind });
  }
  const splittable = taken.filter((page) => !rule.alwaysHeldOut?.(page.path));
  const bySplit = [...splittable].sort((a, b) => (hashOf(`split13n:${a.path}`) < hashOf(`split13n:${b.path}`) ? -1 : 1));
  const tuning = new Set(bySplit.slice(0, Math.ceil(bySplit.length / 2)).map((page) => page.path));
  return taken.map((page) => ({ generator: name, path: page.path, kind: page.kind, heldOut: !tuning.has(page.path) }));
}

/** Every installed new generator's sample (`--generators-new`). */
export function newGeneratorSamples(): { site: NewGeneratorSite; root: string; pages: NewGeneratorCandidate[] }[] {
  return newGeneratorSites.flatMap((site) =>
    existsSync(site.root) && statSync(site.root).isDirectory() ? [{ site, root: site.root, pages: sampleNew(site.name, site.root) }] : [],
  );
}

// `npx tsx benchmarks/docs-pages/generator-corpus-new.ts`: print the sample and its split (no score).
if (process.argv[1]?.endsWith('generator-corpus-new.ts')) {
  for (const { site, root, pages } of newGeneratorSamples()) {
    console.log(`${site.name} (${root}): ${pages.length} pages, ${pages.filter((page) => !page.heldOut).length} tuning`);
    for (const page of pages) console.log(`  ${page.heldOut ? 'heldout' : 'tuning '} ${page.kind.padEnd(10)} ${page.path}`);
  }
}
