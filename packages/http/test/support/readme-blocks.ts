/** The ```ts blocks of a markdown text, with the line each starts on. */
export function tsBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]!.trim() !== '```ts') continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith('```')) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    index = end;
  }
  return blocks;
}
