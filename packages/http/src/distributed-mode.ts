import { ValidationError, type ServerConfig } from '@quarry/core';

/** Whether the configuration asks for the distributed mode; half a configuration is an error. */
export function isDistributed(config: ServerConfig): boolean {
  if (!config.DATABASE_URL !== !config.REDIS_URL) {
    throw new ValidationError(
      `The distributed mode needs both DATABASE_URL (PostgreSQL) and REDIS_URL (Redis); only ${config.DATABASE_URL ? 'DATABASE_URL' : 'REDIS_URL'} is set`,
      config.DATABASE_URL ? 'REDIS_URL' : 'DATABASE_URL',
    );
  }
  return Boolean(config.DATABASE_URL);
}
