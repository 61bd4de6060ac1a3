/**
 * The pages of the real non-Sphinx sites (`real-corpus.ts`) with their ground truth: each page's
 * source rendered to the HTML elements the built page shows, which `score.ts` reads as it reads any
 * rendering. What the generator writes that the source does not state is a gap (no shingle spans
 * it) and its text is excused on both extractors alike, as `generated.ts` does for Sphinx.
 *
 * Node's generator (`tools/doc/html.mjs`, read from its source, not from the pages): headings one
 * level down (`#` is `h2`); `<!-- YAML -->` blocks become "Added in" lines and History tables
 * (`.api_metadata`, generated); `<!-- source_link=lib/x.js -->` becomes "**Source Code:** lib/x.js";
 * `{string|Buffer}` outside code becomes `<string> | <Buffer>`; links to `x.md` point at `x.html`.
 * git's asciidoc: see `asciidoc.ts`. docutils' reStructuredText: read by the Sphinx part's reader
 * (`rst.ts`, `rstTruth`) into the four features it states (heading text, code text, external
 * links, prose), with the build's generated regions excused as for Sphinx (`generated.ts`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { shingleBreak } from '../main-content/metrics.js';
import { asciidocTruthHtml } from './asciidoc.js';
import { generatedText } from './generated.js';
import { type RealSite, realSites, rootOf } from './real-corpus.js';
import { type RstTruth, rstTruth } from './rst.js';
import { infoNodes, infoTruth, isIndexNode, nodeFileName, texinfoGenerated } from './texinfo.js';

export interface RealPage {
  site: RealSite;
  path: string;
  html: string;
  /** The source rendered as the page shows it (the ground truth). */
  truthHtml: string;
  /** Text of the page the generator wrote and the source cannot state, excused in the text score. */
  generated: string;
  /**
   * Whether the text is scored: not when the source includes a file the package does not ship
   * (git's `config/*.txt`): the page shows text the truth cannot state, and where it ends is unknown.
   */
  scoresText: boolean;
  /** A reStructuredText site's truth, in the Sphinx part's four features (`truthHtml` is then empty). */
  rst?: RstTruth;
}

/** `{string|Buffer}` as Node's type linker writes it: `<string> | <Buffer>` (outside code spans). */
function nodeTypes(line: string): string {
  return line
    .split('`')
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/\{([^{}]+)\}/g, (_whole, types: string) =>
            types
              .split('|')
              .map((type) => type.trim())
              .filter(Boolean)
              .map((type) => `&lt;${type}&gt;`)
              .join(' | '),
          ),
    )
    .join('`');
}

/** A Node API source as its page shows it. */
export function nodeTruthHtml(markdown: string): string {
  const lines = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/<!--\s*YAML[\s\S]*?-->/g, `\n${shingleBreak}\n`)
    .replace(/<!--\s*source_link=(\S+)\s*-->/g, '**Source Code:** $1')
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n');
  let fenced = false;
  const typed = lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return fenced ? line : nodeTypes(line);
  });
  const html = micromark(typed.join('\n'), { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
  return html
    .replace(/(<\/?h)([1-5])(?=[\s>])/g, (_whole, tag: string, level: string) => `${tag}${Number(level) + 1}`)
    .replace(/href="(?!https?:)([^"#]*?)\.md(#[^"]*)?"/g, (_whole, file: string, hash?: string) => `href="${file}.html${hash ?? ''}"`);
}

/** Node's generated regions: "Added in" lines and History tables. */
const nodeGenerated = /(?:^|\s)api_metadata(?:\s|$)/;

function gunzipped(path: string): string {
  return path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
}

interface Source {
  path: string;
  file: string;
}

/** The files of a folder, sorted, and of its subfolders when `deep`. */
function filesIn(folder: string, deep: boolean): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((entry) => {
      const file = join(folder, entry);
      if (statSync(file).isDirectory()) return deep ? filesIn(file, deep) : [];
      return [file];
    });
}

/** A site's sources that have their page beside them, sorted, with the size range of the other corpora. */
function sources(site: RealSite, root: string): Source[] {
  const found: Source[] = [];
  // docutils' pages sit in subfolders (`docs/ref/`), git's and Node's in one folder.
  for (const file of filesIn(root, site.source === 'rst')) {
    const entry = relative(root, file);
    const match = site.source === 'markdown' ? /^(.+)\.md(?:\.gz)?$/.exec(entry) : /^(.+)\.txt$/.exec(entry);
    if (!match || match[1] === 'all' || match[1] === 'index') continue;
    const path = `${match[1]}.html`;
    if (!existsSync(join(root, path))) continue;
    const size = Buffer.byteLength(gunzipped(file));
    if (size < 1_500 || size > (site.source === 'markdown' ? 80_000 : 60_000)) continue;
    found.push({ path, file });
  }
  return found;
}

/** A Texinfo site's Info file, all its parts in order (`x.info.gz`, `x.info-1.gz`, ...). */
function infoText(site: RealSite): string | undefined {
  const first = site.info?.find((file) => existsSync(file));
  if (!first) return undefined;
  const parts = [first];
  for (let part = 1; existsSync(first.replace(/\.info(\.gz)?$/, `.info-${part}$1`)); part++) parts.push(first.replace(/\.info(\.gz)?$/, `.info-${part}$1`));
  return parts.map(gunzipped).join('');
}

/**
 * A Texinfo site's pages: one per Info node with its HTML page (not the `Top` page, which is its
 * menu, nor an index), 1.5-60 KB of Info text, sorted by file name, evenly spaced.
 */
function loadTexinfoPages(site: RealSite, root: string, perSite: number): RealPage[] {
  const info = infoText(site);
  if (!info) return [];
  const candidates = infoNodes(info)
    .filter((node) => node.name !== 'Top' && !isIndexNode(node))
    .map((node) => ({ node, path: nodeFileName(node.name) }))
    .filter(({ node, path }) => {
      const size = Buffer.byteLength(node.body);
      return size >= 1_500 && size <= 60_000 && existsSync(join(root, path));
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pages: RealPage[] = [];
  const step = Math.max(1, candidates.length / perSite);
  for (let position = 0; position < candidates.length && pages.length < perSite; position += step) {
    const { node, path } = candidates[Math.floor(position)]!;
    const html = readFileSync(join(root, path), 'utf8');
    const rst = infoTruth(node.body);
    if (rst.headings.size === 0) continue;
    pages.push({ site, path, html, truthHtml: '', generated: generatedText(html, rst.generated, texinfoGenerated), scoresText: true, rst });
  }
  return pages;
}

/** Up to `perSite` pages of each site found on this machine, evenly spaced over its sorted sources. */
export function loadRealPages(perSite = 30, sites: readonly RealSite[] = realSites): RealPage[] {
  const pages: RealPage[] = [];
  for (const site of sites) {
    const root = rootOf(site);
    if (!root) continue;
    if (site.source === 'texinfo') {
      pages.push(...loadTexinfoPages(site, root, perSite));
      continue;
    }
    const candidates = sources(site, root);
    const step = Math.max(1, candidates.length / perSite);
    for (let position = 0; position < candidates.length && pages.filter((page) => page.site === site).length < perSite; position += step) {
      const { path, file } = candidates[Math.floor(position)]!;
      const html = readFileSync(join(root, path), 'utf8');
      const source = gunzipped(file);
      if (site.source === 'rst') {
        // A `literalinclude`d file is read beside the source, as docutils' build reads it.
        const rst = rstTruth(source, (included) => {
          const target = join(dirname(file), included);
          return existsSync(target) ? readFileSync(target, 'utf8') : undefined;
        });
        if (rst.headings.size === 0) continue;
        pages.push({ site, path, html, truthHtml: '', generated: generatedText(html, rst.generated), scoresText: true, rst });
        continue;
      }
      let missing = 0;
      const truthHtml =
        site.source === 'markdown'
          ? nodeTruthHtml(source)
          : asciidocTruthHtml(source, (included) => {
              const target = join(root, included);
              if (existsSync(target)) return readFileSync(target, 'utf8');
              missing++;
              return undefined;
            });
      const generated = site.source === 'markdown' ? generatedText(html, { objects: [], numbered: [], modules: [], regions: new Set() }, [nodeGenerated]) : '';
      pages.push({ site, path, html, truthHtml, generated, scoresText: missing === 0 });
    }
  }
  return pages;
}
