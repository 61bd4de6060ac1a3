/**
 * Runs interact's `language: "node"` code (given a `page` object) outside Quarry's process:
 *
 *   node --experimental-permission (no fs, no child processes, no workers, no addons)
 *        --disallow-code-generation-from-strings --max-old-space-size=<heapMb>, empty environment
 *     -> the code is compiled into a fresh vm context (no process, require, fetch, timers or other
 *        globals; eval and new Function refused), given only `page` and `console`
 *     -> every `page.*` call is a JSON message over IPC that the parent performs on the kept page
 *        (whose requests all pass the SSRF guard); the child never holds a host object
 *   killed after `timeoutMs`; out of memory ends it too.
 */
import { spawn } from 'node:child_process';
import type { InteractOutcome } from '@quarry/core';

/** Performs one page operation for the sandbox; its value must be JSON. */
export type PageBridge = (operation: string, args: unknown[]) => Promise<unknown>;

export interface SandboxLimits {
  timeoutMs: number;
  /** V8 old-space limit of the child, in MB. */
  heapMb: number;
}

/** Characters of console output kept per stream. */
const outputCap = 100_000;

/** The child's program, run with `-e` (no file to read under the permission model). */
const runnerSource = String.raw`'use strict';
const vm = require('node:vm');
const pending = new Map();
let seq = 0;
function call(name, argsJson, reply) {
  const id = ++seq;
  pending.set(id, reply);
  process.send({ type: 'call', id, name: String(name), args: String(argsJson) });
}
function finish(json) {
  process.send({ type: 'done', json: String(json) }, () => process.exit(0));
}
const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
const prepare = vm.runInContext(${'`'}(function (call, finish) {
  'use strict';
  const logs = [], errors = [];
  const text = (args) => args.map((a) => { if (typeof a === 'string') return a; try { return JSON.stringify(a); } catch { return String(a); } }).join(' ');
  const console = Object.freeze({
    log: (...a) => { logs.push(text(a)); }, info: (...a) => { logs.push(text(a)); }, debug: (...a) => { logs.push(text(a)); },
    warn: (...a) => { errors.push(text(a)); }, error: (...a) => { errors.push(text(a)); },
  });
  const op = (name) => (...args) => new Promise((resolve, reject) => {
    call(name, JSON.stringify(args), (json) => { const r = JSON.parse(json); if (r.error !== undefined) reject(new Error(r.error)); else resolve(r.value); });
  });
  const evaluate = op('evaluate');
  const page = Object.freeze({
    goto: op('goto'), click: op('click'), fill: op('fill'), type: op('type'), press: op('press'),
    content: op('content'), title: op('title'), url: op('url'), screenshot: op('screenshot'),
    waitForSelector: op('waitForSelector'), waitForTimeout: op('waitForTimeout'),
    evaluate: (fn, arg) => evaluate(typeof fn === 'function' ? '(' + String(fn) + ')(' + (arg === undefined ? '' : JSON.stringify(arg)) + ')' : String(fn)),
  });
  return (run) => {
    const end = (extra) => finish(JSON.stringify({ logs, errors, ...extra }));
    Promise.resolve().then(() => run(page, console)).then(
      (value) => end({ value: value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value) }),
      (error) => end({ thrown: error && error.stack ? String(error.stack) : String(error) }),
    );
  };
})${'`'}, context);
process.on('message', (message) => {
  if (message.type === 'reply') {
    const reply = pending.get(message.id);
    pending.delete(message.id);
    if (reply) reply(String(message.json));
  } else if (message.type === 'run') {
    let run;
    try {
      run = vm.compileFunction('return (async () => {\n' + message.code + '\n})();', ['page', 'console'], { parsingContext: context });
    } catch (error) {
      finish(JSON.stringify({ logs: [], errors: [], thrown: String(error && error.message || error) }));
      return;
    }
    prepare(call, finish)(run);
  }
});
`;

export function runInNodeSandbox(code: string, bridge: PageBridge, limits: SandboxLimits): Promise<InteractOutcome> {
  const child = spawn(
    process.execPath,
    ['--experimental-permission', '--disallow-code-generation-from-strings', `--max-old-space-size=${limits.heapMb}`, '--no-warnings', '-e', runnerSource],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: {} },
  );
  let childErr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (childErr.length < outputCap) childErr += chunk.toString('utf8');
  });
  child.stdout!.resume();
  return new Promise<InteractOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: InteractOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const timer = setTimeout(
      () => settle({ stdout: '', stderr: `The code did not finish within ${limits.timeoutMs} ms; it was stopped.\n`, exitCode: 124, killed: true }),
      limits.timeoutMs,
    );
    child.on('message', (message: { type?: string; id?: number; name?: string; args?: string; json?: string }) => {
      if (message.type === 'call') {
        void answer(bridge, message.name ?? '', message.args ?? '[]').then((json) => {
          if (!settled && child.connected) child.send({ type: 'reply', id: message.id, json });
        });
      } else if (message.type === 'done') {
        settle(outcomeOf(message.json ?? '{}'));
      }
    });
    child.on('exit', (codeNumber, signal) => {
      const outOfMemory = /heap out of memory|Allocation failed/i.test(childErr);
      settle({
        stdout: '',
        stderr: outOfMemory
          ? `The code ran out of memory (${limits.heapMb} MB); it was stopped.\n`
          : `The sandbox ended (${signal ?? `exit ${codeNumber}`}) before the code finished.\n`,
        exitCode: outOfMemory ? 137 : 1,
        killed: true,
      });
    });
    child.on('error', (error) => settle({ stdout: '', stderr: `The sandbox did not start: ${error.message}\n`, exitCode: 1, killed: false }));
    child.send({ type: 'run', code });
  });
}

async function answer(bridge: PageBridge, operation: string, argsJson: string): Promise<string> {
  try {
    const args = JSON.parse(argsJson) as unknown;
    const value = await bridge(operation, Array.isArray(args) ? args : []);
    return JSON.stringify({ value: value ?? null });
  } catch (error) {
    return JSON.stringify({ error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
  }
}

function outcomeOf(json: string): InteractOutcome {
  const parsed = JSON.parse(json) as { logs?: string[]; errors?: string[]; value?: string; thrown?: string };
  const lines = (items: string[]) => (items.length > 0 ? `${items.join('\n')}\n`.slice(0, outputCap) : '');
  return {
    ...(parsed.value !== undefined ? { result: parsed.value } : {}),
    stdout: lines(parsed.logs ?? []),
    stderr: lines([...(parsed.errors ?? []), ...(parsed.thrown ? [parsed.thrown] : [])]),
    exitCode: parsed.thrown ? 1 : 0,
    killed: false,
  };
}
