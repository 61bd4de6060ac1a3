/**
 * Real documentation nobody here wrote: the README and docs markdown files of the packages in the
 * repository's node_modules, chosen deterministically (sorted paths, at most a few per project),
 * rendered to bare HTML with micromark + GFM. The bare HTML is the ground truth of structure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export interface SourcePage {
  /** Project (package) the file belongs to: the unit of cross-validation folds. */
  project: string;
  /** Path relative to node_modules. */
  path: string;
  markdown: string;
  /** The markdown rendered as bare HTML (GFM, raw HTML kept as a README host renders it). */
  html: string;
}

const nodeModules = new URL('../../node_modules/', import.meta.url).pathname;

function packageFolders(): string[] {
  const folders: string[] = [];
  for (const name of readdirSync(nodeModules).sort()) {
    if (name.startsWith('.')) continue;
    const full = join(nodeModules, name);
    if (name.startsWith('@')) {
      for (const inner of readdirSync(full).sort()) folders.push(join(full, inner));
    } else folders.push(full);
  }
  return folders.filter((folder) => {
    try {
      return statSync(folder).isDirectory();
    } catch {
      return false;
    }
  });
}

function markdownFiles(folder: string, depth = 0): string[] {
  const found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const full = join(folder, entry);
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(full);
    } catch {
      continue;
    }
    if (stats.isDirectory() && depth < 2 && /^(docs?|documentation|guide)$/i.test(entry)) found.push(...markdownFiles(full, depth + 1));
    else if (stats.isDirectory() && depth > 0 && depth < 3) found.push(...markdownFiles(full, depth + 1));
    else if (stats.isFile() && /\.md$/i.test(entry) && (depth > 0 || /^readme\.md$/i.test(entry))) found.push(full);
  }
  return found;
}

/** A page is worth scoring when it has structure: headings and some body. */
function isDocumentation(markdown: string): boolean {
  if (markdown.length < 1_500 || markdown.length > 80_000) return false;
  const headings = markdown.match(/^#{1,6} \S/gm)?.length ?? 0;
  return headings >= 3;
}

/** Up to `limit` pages, at most `perProject` per project, in a stable order. */
export function loadSourcePages(limit = 300, perProject = 3): SourcePage[] {
  const pages: SourcePage[] = [];
  const seenText = new Set<string>();
  for (const folder of packageFolders()) {
    const project = relative(nodeModules, folder);
    let taken = 0;
    for (const file of markdownFiles(folder)) {
      if (taken >= perProject || pages.length >= limit) break;
      const markdown = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      if (!isDocumentation(markdown) || seenText.has(markdown)) continue;
      seenText.add(markdown);
      const html = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
      pages.push({ project, path: relative(nodeModules, file), markdown, html });
      taken++;
    }
    if (pages.length >= limit) break;
  }
  return pages;
}
