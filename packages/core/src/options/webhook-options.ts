import { Type } from '@sinclair/typebox';

/** `webhook`: a URL, or an object with headers, metadata echoed back, and an events filter. */
export const webhookEvents = ['started', 'page', 'completed', 'failed'] as const;

export const webhookSchema = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: 4_096, description: 'URL that receives the events.' }),
    Type.Object(
      {
        url: Type.String({ minLength: 1, maxLength: 4_096, description: 'URL that receives the events.' }),
        // Optional rather than defaulted: ajv applies no defaults inside a union (the reader fills them).
        headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Headers sent with every event (default none).' })),
        metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Echoed in every event payload (default {}).' })),
        events: Type.Optional(
          Type.Array(Type.Union(webhookEvents.map((event) => Type.Literal(event))), {
            description: 'Which events to send (default all: started, page, completed, failed).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Webhook for job events.' },
);
