/**
 * Markdown -> plain text, as the extraction-dev README defines it: link targets and images are
 * dropped (link text stays); heading, list, quote, emphasis, table and code-fence markup is dropped;
 * backslash escapes are undone. Block structure stays as line breaks. Fenced and inline code keep
 * their text verbatim (both converters here write fenced code, never indented code).
 */

const fencePattern = /^\s*(`{3,}|~{3,})/;
const thematicBreakPattern = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const setextUnderlinePattern = /^\s{0,3}(=+|-+)\s*$/;
const tableSeparatorPattern = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const linkDefinitionPattern = /^\s{0,3}\[[^\]]+\]:\s+\S+.*$/;

/** Container markers at a line start (quote, list item with optional task box), removed repeatedly. */
const containerMarkers: RegExp[] = [/^\s*>\s?/, /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/];
/** A heading marker; what follows it is heading text (a "1." there is not a list). */
const headingMarker = /^\s{0,3}#{1,6}(?:\s+|$)/;

export function markdownToText(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const output: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const fenceMatch = fencePattern.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = undefined;
      else output.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    output.push(textOfLine(line));
  }
  return output.join('\n');
}

function textOfLine(line: string): string {
  if (thematicBreakPattern.test(line) || setextUnderlinePattern.test(line)) return '';
  if (linkDefinitionPattern.test(line)) return '';
  if (tableSeparatorPattern.test(line) && line.includes('-') && line.includes('|')) return '';
  let text = line;
  for (let changed = true; changed; ) {
    changed = false;
    for (const marker of containerMarkers) {
      const next = text.replace(marker, '');
      if (next !== text) {
        text = next;
        changed = true;
      }
    }
  }
  text = text.replace(headingMarker, '');
  text = text.replace(/\s+#+\s*$/, ''); // closing atx hashes
  if (/^\s*\|.*\|\s*$/.test(text)) text = tableRowText(text);
  return inlineText(text);
}

function tableRowText(row: string): string {
  const cells = row
    .trim()
    .slice(1, -1)
    .split(/(?<!\\)\|/);
  return cells.map((cell) => cell.trim()).join(' ');
}

/** Inline markup: code spans keep their text; elsewhere images, links, emphasis and escapes go. */
function inlineText(text: string): string {
  const parts = text.split(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/);
  let result = '';
  for (let index = 0; index < parts.length; index += 3) {
    result += proseText(parts[index] ?? '');
    const code = parts[index + 2];
    if (code !== undefined) result += code.trim() === '' ? code : code.replace(/^ (.*) $/, '$1');
  }
  return result;
}

function proseText(text: string): string {
  let result = text;
  // images (also inside link text), then links, innermost first
  result = result.replace(/!\[(?:[^\]\\]|\\.)*\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, '');
  result = result.replace(/!\[(?:[^\]\\]|\\.)*\]\[[^\]]*\]/g, '');
  for (let previous = ''; previous !== result; ) {
    previous = result;
    result = result.replace(/\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g, '$1');
    result = result.replace(/\[((?:[^[\]\\]|\\.)*)\]\[[^\]]*\]/g, '$1');
  }
  result = result.replace(/<(https?:\/\/[^>\s]+|mailto:[^>\s]+)>/g, '$1');
  result = result.replace(/<br\s*\/?>/gi, ' ');
  result = result.replace(/(?<!\\)(\*+|~~)/g, ''); // * emphasis, ~~ strikethrough
  result = result.replace(/(?<![\\\p{L}\p{N}])_+|(?<!\\)_+(?![\p{L}\p{N}])/gu, ''); // _ emphasis, not snake_case
  result = result.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return result.replace(/\\$/, ''); // backslash hard break
}
