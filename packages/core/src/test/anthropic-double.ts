import { answerForSchema, doubleTokens, readPageFacts, summaryOf, wrongShapeFor } from './llm-double-answers.js';
import { startLlmDouble, textOf, type LlmDouble } from './llm-double-server.js';

/**
 * A local Anthropic messages server for tests (`POST /v1/messages`). Structured output comes as a
 * `tool_use` block when the request forces a tool (`tool_choice: {type: 'tool'}`), or as JSON text
 * when it asks for `output_config.format: json_schema`; text requests get a summary. Answers come
 * from the facts in the prompt's page content (llm-double-answers.ts), with `usage`. Point
 * ANTHROPIC_BASE_URL at `double.url`.
 */
export async function startAnthropicDouble(options: { apiKey?: string } = {}): Promise<LlmDouble> {
  let counter = 0;
  return startLlmDouble(
    {
      path: '/v1/messages',
      isAuthorized: (request, apiKey) => apiKey === undefined || request.headers['x-api-key'] === apiKey,
      errorBody: (status, message) => ({
        type: 'error',
        error: {
          type: status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
          message,
        },
      }),
      answer: (request, behaviour) => {
        const body = request.body;
        const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role: string; content: unknown }>) : [];
        const user = messages
          .filter((message) => message.role === 'user')
          .map((message) => textOf(message.content))
          .join('\n');
        const facts = readPageFacts(user);
        const tool = forcedTool(body);
        const format = (body.output_config as { format?: { type?: string; schema?: Record<string, unknown> } } | undefined)?.format;
        const schema = tool?.input_schema ?? format?.schema;
        const isStructured = tool !== undefined || format?.type === 'json_schema';
        const object = typeof behaviour === 'object' ? behaviour.object : behaviour === 'wrong-shape' ? wrongShapeFor(schema) : answerForSchema(schema, facts);
        let content: unknown[];
        if (tool && behaviour !== 'invalid-json') content = [{ type: 'tool_use', id: `toolu_${++counter}`, name: tool.name, input: object }];
        else if (isStructured)
          content = [{ type: 'text', text: behaviour === 'invalid-json' ? `Sure! {${JSON.stringify(object).slice(1, -1)}` : JSON.stringify(object) }];
        else content = [{ type: 'text', text: summaryOf(facts) }];
        const inputTokens = doubleTokens(textOf(body.system) + user + JSON.stringify(schema ?? ''));
        const outputTokens = doubleTokens(JSON.stringify(content));
        return {
          tokens: inputTokens + outputTokens,
          body: {
            id: `msg_${++counter}`,
            type: 'message',
            role: 'assistant',
            model: String(body.model ?? 'double'),
            content,
            stop_reason: tool && behaviour !== 'invalid-json' ? 'tool_use' : 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: inputTokens, output_tokens: outputTokens },
          },
        };
      },
    },
    options,
  );
}

function forcedTool(body: Record<string, unknown>): { name: string; input_schema?: Record<string, unknown> } | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name: string; input_schema?: Record<string, unknown> }>) : [];
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  if (tools.length === 0 || !choice) return undefined;
  const name = choice.type === 'tool' ? choice.name : choice.type === 'any' ? tools[0]?.name : undefined;
  return tools.find((tool) => tool.name === name);
}
