import { createRequire } from 'node:module';

/**
 * diff (19 modules) loads on the first change-tracking diff, not with the engine: every `quarry`
 * command imports the engine and only change tracking diffs (issue 14, sixth pass).
 */
let diffModule: typeof import('diff') | undefined;
function loadDiff(): typeof import('diff') {
  diffModule ??= createRequire(import.meta.url)('diff') as typeof import('diff');
  return diffModule;
}

/**
 * The git-diff mode of changeTracking: a unified diff of the previous and the current markdown
 * (`text`, what `git diff` prints) and the same diff parsed into files, chunks and changes
 * (`json`, the shape of the parse-diff library Firecrawl uses, so clients written against
 * Firecrawl read it unchanged).
 */
export interface DiffChange {
  type: 'add' | 'del' | 'normal';
  /** The line with its `+`, `-` or space prefix. */
  content: string;
  add?: true;
  del?: true;
  normal?: true;
  /** Line number in the new file (add) or the old file (del). */
  ln?: number;
  /** Old and new line numbers of an unchanged line. */
  ln1?: number;
  ln2?: number;
}

export interface DiffChunk {
  /** The hunk header, `@@ -a,b +c,d @@`. */
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string;
  to: string;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

export interface GitDiff {
  text: string;
  json: { files: DiffFile[] };
}

export function gitDiff(previous: string, current: string): GitDiff {
  const { structuredPatch, formatPatch } = loadDiff();
  const patch = structuredPatch('previous', 'current', withNewline(previous), withNewline(current), undefined, undefined, { context: 3 });
  let additions = 0;
  let deletions = 0;
  const chunks = patch.hunks.map((hunk): DiffChunk => {
    const changes: DiffChange[] = [];
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      if (line.startsWith('+')) {
        changes.push({ type: 'add', add: true, ln: newLine++, content: line });
        additions++;
      } else if (line.startsWith('-')) {
        changes.push({ type: 'del', del: true, ln: oldLine++, content: line });
        deletions++;
      } else if (line.startsWith(' ')) {
        changes.push({ type: 'normal', normal: true, ln1: oldLine++, ln2: newLine++, content: line });
      }
      // `\ No newline at end of file` lines carry no change.
    }
    return {
      content: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      changes,
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
    };
  });
  return {
    text: formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true }),
    json: { files: [{ from: 'previous', to: 'current', chunks, additions, deletions }] },
  };
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
