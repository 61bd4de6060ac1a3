import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { parseScrapeOptions, PayloadTooLargeError, ValidationError, type ParseFileInput } from '@quarry/core';
import { take } from '../server/body.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { presentDocument } from './present-document.js';
import { usageOf } from './scrape-routes.js';

/**
 * POST /v2/parse: a file upload (multipart: `file`, and `options` as JSON with the scrape options
 * that apply to a file) converted to the scrape document, synchronously, as the SDK's `parse`
 * sends it. Charged as a scrape after it succeeds (a PDF per page); a failure costs nothing.
 * Larger than QUARRY_PARSE_MAX_BYTES: 413; a type Quarry does not read: 415.
 */
export function parseRoutes(app: FastifyInstance, services: Services) {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: services.config.QUARRY_PARSE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024 * 1024, parts: 5 },
    });
    scope.post('/v2/parse', { config: { kind: 'scrape' } }, async (request) => {
      const { file, optionsText } = await readUpload(request, services.config.QUARRY_PARSE_MAX_BYTES);
      const controller = new AbortController();
      request.raw.once('close', () => {
        if (!request.raw.complete || request.raw.destroyed) controller.abort();
      });
      return parseAction(services, request.caller, file, optionsOf(optionsText), controller.signal);
    });
  });
}

/** A parse for a caller: what POST /v2/parse and the MCP tool firecrawl_parse run. */
export async function parseAction(services: Services, caller: Caller, file: ParseFileInput, body: Record<string, unknown>, abort?: AbortSignal) {
  const maxBytes = services.config.QUARRY_PARSE_MAX_BYTES;
  if (file.bytes.length > maxBytes)
    throw new PayloadTooLargeError(`file: the file is larger than this server's parse limit of ${maxBytes} bytes (QUARRY_PARSE_MAX_BYTES)`);
  const options = parseScrapeOptions('v2', take(body, []).rest);
  const teamId = caller.teamId;
  await services.billing.requireCredits(teamId, 1);
  const signal = AbortSignal.any([...(abort ? [abort] : []), AbortSignal.timeout(options.timeout)]);
  const document = await services.billing.chargeRequest(caller, 'parse', () => services.engine.parseParsed(file, options, { signal, teamId }), usageOf);
  return { success: true as const, data: presentDocument(document, 'v2') };
}

async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ file: ParseFileInput; optionsText: string | undefined }> {
  if (!request.isMultipart())
    throw new ValidationError('file: expected a multipart/form-data body with a `file` part (and an optional `options` part holding JSON)', 'file');
  let file: ParseFileInput | undefined;
  let optionsText: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new ValidationError(`${part.fieldname}: unexpected file part; send the file as \`file\``, part.fieldname);
        file = { bytes: new Uint8Array(await part.toBuffer()), filename: part.filename ?? '', contentType: part.mimetype };
      } else if (part.fieldname === 'options') optionsText = String(part.value);
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new PayloadTooLargeError(`file: the file is larger than this server's parse limit of ${maxBytes} bytes (QUARRY_PARSE_MAX_BYTES)`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ValidationError(`file: too many parts; send one \`file\` and one \`options\``, 'file');
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`file: the multipart body could not be read: ${(error as Error).message}`, 'file');
  }
  if (!file) throw new ValidationError('file: required; send the document as a multipart part named `file`', 'file');
  if (file.filename.trim() === '') throw new ValidationError('file: the part needs a file name (its extension tells the type)', 'file');
  if (file.bytes.length === 0) throw new ValidationError('file: the file is empty', 'file');
  return { file, optionsText };
}

function optionsOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`options: expected JSON, got text that does not parse (${(error as Error).message})`, 'options');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError('options: expected a JSON object', 'options');
  return value as Record<string, unknown>;
}
