import { describe, expect, it } from 'vitest';
import { describeLlmProvider, startAnthropicDouble, startOpenAiDouble } from '@quarry/core/testing';
import { extractionPrompt } from '@quarry/core';
import { createAnthropicLlm, createOpenAiCompatibleLlm } from '../src/llm/index.js';

/** Both LLM adapters against the local doubles of their wire protocols. */
describeLlmProvider(
  'OpenAI-compatible (json_schema output)',
  () => startOpenAiDouble({ apiKey: 'sk-test' }),
  (double, settings) =>
    createOpenAiCompatibleLlm({
      baseUrl: double.url,
      apiKey: 'sk-test',
      model: 'double-1',
      providerName: 'openai',
      contextTokens: 128_000,
      structuredOutput: 'native',
      ...settings,
    }),
);

describeLlmProvider(
  'OpenAI-compatible (tool-call output)',
  () => startOpenAiDouble(),
  (double, settings) =>
    createOpenAiCompatibleLlm({ baseUrl: double.url, model: 'double-1', providerName: 'ollama', contextTokens: 8_192, structuredOutput: 'tool', ...settings }),
);

describeLlmProvider(
  'Anthropic',
  () => startAnthropicDouble({ apiKey: 'sk-ant-test' }),
  (double, settings) => createAnthropicLlm({ baseUrl: double.url, apiKey: 'sk-ant-test', model: 'claude-double', contextTokens: 200_000, ...settings }),
);

describe('LLM adapters on the wire', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } } };

  it('OpenAI-compatible sends response_format json_schema (not strict) with the schema', async () => {
    const double = await startOpenAiDouble();
    try {
      const llm = createOpenAiCompatibleLlm({
        baseUrl: double.url,
        model: 'm',
        providerName: 'openai',
        contextTokens: 8_000,
        structuredOutput: 'native',
        maxRetries: 0,
        timeoutMs: 5_000,
      });
      await llm.generateObject({ ...extractionPrompt({ schema, content: 'Name: A' }), schema, schemaName: 'page' });
      const body = double.requests[0]!.body;
      expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { schema, strict: false, name: 'page' } });
      expect((body.messages as Array<{ role: string }>).map((message) => message.role)).toEqual(['system', 'user']);
      expect(body.temperature).toBe(0);
    } finally {
      await double.close();
    }
  });

  it('Anthropic forces its one JSON tool, whose input schema is the caller schema', async () => {
    const double = await startAnthropicDouble({ apiKey: 'k' });
    try {
      const llm = createAnthropicLlm({ baseUrl: double.url, apiKey: 'k', model: 'claude-double', contextTokens: 200_000, maxRetries: 0, timeoutMs: 5_000 });
      const { object } = await llm.generateObject({ ...extractionPrompt({ schema, content: 'Name: A' }), schema });
      expect(object).toEqual({ name: 'A' });
      const body = double.requests[0]!.body as { tools: Array<{ name: string; input_schema: unknown }>; tool_choice: unknown; system: unknown };
      expect(body.tools).toHaveLength(1);
      expect(body.tools[0]!.input_schema).toMatchObject(schema);
      expect(body.tool_choice).toMatchObject({ type: 'any' });
      expect(JSON.stringify(body.system)).toContain('untrusted data');
    } finally {
      await double.close();
    }
  });

  it('a wrong API key is an operator problem (not_configured), not retried', async () => {
    const double = await startOpenAiDouble({ apiKey: 'right' });
    try {
      const llm = createOpenAiCompatibleLlm({
        baseUrl: double.url,
        apiKey: 'wrong',
        model: 'm',
        providerName: 'openai',
        contextTokens: 8_000,
        structuredOutput: 'native',
        maxRetries: 2,
        timeoutMs: 5_000,
      });
      const error = await llm.generateText({ system: 's', prompt: 'p' }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'not_configured' });
      expect(double.requests).toHaveLength(1);
    } finally {
      await double.close();
    }
  });
});
