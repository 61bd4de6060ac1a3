import { describe, expect, it } from 'vitest';
import { formatLlmsFullTxt, formatLlmsTxt, humanize, pageTitle, siteName } from './llms-txt-format.js';

const site = {
  title: 'Docs Site',
  summary: 'The documentation of\nDocs Site.',
  pages: [
    { url: 'https://site.test/', title: 'Home', description: 'The home page.', markdown: '# Home\n\nWelcome.' },
    { url: 'https://site.test/docs/install', title: 'Install', description: 'How to install it.', markdown: '# Install\n\nRun it.' },
    { url: 'https://site.test/about', title: 'About [us]', description: '' },
    { url: 'https://site.test/blog/', title: 'Blog', description: 'News.' },
    { url: 'https://site.test/docs/', title: 'Docs', description: 'All docs.' },
  ],
};

describe('formatLlmsTxt', () => {
  it('writes the llmstxt.org layout: title, summary, sections of described links (top pages first)', () => {
    expect(formatLlmsTxt(site)).toBe(
      [
        '# Docs Site',
        '',
        '> The documentation of Docs Site.',
        '',
        '## Pages',
        '',
        '- [Home](https://site.test/): The home page.',
        '- [About \\[us\\]](https://site.test/about)',
        '',
        '## Docs',
        '',
        '- [Install](https://site.test/docs/install): How to install it.',
        '- [Docs](https://site.test/docs/): All docs.',
        '',
        '## Blog',
        '',
        '- [Blog](https://site.test/blog/): News.',
        '',
      ].join('\n'),
    );
  });

  it('writes llms-full.txt with every page in full under its title', () => {
    const full = formatLlmsFullTxt({ ...site, pages: site.pages.slice(0, 2) });
    expect(full).toBe(
      [
        '# Docs Site',
        '',
        '> The documentation of Docs Site.',
        '',
        '## Home',
        '',
        'Source: https://site.test/',
        '',
        '# Home\n\nWelcome.',
        '',
        '## Install',
        '',
        'Source: https://site.test/docs/install',
        '',
        '# Install\n\nRun it.',
        '',
      ].join('\n'),
    );
  });
});

describe('names', () => {
  it('finds the site name that most titles share, else the home title, else the host', () => {
    expect(siteName(['Home | Docs Site', 'Install | Docs Site', 'About - Docs Site'], 'site.test')).toBe('Docs Site');
    expect(siteName(['Welcome', 'Other'], 'site.test', 'Welcome')).toBe('Welcome');
    expect(siteName([], 'site.test')).toBe('site.test');
  });

  it("takes the site's name out of a page title", () => {
    expect(pageTitle('Install | Docs Site', 'Docs Site')).toBe('Install');
    expect(pageTitle('Docs Site', 'Docs Site')).toBe('Docs Site');
    expect(pageTitle('A - B | Docs Site', 'Docs Site')).toBe('A - B');
  });

  it('humanizes path segments as section names', () => {
    expect(humanize('api-reference')).toBe('Api reference');
    expect(humanize('getting_started')).toBe('Getting started');
  });
});
