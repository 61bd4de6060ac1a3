import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { PayloadTooLargeError, type ScrapeDocument } from '@quarry/core';
import { buildEngine, loadConfig } from './compose.js';

/**
 * `quarry parse <file>`: a local document (PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown,
 * text) converted as POST /v2/parse converts it, printed as markdown (or html, links, JSON).
 * The same size limit as the API (QUARRY_PARSE_MAX_BYTES), checked before the file is read.
 */
interface ParseFlags {
  format: 'markdown' | 'html' | 'links';
  json?: boolean;
  type?: string;
  timeout?: number;
}

export function parseCommand(program: Command) {
  program
    .command('parse')
    .description('Convert a local file (PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown, text) and print it (markdown by default).')
    .argument('<file>', 'the file to convert; its extension tells the type')
    .addOption(new Option('-f, --format <format>', 'what to print').choices(['markdown', 'html', 'links']).default('markdown'))
    .option('--type <mediaType>', 'the media type, for a file whose name has no known extension')
    .option('--timeout <ms>', 'milliseconds allowed for the conversion', (value) => Number.parseInt(value, 10))
    .option('--json', 'print the whole document as JSON')
    .action(async (path: string, flags: ParseFlags) => {
      const config = loadConfig(process.env);
      const { size } = await stat(path);
      if (size > config.QUARRY_PARSE_MAX_BYTES)
        throw new PayloadTooLargeError(`${path} is ${size} bytes, over the parse limit of ${config.QUARRY_PARSE_MAX_BYTES} (QUARRY_PARSE_MAX_BYTES)`);
      const bytes = new Uint8Array(await readFile(path));
      const engine = buildEngine(config);
      try {
        const formats: Array<ParseFlags['format']> = flags.json ? ['markdown', 'html', 'links'] : [flags.format];
        const document = await engine.parse(
          { bytes, filename: basename(path), contentType: flags.type },
          { formats, ...(flags.timeout !== undefined ? { timeout: flags.timeout } : {}) },
        );
        process.stdout.write(render(document, flags));
      } finally {
        await engine.close();
      }
    });
}

function render(document: ScrapeDocument, flags: ParseFlags): string {
  if (flags.json) return `${JSON.stringify(document, null, 2)}\n`;
  if (flags.format === 'links') return (document.links ?? []).map((link) => `${link}\n`).join('');
  const text = document[flags.format] ?? '';
  return text.endsWith('\n') ? text : `${text}\n`;
}
