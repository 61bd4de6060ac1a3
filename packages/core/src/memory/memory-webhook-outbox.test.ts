import { describeWebhookOutbox } from '../ports/testing/outbox-suite.js';
import { MemoryWebhookOutbox } from './memory-webhook-outbox.js';

describeWebhookOutbox('MemoryWebhookOutbox', (clock) => new MemoryWebhookOutbox(clock));
