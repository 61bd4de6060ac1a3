import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PayloadTooLargeError, ValidationError, type ParseFileInput } from '@quarry/core';
import { parseAction } from '../routes/parse-routes.js';
import { anyObject, bool, num, str, strings, type McpTool, type ToolContext } from './mcp-tool.js';
import { scrapeBody } from './scrape-args.js';

/**
 * firecrawl_parse: one document to the scrape document, through the same action as POST /v2/parse.
 * Firecrawl's tool reads `filePath` where the MCP server runs; so does `quarry mcp` (stdio, the
 * caller's own machine). Over HTTP the server never reads its own disk for a caller: the file comes
 * as base64 `content` with its `filename` (Firecrawl's hosted upload step, `uploadRef`, is not here).
 */
export const parseTool: McpTool = {
  name: 'firecrawl_parse',
  description:
    'Parse one document (PDF, DOCX, XLSX, ODS, PPTX, CSV, HTML, Markdown, text) into markdown, html, links, summary or json. Over stdio (`quarry mcp`) give `filePath`; over HTTP send the file as base64 `content` with its `filename`. Public URLs belong in firecrawl_scrape.',
  inputSchema: {
    type: 'object',
    properties: {
      filePath: str('Path of a local file (stdio only: read on the machine running `quarry mcp`).'),
      content: str('The file as base64 (over HTTP; also accepted over stdio).'),
      filename: str('The file name with content; its extension tells the type. Default: the name in filePath.'),
      contentType: str('The MIME type, when the extension does not tell it.'),
      formats: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'object' }] },
        description: 'markdown (default), html, rawHtml, links, summary, json',
      },
      jsonOptions: { type: 'object', properties: { prompt: str(), schema: anyObject() }, description: 'For the json format: a prompt and/or a JSON schema.' },
      onlyMainContent: bool(),
      includeTags: strings(),
      excludeTags: strings(),
      timeout: num('Milliseconds allowed for the parse.'),
      parsers: { type: 'array', items: {} },
      pdfOptions: { type: 'object', properties: { maxPages: num('Parse at most this many PDF pages.') } },
      removeBase64Images: bool(),
      zeroDataRetention: bool(),
      proxy: str(),
      maxAge: num('Ignored: a parse never reads or fills the cache.'),
    },
  },
  kind: 'scrape',
  run: async (context, args) => {
    const { filePath, content, filename, contentType, uploadRef, declaredSizeBytes: _declared, maxAge: _maxAge, pdfOptions, ...options } = args;
    if (uploadRef !== undefined)
      throw new ValidationError('uploadRef: this server has no upload step; send the file as base64 `content` with its `filename`', 'uploadRef');
    const file = await fileOf(context, { filePath, content, filename, contentType });
    const body = scrapeBody(options);
    if (pdfOptions !== undefined && body.parsers === undefined) {
      const maxPages = (pdfOptions as { maxPages?: unknown } | null)?.maxPages;
      body.parsers = [maxPages === undefined ? 'pdf' : { type: 'pdf', maxPages }];
    }
    return (await parseAction(context.services, context.caller, file, body, context.signal)).data;
  },
};

async function fileOf(context: ToolContext, args: { filePath: unknown; content: unknown; filename: unknown; contentType: unknown }): Promise<ParseFileInput> {
  const { filePath, content, filename, contentType } = args;
  if ((filePath === undefined) === (content === undefined))
    throw new ValidationError('Give either `filePath` (stdio) or `content` (base64, with `filename`), not both', 'content');
  for (const [field, value] of Object.entries({ filePath, content, filename, contentType })) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
      throw new ValidationError(`\`${field}\` must be a non-empty string; got ${JSON.stringify(value)}`, field);
  }
  const maxBytes = context.services.config.QUARRY_PARSE_MAX_BYTES;
  const type = contentType === undefined ? {} : { contentType: contentType as string };
  if (typeof filePath === 'string') {
    if (!context.localFiles) {
      throw new ValidationError(
        'filePath: this MCP server is remote and does not read its own disk; send the file as base64 `content` with its `filename` (filePath works with `quarry mcp` over stdio)',
        'filePath',
      );
    }
    const size = await stat(filePath).then(
      (found) => (found.isFile() ? found.size : undefined),
      () => undefined,
    );
    if (size === undefined) throw new ValidationError(`filePath: no readable file at ${filePath}`, 'filePath');
    if (size > maxBytes)
      throw new PayloadTooLargeError(`file: the file is larger than this server's parse limit of ${maxBytes} bytes (QUARRY_PARSE_MAX_BYTES)`);
    if (size === 0) throw new ValidationError('filePath: the file is empty', 'filePath');
    return { bytes: new Uint8Array(await readFile(filePath)), filename: typeof filename === 'string' ? filename : basename(filePath), ...type };
  }
  if (typeof filename !== 'string') throw new ValidationError('filename: required with `content` (its extension tells the type)', 'filename');
  const base64 = (content as string).replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) throw new ValidationError('content: expected the file as base64', 'content');
  // Refused before decoding: base64 is 4 characters per 3 bytes.
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 2)
    throw new PayloadTooLargeError(`file: the file is larger than this server's parse limit of ${maxBytes} bytes (QUARRY_PARSE_MAX_BYTES)`);
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length === 0) throw new ValidationError('content: the file is empty', 'content');
  return { bytes, filename, ...type };
}
