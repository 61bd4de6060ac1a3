import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DoubleBehaviour, DoubleRequest } from './llm-double-answers.js';

/**
 * The HTTP side the OpenAI and Anthropic doubles share: a server on 127.0.0.1 that parses JSON
 * bodies, records every request, checks the API key, and plays scripted behaviours before handing
 * a request to the protocol's answer function.
 */
export interface LlmDouble {
  /** Base URL of the API, e.g. `http://127.0.0.1:41234/v1` (what OPENAI_BASE_URL / ANTHROPIC_BASE_URL take). */
  url: string;
  /** The server's root, without `/v1` (what OLLAMA_BASE_URL takes). */
  origin: string;
  /** Every request received, in order. */
  requests: DoubleRequest[];
  /** Queues behaviours for the next requests, one per request, before normal answers resume. */
  script(...behaviours: DoubleBehaviour[]): void;
  /** Drops queued behaviours and forgets recorded requests. */
  reset(): void;
  /** Tokens reported so far (input + output), over every answered request. */
  tokensReported(): number;
  close(): Promise<void>;
}

/** How the next structured answer deviates: broken JSON, the wrong shape, or this exact object. */
export type AnswerBehaviour = 'invalid-json' | 'wrong-shape' | { object: unknown };

export type ProtocolAnswer = { status: number; body: unknown } | 'drop';

export interface DoubleProtocol {
  /** The path the double answers (e.g. `/v1/chat/completions`). */
  path: string;
  /** Whether the request carries the expected key (`undefined` key: anything goes). */
  isAuthorized(request: IncomingMessage, apiKey: string | undefined): boolean;
  errorBody(status: number, message: string): unknown;
  answer(request: DoubleRequest, behaviour: AnswerBehaviour | undefined): { body: unknown; tokens: number };
}

export async function startLlmDouble(protocol: DoubleProtocol, options: { apiKey?: string } = {}): Promise<LlmDouble> {
  const requests: DoubleRequest[] = [];
  let queue: DoubleBehaviour[] = [];
  let tokens = 0;
  const sockets = new Set<import('node:net').Socket>();

  const server = createServer(async (request, response) => {
    const body = await readJson(request);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const recorded: DoubleRequest = { path: url.pathname, headers: request.headers, body: body ?? {} };
    requests.push(recorded);
    if (request.method !== 'POST' || url.pathname !== protocol.path)
      return send(response, 404, protocol.errorBody(404, `No route ${request.method} ${url.pathname}`));
    if (!protocol.isAuthorized(request, options.apiKey)) return send(response, 401, protocol.errorBody(401, 'Invalid API key'));
    if (body === undefined) return send(response, 400, protocol.errorBody(400, 'The body is not JSON'));
    const behaviour = queue.shift();
    if (behaviour === 'drop') return request.socket.destroy();
    if (typeof behaviour === 'object' && 'status' in behaviour) {
      const headers: Record<string, string> = behaviour.retryAfterMs !== undefined ? { 'retry-after-ms': String(behaviour.retryAfterMs) } : {};
      return send(response, behaviour.status, protocol.errorBody(behaviour.status, behaviour.message ?? `Scripted HTTP ${behaviour.status}`), headers);
    }
    if (typeof behaviour === 'object' && 'delayMs' in behaviour) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (response.destroyed) return;
    const answer = protocol.answer(
      recorded,
      behaviour === 'invalid-json' || behaviour === 'wrong-shape' || (typeof behaviour === 'object' && 'object' in behaviour) ? behaviour : undefined,
    );
    tokens += answer.tokens;
    send(response, 200, answer.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    script: (...behaviours) => queue.push(...behaviours),
    reset: () => {
      queue = [];
      requests.length = 0;
      tokens = 0;
    },
    tokensReported: () => tokens,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The text of a message's content: a string, or the text parts of a list. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part === 'object' && part && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
  return '';
}
