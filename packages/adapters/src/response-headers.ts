/**
 * ResponseHeaders: the web `Headers` interface over a response head node has already parsed, without
 * node's `Headers` class. The first `new Headers()` of a process loads node's internal undici bundle
 * (fetch, ~1 MB of JavaScript): 40-65 ms of CPU on the main thread at a crawl's first response, which
 * nothing else of an HTTP crawl loads (benchmarks/crawl-real-site/README.md, eighth pass).
 *
 * It behaves as the standard class does for what a response's headers are used for: names are
 * case-insensitive; `get` joins repeated values with ", "; `getSetCookie` keeps each `set-cookie`
 * apart; iteration is by lower-cased name in sorted order, repeated values combined except
 * `set-cookie`, which is yielded once per cookie. Invalid names and values throw a `TypeError`.
 * It is not an `instanceof Headers`; `new Headers(responseHeaders)` copies it (it is iterable).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** RFC 9110 token characters: what a header name may contain. */
const tokenPattern = /^[!#$%&'*+\-.^`|~\w]+$/;
/** Characters a header value may not contain. */
const forbiddenValue = /[\0\r\n]/;

function checkedName(name: string): string {
  const text = String(name);
  if (!tokenPattern.test(text)) throw new TypeError(`Header name is not valid: "${text}"`);
  return text.toLowerCase();
}

function checkedValue(value: string): string {
  // Leading and trailing HTTP whitespace is removed, as the standard class does.
  const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (forbiddenValue.test(text)) throw new TypeError(`Header value is not valid: "${text}"`);
  return text;
}

export class ResponseHeaders implements Headers {
  /** Values by lower-cased name, in the order they came. */
  private readonly values_ = new Map<string, string[]>();

  /** Response headers as node parsed them (`message.headers`); HTTP/2 pseudo-headers (`:status`) are left out. */
  constructor(raw: IncomingHttpHeaders = {}) {
    for (const name in raw) {
      const value = raw[name];
      if (value === undefined || name.startsWith(':')) continue;
      if (typeof value === 'string') this.append(name, value);
      else for (const item of value) this.append(name, item);
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(value);
    const list = this.values_.get(key);
    if (list) list.push(text);
    else this.values_.set(key, [text]);
  }

  delete(name: string): void {
    this.values_.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.values_.get(checkedName(name))?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.values_.get('set-cookie') ?? [])];
  }

  has(name: string): boolean {
    return this.values_.has(checkedName(name));
  }

  set(name: string, value: string): void {
    this.values_.set(checkedName(name), [checkedValue(value)]);
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.pairs()) callback.call(thisArg, value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.pairs()[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    return this.pairs()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return this.pairs()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  /** The standard's "sort and combine": by name; `set-cookie` once per value, the others joined. */
  private pairs(): Array<[string, string]> {
    const pairs: Array<[string, string]> = [];
    for (const name of [...this.values_.keys()].sort()) {
      const list = this.values_.get(name) as string[];
      if (name === 'set-cookie') for (const value of list) pairs.push([name, value]);
      else pairs.push([name, list.join(', ')]);
    }
    return pairs;
  }
}
