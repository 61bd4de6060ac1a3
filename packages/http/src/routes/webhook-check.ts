import { checkWebhookUrl } from '@quarry/core';
import type { Services } from '../server/services.js';

/** A job's webhook must be https (or http when the operator allows it); checked before the job starts. */
export function checkWebhook(services: Services, webhook: unknown): void {
  if (webhook === undefined) return;
  const allowHttp = services.config.QUARRY_WEBHOOK_ALLOW_HTTP;
  if (typeof webhook === 'string') checkWebhookUrl(webhook, { allowHttp, field: 'webhook' });
  else checkWebhookUrl((webhook as { url: string }).url, { allowHttp, field: 'webhook.url' });
}
