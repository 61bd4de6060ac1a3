import { describe, expect, it } from 'vitest';
import { keepValidOptions, mergeGeneratedOptions } from './crawl-prompt.js';

const usage = { inputTokens: 1, outputTokens: 1 };

describe('crawl prompt options', () => {
  it("keeps only the options of the right type from the model's answer", () => {
    const { options, dropped } = keepValidOptions({
      includePaths: ['^/blog/'],
      sitemap: 'sometimes',
      maxDiscoveryDepth: -1,
      limit: 5,
      allowSubdomains: 'yes',
      extra: 1,
      excludePaths: null,
    });
    expect(options).toEqual({ includePaths: ['^/blog/'], limit: 5 });
    expect(dropped).toEqual(['sitemap', 'maxDiscoveryDepth', 'allowSubdomains', 'extra']);
    expect(keepValidOptions('nonsense').options).toEqual({});
  });

  it('merges the generated options under the explicit ones, without prompt, dropping patterns that do not compile', () => {
    const merged = mergeGeneratedOptions(
      { url: 'https://a.example/', prompt: 'x', maxDiscoveryDepth: 5, includePaths: [] },
      { options: { includePaths: ['^/blog/'], excludePaths: ['(?<=x)y'], maxDiscoveryDepth: 2, sitemap: 'skip' }, usage, warnings: [] },
    );
    expect(merged.body).toEqual({ url: 'https://a.example/', maxDiscoveryDepth: 5, includePaths: [], sitemap: 'skip' });
    expect(merged.generated).toEqual({ includePaths: ['^/blog/'], maxDiscoveryDepth: 2, sitemap: 'skip' });
    expect(merged.warnings).toEqual(["The model's excludePaths did not compile and were left out."]);
  });
});
