import { describe, expect, it } from 'vitest';
import { formatLogLine, isReadableLog, readableLogStream } from './log-lines.js';

describe('readable log lines', () => {
  const at = Date.UTC(2026, 10, 24, 12, 4, 5);

  it('prints time, level and message; errors keep their message', () => {
    expect(formatLogLine(JSON.stringify({ level: 30, time: at, msg: 'Quarry listening on http://127.0.0.1:3002' }), false)).toBe(
      '12:04:05 INFO  Quarry listening on http://127.0.0.1:3002',
    );
    expect(formatLogLine(JSON.stringify({ level: 50, time: at, msg: 'request failed', err: { message: 'boom' } }), false)).toBe(
      '12:04:05 ERROR request failed: boom',
    );
    expect(formatLogLine('not json', false)).toBe('not json');
  });

  it('makes URLs and the admin token easy to spot on a terminal', () => {
    const line = formatLogLine(
      JSON.stringify({ level: 30, time: at, msg: 'Dashboard admin token (shown only this once): qa_123 — open http://127.0.0.1:3002/dashboard' }),
    );
    expect(line).toContain('\u001b[1mqa_123\u001b[22m');
    expect(line).toContain('\u001b[1mhttp://127.0.0.1:3002/dashboard\u001b[22m');
    expect(formatLogLine(JSON.stringify({ level: 40, time: at, msg: 'careful' }))).toContain('\u001b[33mWARN');
  });

  it('is readable on a terminal unless told json, and json elsewhere unless told pretty', () => {
    expect(isReadableLog('auto', true)).toBe(true);
    expect(isReadableLog('auto', false)).toBe(false);
    expect(isReadableLog('json', true)).toBe(false);
    expect(isReadableLog('pretty', false)).toBe(true);
  });

  it('turns a stream of JSON lines (split anywhere) into readable lines', async () => {
    let written = '';
    const stream = readableLogStream({ write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream);
    const lines = `${JSON.stringify({ level: 30, time: at, msg: 'one' })}\n${JSON.stringify({ level: 30, time: at, msg: 'two' })}\n`;
    await new Promise<void>((resolve) => stream.write(lines.slice(0, 20), () => resolve()));
    await new Promise<void>((resolve) => stream.write(lines.slice(20), () => resolve()));
    expect(written).toBe('12:04:05 INFO  one\n12:04:05 INFO  two\n');
  });
});
