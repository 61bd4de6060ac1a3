import { Type } from '@sinclair/typebox';

/** `webhook`: a URL, or an object with headers, metadata echoed back, and an events filter. */
export const webhookEvents = ['started', 'page', 'completed', 'failed'] as const;

export const webhookSchema = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: 4_096, description: 'URL that receives the events.' }),
    Type.Object(
      {
        url: Type.String({ minLength: 1, maxLength: 4_096, description: 'URL that receives the events.' }),
        headers: Type.Record(Type.String(), Type.String(), { default: {}, description: 'Headers sent with every event.' }),
        metadata: Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Echoed in every event payload.' }),
        events: Type.Array(Type.Union(webhookEvents.map((event) => Type.Literal(event))), {
          default: [...webhookEvents],
          description: 'Which events to send.',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Webhook for job events.' },
);
