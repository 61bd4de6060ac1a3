import { describe, expect, it } from 'vitest';
import { brandingFromProbe, leadingFamily } from './brand-profile.js';
import type { BoxSample, BrandingProbe, StyleSample } from './branding-probe.js';
import { hexOf, parseCssColor } from './css-color.js';

const text = (overrides: Partial<StyleSample> = {}): StyleSample => ({
  color: 'rgb(17, 24, 39)',
  backgroundColor: 'rgba(0, 0, 0, 0)',
  fontFamily: 'Inter, Arial, sans-serif',
  fontSize: '16px',
  fontWeight: '400',
  lineHeight: '24px',
  ...overrides,
});
const box = (overrides: Partial<BoxSample>): BoxSample => ({
  ...text(),
  text: 'Go',
  borderColor: 'rgb(0, 0, 0)',
  borderRadius: ['4px', '4px', '4px', '4px'],
  boxShadow: 'none',
  area: 1_000,
  isFilled: true,
  ...overrides,
});

const probe: BrandingProbe = {
  body: text(),
  pageBackground: 'rgb(10, 10, 12)',
  headings: { h1: text({ fontFamily: '"Space Grotesk", sans-serif', fontSize: '40px', fontWeight: '800' }) },
  code: text({ fontFamily: 'ui-monospace, "Fira Code", monospace' }),
  links: [text({ color: 'rgb(56, 189, 248)' })],
  buttons: [
    box({ backgroundColor: 'rgb(124, 58, 237)', area: 5_000, borderRadius: ['9999px', '9999px', '9999px', '9999px'] }),
    box({ backgroundColor: 'rgb(236, 72, 153)', area: 2_000 }),
  ],
  inputs: [],
  backgrounds: [],
  fontUsage: [],
  colorVariables: { '--danger': 'rgb(220, 38, 38)' },
  frameworkHints: { tailwind: 12, bootstrap: 1 },
};

describe('brandingFromProbe', () => {
  it('derives scheme, colors, fonts, components and framework from the measurements', () => {
    const branding = brandingFromProbe(probe);
    expect(branding.colorScheme).toBe('dark');
    expect(branding.colors).toMatchObject({ primary: '#7C3AED', secondary: '#EC4899', background: '#0A0A0C', link: '#38BDF8', error: '#DC2626' });
    expect(branding.fonts).toEqual([
      { family: 'Space Grotesk', role: 'heading' },
      { family: 'Inter', role: 'body' },
      { family: 'Fira Code', role: 'monospace' },
    ]);
    expect(branding.typography?.fontWeights).toMatchObject({ h1: 800, body: 400 });
    expect(branding.components?.buttonPrimary).toMatchObject({ background: '#7C3AED', borderRadius: '9999px' });
    expect(branding.designSystem).toEqual({ framework: 'tailwind' });
  });

  it('trusts a declared color scheme over the background', () => {
    expect(brandingFromProbe({ ...probe, declaredColorScheme: 'light' }).colorScheme).toBe('light');
  });
});

describe('css colors and fonts', () => {
  it('parses computed colors', () => {
    expect(parseCssColor('rgba(1, 2, 3, 0.5)')).toEqual({ r: 1, g: 2, b: 3, a: 0.5 });
    expect(hexOf('color(srgb 1 0 0)')).toBe('#FF0000');
    expect(hexOf('#abc')).toBe('#AABBCC');
    expect(hexOf('rgba(0, 0, 0, 0)')).toBeUndefined();
  });

  it('picks the first named family of a stack', () => {
    expect(leadingFamily('-apple-system, "Segoe UI", Roboto')).toBe('Segoe UI');
  });
});
