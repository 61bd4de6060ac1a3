export * from './ai-sdk-llm.js';
export * from './llm-error.js';
export * from './openai-compatible-llm.js';
export * from './anthropic-llm.js';
