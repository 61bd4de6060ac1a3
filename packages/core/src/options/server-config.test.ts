import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseServerConfig, renderEnvTable } from './server-config.js';

describe('server config', () => {
  it('fills defaults and coerces numbers', () => {
    const config = parseServerConfig({ PORT: '4000' });
    expect(config.PORT).toBe(4000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.QUARRY_DATA_DIR).toBe('./.quarry');
  });

  it('names the variable that is wrong', () => {
    expect(() => parseServerConfig({ PORT: 'eighty' })).toThrow(ValidationError);
    expect(() => parseServerConfig({ PORT: 'eighty' })).toThrow(/PORT must be an integer/);
  });

  it('matches the table in the README', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const section = /<!-- env-table:start -->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(readme)?.[1];
    if (process.env.UPDATE_FIXTURES && section !== renderEnvTable()) {
      writeFileSync(
        new URL('../../../../README.md', import.meta.url),
        readme.replace(/<!-- env-table:start -->[\s\S]*?<!-- env-table:end -->/, `<!-- env-table:start -->\n${renderEnvTable()}\n<!-- env-table:end -->`),
      );
      return;
    }
    expect(section, 'README env table is stale: run UPDATE_FIXTURES=1 npx vitest run server-config').toBe(renderEnvTable());
  });
});
