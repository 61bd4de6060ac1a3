/**
 * Real pages of four docs generators nobody here wrote (issue 13, task 13g of the generators):
 * mdBook (the Rust books), rustdoc (the `std` API), Javadoc (the JDK 17 API) and MkDocs (MkDocs' own
 * manual in its own theme), as Debian installs them (`rust-doc`, `openjdk-17-doc`, `mkdocs-doc`).
 * None ships its sources, so the ground truth is the generator's own content element (`truthHtml`,
 * `generator-truth.ts`), read by the same scorer (`score.ts`): the score says whether
 * onlyMainContent keeps everything that element holds and how much chrome leaks (text precision).
 *
 * The sample is fixed by a hash of each page's path, and split into a tuning and a held-out half by
 * a second hash, before any extractor's output or score of these pages was read (the commit that
 * adds this file prints no score). Page kinds are mixed by quotas, and modules and packages by a
 * cap per folder:
 * - mdBook: at most 5 pages per book (`book/`, `reference/`, `rust-by-example/`, ...), pages whose
 *   `<main>` holds at least 1,500 bytes (the unstable book's stubs are not chapters).
 * - rustdoc: `std/` only (`core/` and `alloc/` are the same items re-exported); quotas by the file
 *   name's kind (module index, struct, trait, enum, fn, macro, primitive, other), at most 2 pages per
 *   module folder, no redirect stubs, files up to 400 KB.
 * - Javadoc: type pages (by their `<h1 title>`: class, interface, enum, record, annotation),
 *   package summaries and module summaries, at most 2 pages per package folder, files up to 400 KB;
 *   no `class-use/`, trees, indexes or lists (pages made of links only).
 * - MkDocs: every page but 404 (the site has 22).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export type GeneratorName = 'mdbook' | 'rustdoc' | 'javadoc' | 'mkdocs' | 'doxygen' | 'gtkdoc';
export const generatorNames: readonly GeneratorName[] = ['mdbook', 'rustdoc', 'javadoc', 'mkdocs', 'doxygen', 'gtkdoc'];

export interface GeneratorSite {
  name: GeneratorName;
  /** Debian package that installs it (`apt-get install -y <package>`). */
  package: string;
  /** Folders where the pages may be, first found wins. */
  roots: readonly string[];
}

export const generatorSites: readonly GeneratorSite[] = [
  { name: 'mdbook', package: 'rust-doc', roots: ['/usr/share/doc/rust-doc/html'] },
  { name: 'rustdoc', package: 'rust-doc', roots: ['/usr/share/doc/rust-doc/html'] },
  { name: 'javadoc', package: 'openjdk-17-doc', roots: ['/usr/share/doc/openjdk-17-jre-headless/api', '/usr/share/doc/openjdk-17-doc/api'] },
  { name: 'mkdocs', package: 'mkdocs-doc', roots: ['/usr/share/doc/mkdocs/html'] },
  // Two Doxygen 1.9.4 projects under one root: Eigen (its own header and footer) and SDL2 (stock).
  { name: 'doxygen', package: 'libeigen3-doc libsdl2-doc', roots: ['/usr/share/doc'] },
  { name: 'gtkdoc', package: 'libglib2.0-doc', roots: ['/usr/share/gtk-doc/html'] },
];

export interface GeneratorCandidate {
  generator: GeneratorName;
  /** Path under the site's root. */
  path: string;
  /** Kind of page (the quota it fills). */
  kind: string;
  heldOut: boolean;
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

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

const mdbookBooks = ['book', 'reference', 'rust-by-example', 'nomicon', 'edition-guide', 'embedded-book', 'rustc', 'rustdoc', 'unstable-book'];
const rustdocQuotas: Record<string, number> = { index: 7, struct: 8, trait: 7, enum: 4, fn: 4, macro: 3, primitive: 3, other: 4 };
const javadocQuotas: Record<string, number> = { class: 10, interface: 8, enum: 3, record: 1, annotation: 2, package: 10, module: 6 };
const maxBytes = 400_000;
const doxygenProjects = ['libeigen3-dev/html', 'libsdl2-doc/html'];
const doxygenQuotas: Record<string, number> = { class: 14, file: 8, group: 8, page: 10 };
const gtkdocQuotas: Record<string, number> = { reference: 28, chapter: 12 };

/** The bytes between a content element's start tag and the end of the page, roughly (a size floor). */
function mainBytes(html: string, start: RegExp): number {
  const index = html.search(start);
  return index < 0 ? 0 : html.length - index;
}

interface Rule {
  files: (root: string) => string[];
  /** The page's kind and its folder (the cap's unit), or undefined when it is not sampled. */
  classify: (path: string, html: string) => { kind: string; folder: string } | undefined;
  quotas?: Record<string, number>;
  perFolder: number;
  total: number;
}

const rules: Record<GeneratorName, Rule> = {
  mdbook: {
    files: (root) => mdbookBooks.flatMap((book) => htmlFiles(root, book)),
    classify: (path, html) => {
      if (/(?:^|\/)(?:print|toc|404)\.html$/.test(path) || !html.includes('Book generated using mdBook')) return undefined;
      const main = /<main>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
      if (main.length < 1500) return undefined;
      return { kind: 'chapter', folder: path.split('/')[0]! };
    },
    perFolder: 5,
    total: 40,
  },
  rustdoc: {
    files: (root) => htmlFiles(root, 'std'),
    classify: (path, html) => {
      if (html.length > maxBytes || !html.includes('content="rustdoc"') || html.includes('http-equiv="refresh"')) return undefined;
      if (mainBytes(html, /id="main-content"/) < 1500 || /(?:^|\/)all\.html$/.test(path)) return undefined;
      const file = path.split('/').pop()!;
      const prefix = file === 'index.html' ? 'index' : file.split('.')[0]!;
      const kind = prefix in rustdocQuotas ? prefix : 'other';
      return { kind, folder: path.split('/').slice(0, -1).join('/') };
    },
    quotas: rustdocQuotas,
    perFolder: 2,
    total: 40,
  },
  javadoc: {
    files: (root) => htmlFiles(root).filter((path) => /^java\.|^jdk\./.test(path)),
    classify: (path, html) => {
      if (html.length > maxBytes || /\/(?:class-use|doc-files)\//.test(path)) return undefined;
      const file = path.split('/').pop()!;
      const folder = path.split('/').slice(0, -1).join('/');
      if (file === 'module-summary.html') return { kind: 'module', folder };
      if (file === 'package-summary.html') return { kind: 'package', folder };
      if (!/^[A-Z]/.test(file)) return undefined;
      const title = /<h1 title="(\w+)/.exec(html)?.[1]?.toLowerCase();
      const kind = title === 'annotation' ? 'annotation' : title;
      return kind && kind in javadocQuotas ? { kind, folder } : undefined;
    },
    quotas: javadocQuotas,
    perFolder: 2,
    total: 40,
  },
  mkdocs: {
    files: (root) => htmlFiles(root),
    classify: (path, html) => (path === '404.html' || !html.includes('role="main"') ? undefined : { kind: 'page', folder: path }),
    perFolder: 1,
    total: 40,
  },
  doxygen: {
    files: (root) => doxygenProjects.flatMap((project) => htmlFiles(root, project)),
    classify: (path, html) => {
      if (html.length > maxBytes || !html.includes('Generated by Doxygen') || !html.includes('id="doc-content"')) return undefined;
      const file = path.split('/').pop()!;
      // Indexes and lists (members, files, globals, directories, the tree) and source listings are links or code only.
      if (
        /^(?:index|annotated|classes|files|globals.*|functions.*|namespaces|namespacemembers.*|modules|pages|hierarchy|inherits|deprecated|todo|bug)\.html$/.test(
          file,
        )
      )
        return undefined;
      if (/-members\.html$|_source\.html$|^dir_|^navtree|^graph_legend/.test(file)) return undefined;
      if (mainBytes(html, /class="contents"/) < 1500) return undefined;
      const project = doxygenProjects.find((folder) => path.startsWith(folder))!.split('/')[0]!;
      const kind = /^(?:class|struct|union)/.test(file)
        ? 'class'
        : /_8h\.html$/.test(file)
          ? 'file'
          : /^group__/.test(file)
            ? 'group'
            : /^namespace/.test(file)
              ? undefined
              : 'page';
      return kind ? { kind, folder: `${project}:${kind}` } : undefined;
    },
    quotas: doxygenQuotas,
    perFolder: 7,
    total: 40,
  },
  gtkdoc: {
    files: (root) => ['glib', 'gobject', 'gio'].flatMap((manual) => htmlFiles(root, manual)),
    classify: (path, html) => {
      if (html.length > maxBytes || !html.includes('GTK-Doc') || mainBytes(html, /<\/table>/) < 1500) return undefined;
      const file = path.split('/').pop()!;
      // Indexes (api-index, annotation glossary, the book's table of contents) are lists of links.
      if (/^(?:index|api-index.*|annotation-glossary|deprecated|ix\d+|.*-hierarchy)\.html$/.test(file)) return undefined;
      const manual = path.split('/')[0]!;
      return { kind: html.includes('class="refentry"') ? 'reference' : 'chapter', folder: manual };
    },
    quotas: gtkdocQuotas,
    perFolder: 16,
    total: 40,
  },
};

export function rootOfGenerator(site: GeneratorSite): string | undefined {
  return site.roots.find((root) => existsSync(root) && statSync(root).isDirectory());
}

/**
 * The fixed sample of one generator: candidates in the order of a hash of their path, each taken
 * while its kind's quota and its folder's cap have room. Then split in halves by a second hash.
 */
export function sampleGenerator(name: GeneratorName, root: string): GeneratorCandidate[] {
  return sampleBy(name, root, rules[name], name, true);
}

/** `split`: halve the sample into tuning and held-out by a second hash; otherwise every page is held out. */
function sampleBy(name: GeneratorName, root: string, rule: Rule, salt: string, split: boolean): GeneratorCandidate[] {
  const ordered = rule
    .files(root)
    .map((path) => ({ path, hash: hashOf(`${salt}:${path}`) }))
    .sort((a, b) => (a.hash < b.hash ? -1 : 1));
  const taken: { path: string; kind: string }[] = [];
  const perKind = new Map<string, number>();
  const perFolder = new Map<string, number>();
  for (const { path } of ordered) {
    if (taken.length >= rule.total) break;
    const found = rule.classify(path, readFileSync(join(root, path), 'utf8'));
    if (!found) continue;
    if ((perFolder.get(found.folder) ?? 0) >= rule.perFolder) continue;
    if (rule.quotas && (perKind.get(found.kind) ?? 0) >= (rule.quotas[found.kind] ?? 0)) continue;
    perFolder.set(found.folder, (perFolder.get(found.folder) ?? 0) + 1);
    perKind.set(found.kind, (perKind.get(found.kind) ?? 0) + 1);
    taken.push({ path, kind: found.kind });
  }
  if (!split) return taken.map((page) => ({ generator: name, path: page.path, kind: page.kind, heldOut: true }));
  const bySplit = [...taken].sort((a, b) => (hashOf(`split:${a.path}`) < hashOf(`split:${b.path}`) ? -1 : 1));
  const half = Math.ceil(bySplit.length / 2);
  const heldOut = new Set(bySplit.slice(half).map((page) => page.path));
  return taken.map((page) => ({ generator: name, path: page.path, kind: page.kind, heldOut: heldOut.has(page.path) }));
}

/**
 * Task 13i: a fresh held-out set for 13g's generators (13g's own held-out half was read, so it is
 * spent), drawn from pages 13g's sample does not hold, by the same rules with a new hash salt:
 * - mdBook: chapters of the same books not in 13g's sample, at most 3 per book;
 * - rustdoc: `core/` and `alloc/` (13g sampled `std/` only);
 * - Javadoc: packages (folders) 13g did not sample from.
 * MkDocs' manual has 22 pages, all in 13g's sample: it has no fresh pages. Every page is held out.
 */
const freshRules: Partial<Record<GeneratorName, (sampled: GeneratorCandidate[]) => Rule>> = {
  mdbook: (sampled) => {
    const seen = new Set(sampled.map((page) => page.path));
    return { ...rules.mdbook, classify: (path, html) => (seen.has(path) ? undefined : rules.mdbook.classify(path, html)), perFolder: 3, total: 24 };
  },
  rustdoc: () => ({
    ...rules.rustdoc,
    files: (root) => [...htmlFiles(root, 'core'), ...htmlFiles(root, 'alloc')],
    quotas: { index: 4, struct: 5, trait: 4, enum: 3, fn: 3, macro: 2, primitive: 1, other: 2 },
    total: 24,
  }),
  javadoc: (sampled) => {
    const folders = new Set(sampled.map((page) => page.path.split('/').slice(0, -1).join('/')));
    return {
      ...rules.javadoc,
      classify: (path, html) => (folders.has(path.split('/').slice(0, -1).join('/')) ? undefined : rules.javadoc.classify(path, html)),
      quotas: { class: 6, interface: 5, enum: 2, record: 1, annotation: 1, package: 6, module: 3 },
      total: 24,
    };
  },
};

/** The fresh held-out set of 13g's generators (`--generators-fresh`), every page held out. */
export function freshGeneratorSamples(): { site: GeneratorSite; root: string; pages: GeneratorCandidate[] }[] {
  return generatorSites.flatMap((site) => {
    const root = rootOfGenerator(site);
    const fresh = freshRules[site.name];
    if (!root || !fresh) return [];
    return [{ site, root, pages: sampleBy(site.name, root, fresh(sampleGenerator(site.name, root)), `fresh13i:${site.name}`, false) }];
  });
}

/**
 * Task 13j: a second fresh held-out set (`--generators-fresh2`), since 13g's held-out half and 13i's
 * fresh set were read. Pages in none of the earlier samples (13g's both halves, 13i's fresh set), by
 * the same rules with a new hash salt, every page held out:
 * - mdBook: other chapters of the same books, at most 3 per book;
 * - rustdoc: `proc_macro/` and `test/` (never sampled) and `std/` pages not in 13g's sample;
 * - Javadoc: packages (folders) neither 13g nor 13i sampled from;
 * - Doxygen: Eigen and SDL2 pages not in 13i's sample;
 * - gtk-doc: `libtasn1` (never sampled) and GLib, GObject and GIO pages not in 13i's sample.
 * MkDocs has no pages left.
 */
const fresh2Rules: Partial<Record<GeneratorName, (seen: Set<string>, folders: Set<string>) => Rule>> = {
  mdbook: (seen) => ({ ...rules.mdbook, classify: (path, html) => (seen.has(path) ? undefined : rules.mdbook.classify(path, html)), perFolder: 3, total: 20 }),
  rustdoc: (seen) => ({
    ...rules.rustdoc,
    files: (root) => ['proc_macro', 'test', 'std'].flatMap((crate) => htmlFiles(root, crate)),
    classify: (path, html) => (seen.has(path) ? undefined : rules.rustdoc.classify(path, html)),
    quotas: { index: 4, struct: 4, trait: 3, enum: 2, fn: 3, macro: 1, primitive: 1, other: 2 },
    total: 20,
  }),
  javadoc: (_seen, folders) => ({
    ...rules.javadoc,
    classify: (path, html) => (folders.has(path.split('/').slice(0, -1).join('/')) ? undefined : rules.javadoc.classify(path, html)),
    quotas: { class: 5, interface: 4, enum: 2, record: 1, annotation: 1, package: 5, module: 2 },
    total: 20,
  }),
  doxygen: (seen) => ({
    ...rules.doxygen,
    classify: (path, html) => (seen.has(path) ? undefined : rules.doxygen.classify(path, html)),
    quotas: { class: 7, file: 4, group: 4, page: 5 },
    perFolder: 4,
    total: 20,
  }),
  gtkdoc: (seen) => ({
    ...rules.gtkdoc,
    files: (root) => ['glib', 'gobject', 'gio', 'libtasn1'].flatMap((manual) => htmlFiles(root, manual)),
    classify: (path, html) => (seen.has(path) ? undefined : rules.gtkdoc.classify(path, html)),
    quotas: { reference: 14, chapter: 6 },
    perFolder: 8,
    total: 20,
  }),
};

/** Task 13j's second fresh held-out set (`--generators-fresh2`), every page held out. */
export function fresh2GeneratorSamples(): { site: GeneratorSite; root: string; pages: GeneratorCandidate[] }[] {
  const earlier = [...generatorSamples(), ...freshGeneratorSamples()];
  return generatorSites.flatMap((site) => {
    const root = rootOfGenerator(site);
    const fresh = fresh2Rules[site.name];
    if (!root || !fresh) return [];
    const pages = earlier.filter((sample) => sample.site.name === site.name).flatMap((sample) => sample.pages);
    const seen = new Set(pages.map((page) => page.path));
    const folders = new Set(pages.map((page) => page.path.split('/').slice(0, -1).join('/')));
    return [{ site, root, pages: sampleBy(site.name, root, fresh(seen, folders), `fresh13j:${site.name}`, false) }];
  });
}

/** Every installed generator's sample (a generator not installed is skipped). */
export function generatorSamples(): { site: GeneratorSite; root: string; pages: GeneratorCandidate[] }[] {
  return generatorSites.flatMap((site) => {
    const root = rootOfGenerator(site);
    return root ? [{ site, root, pages: sampleGenerator(site.name, root) }] : [];
  });
}

// `npx tsx benchmarks/docs-pages/generator-corpus.ts`: print the sample and its split (no score).
if (process.argv[1]?.endsWith('generator-corpus.ts')) {
  for (const { site, root, pages } of generatorSamples()) {
    console.log(`${site.name} (${root}): ${pages.length} pages`);
    for (const page of pages) console.log(`  ${page.heldOut ? 'heldout' : 'tuning '} ${page.kind.padEnd(10)} ${page.path}`);
  }
  for (const { site, pages } of freshGeneratorSamples()) {
    console.log(`${site.name} fresh held-out set (task 13i): ${pages.length} pages`);
    for (const page of pages) console.log(`  fresh   ${page.kind.padEnd(10)} ${page.path}`);
  }
  for (const { site, pages } of fresh2GeneratorSamples()) {
    console.log(`${site.name} second fresh held-out set (task 13j): ${pages.length} pages`);
    for (const page of pages) console.log(`  fresh2  ${page.kind.padEnd(10)} ${page.path}`);
  }
}
