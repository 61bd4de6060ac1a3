import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import type { LlmObjectRequest, LlmProvider } from '../ports/llm-provider.js';
import { extractJson } from './extract-json.js';
import { ModelOutputError } from './model-output-error.js';
import { estimateTokens } from './token-budget.js';

/** A provider whose answers are given in order; records every request. */
function scripted(answers: Array<unknown | ModelOutputError>, contextTokens = 100_000) {
  const requests: LlmObjectRequest[] = [];
  const provider: LlmProvider = {
    model: 'test/scripted',
    contextTokens,
    countTokens: estimateTokens,
    generateText: async () => ({ text: '', usage: { inputTokens: 0, outputTokens: 0 } }),
    generateObject: async (request) => {
      requests.push(request);
      const answer = answers.shift();
      if (answer instanceof ModelOutputError) throw answer;
      return { object: answer, usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
  return { provider, requests };
}

const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name'] };

describe('extractJson', () => {
  it('answers in one call when the answer is valid', async () => {
    const { provider, requests } = scripted([{ name: 'Kettle', price: 3 }]);
    const result = await extractJson(provider, { schema, content: 'Name: Kettle', url: 'https://a.test/' });
    expect(result).toEqual({ value: { name: 'Kettle', price: 3 }, usage: { inputTokens: 10, outputTokens: 5 }, warnings: [] });
    expect(requests[0]?.prompt).toBe('<page_content url="https://a.test/">\nName: Kettle\n</page_content>');
    expect(requests[0]?.schema).toBe(schema);
  });

  it('repairs an invalid answer once, telling the model what was wrong', async () => {
    const { provider, requests } = scripted([{ price: 'three' }, { name: 'Kettle', price: 3 }]);
    const result = await extractJson(provider, { schema, content: 'Name: Kettle' });
    expect(result.value).toEqual({ name: 'Kettle', price: 3 });
    expect(result.warnings).toEqual([]);
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(requests[1]?.prompt).toContain('<previous_answer>\n{"price":"three"}\n</previous_answer>');
    expect(requests[1]?.prompt).toContain('- (root): missing required property "name"\n- price: must be number');
  });

  it('keeps the still-invalid answer with a warning after the one repair', async () => {
    const { provider, requests } = scripted([{ price: 'three' }, { price: 'four' }]);
    const result = await extractJson(provider, { schema, content: 'x' });
    expect(requests).toHaveLength(2);
    expect(result.value).toEqual({ price: 'four' });
    expect(result.warnings).toEqual([
      'The model\'s answer still did not match the schema after one repair attempt: (root): missing required property "name"; price: must be number.',
    ]);
  });

  it('repairs an answer that is not JSON, and charges both calls', async () => {
    const notJson = new ModelOutputError('could not parse', 'Sure! {"name": "K"', { inputTokens: 7, outputTokens: 3 });
    const { provider, requests } = scripted([notJson, { name: 'K' }]);
    const result = await extractJson(provider, { schema, content: 'x' });
    expect(result).toMatchObject({ value: { name: 'K' }, usage: { inputTokens: 17, outputTokens: 8 }, warnings: [] });
    expect(requests[1]?.prompt).toContain('Sure! {"name": "K"');
  });

  it('asks for any object when there is only a prompt', async () => {
    const { provider, requests } = scripted([{ anything: 1 }]);
    const result = await extractJson(provider, { prompt: 'Find the name', content: 'x' });
    expect(result.value).toEqual({ anything: 1 });
    expect(requests[0]?.schema).toEqual({ type: 'object', additionalProperties: true });
    expect(requests[0]?.system).toContain('What to extract:\nFind the name');
  });

  it('reads a long page in parts and merges the answers', async () => {
    const page = Array.from({ length: 40 }, (_, index) => `Paragraph ${index}: ${'text '.repeat(40)}`).join('\n\n');
    const { provider, requests } = scripted([{ name: 'A', tags: ['x'] }, { price: 2, tags: ['y'] }, { tags: ['x'] }, {}], 3_000);
    const result = await extractJson(provider, {
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, tags: { type: 'array' } } },
      content: page,
    });
    expect(requests.length).toBeGreaterThan(1);
    for (const request of requests) expect(estimateTokens(request.system) + estimateTokens(request.prompt)).toBeLessThan(3_000);
    expect(requests[0]?.system).toContain(`part 1 of ${requests.length}`);
    expect(result.value).toEqual({ name: 'A', price: 2, tags: ['x', 'y'] });
  });

  it('says when a page is longer than the parts it reads', async () => {
    const page = Array.from({ length: 200 }, (_, index) => `Paragraph ${index}: ${'text '.repeat(40)}`).join('\n\n');
    const { provider, requests } = scripted(
      Array.from({ length: 10 }, () => ({ name: 'A' })),
      3_000,
    );
    const result = await extractJson(provider, { schema, content: page }, { maxParts: 2 });
    expect(requests).toHaveLength(2);
    expect(result.warnings[0]).toMatch(/^The page is longer than test\/scripted can read at once: only the first 2 of \d+ parts/);
  });

  it('refuses a prompt that leaves the model no room for the page', async () => {
    const { provider } = scripted([], 2_000);
    const error = await extractJson(provider, { schema, prompt: 'p'.repeat(6_000), content: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.field).toBe('prompt');
  });
});
