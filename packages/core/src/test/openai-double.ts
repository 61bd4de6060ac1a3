import { answerForSchema, doubleTokens, readPageFacts, summaryOf, wrongShapeFor } from './llm-double-answers.js';
import { startLlmDouble, textOf, type LlmDouble } from './llm-double-server.js';

/**
 * A local OpenAI chat-completions server for tests (`POST /v1/chat/completions`). It honours
 * `response_format: {type: 'json_schema'}` and `json_object`, and forced tool calls (`tools` +
 * `tool_choice`), answers from the facts in the prompt's page content (llm-double-answers.ts),
 * and reports `usage`. Point OPENAI_BASE_URL at `double.url`, or OLLAMA_BASE_URL at `double.origin`.
 *
 *   const openai = await startOpenAiDouble();
 *   openai.script({ status: 429, retryAfterMs: 5 }, 'invalid-json');  // the next two requests
 */
export async function startOpenAiDouble(options: { apiKey?: string } = {}): Promise<LlmDouble> {
  let counter = 0;
  return startLlmDouble(
    {
      path: '/v1/chat/completions',
      isAuthorized: (request, apiKey) => apiKey === undefined || request.headers.authorization === `Bearer ${apiKey}`,
      errorBody: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'api_error', code: null } }),
      answer: (request, behaviour) => {
        const body = request.body;
        const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role: string; content: unknown }>) : [];
        const promptText = messages.map((message) => textOf(message.content)).join('\n');
        const user = messages
          .filter((message) => message.role === 'user')
          .map((message) => textOf(message.content))
          .join('\n');
        const facts = readPageFacts(user);
        const tool = forcedTool(body);
        const format = body.response_format as { type?: string; json_schema?: { schema?: Record<string, unknown> } } | undefined;
        const schema = tool?.parameters ?? format?.json_schema?.schema;
        const isStructured = tool !== undefined || format?.type === 'json_schema' || format?.type === 'json_object';
        let content: string | null = null;
        let toolCalls: unknown[] | undefined;
        if (isStructured) {
          const object =
            typeof behaviour === 'object' ? behaviour.object : behaviour === 'wrong-shape' ? wrongShapeFor(schema) : answerForSchema(schema, facts);
          const json = behaviour === 'invalid-json' ? `Here is the data you asked for: {${JSON.stringify(object).slice(1, -1)}` : JSON.stringify(object);
          if (tool) toolCalls = [{ id: `call_${++counter}`, type: 'function', function: { name: tool.name, arguments: json } }];
          else content = json;
        } else {
          content = summaryOf(facts);
        }
        const promptTokens = doubleTokens(promptText + JSON.stringify(schema ?? ''));
        const completionTokens = doubleTokens(content ?? JSON.stringify(toolCalls));
        return {
          tokens: promptTokens + completionTokens,
          body: {
            id: `chatcmpl-${++counter}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: String(body.model ?? 'double'),
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
                finish_reason: toolCalls ? 'tool_calls' : 'stop',
              },
            ],
            usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
          },
        };
      },
    },
    options,
  );
}

/** The tool the request forces (or its only tool when any call is required). */
function forcedTool(body: Record<string, unknown>): { name: string; parameters?: Record<string, unknown> } | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name: string; parameters?: Record<string, unknown> } }>) : [];
  if (tools.length === 0) return undefined;
  const choice = body.tool_choice as { function?: { name?: string } } | string | undefined;
  const name = typeof choice === 'object' ? choice.function?.name : choice === 'required' || tools.length === 1 ? tools[0]?.function?.name : undefined;
  const tool = tools.find((entry) => entry.function?.name === name)?.function;
  return tool ? { name: tool.name, ...(tool.parameters ? { parameters: tool.parameters } : {}) } : undefined;
}
