import type { BoxSample, BrandingProbe, StyleSample } from './branding-probe.js';
import { hexOf, luminance, parseCssColor, saturation } from './css-color.js';

/**
 * The `branding` format from the browser's probe, with no LLM: the shape of the API reference
 * (firecrawl-behaviour.md §5, "branding output"). `personality` is left out: only an LLM can say it.
 *
 * How colors are chosen: the background is the page's painted background; text colors come from
 * body and paragraph text; `primary` is the background of the largest filled button (else the
 * theme-color meta, else the most saturated link or CSS variable); `secondary` the next distinct
 * button color; `accent` the most saturated remaining color. Status colors come from CSS variables
 * named success / warning / error (danger).
 */
export interface Branding {
  colorScheme?: 'light' | 'dark';
  colors?: Partial<
    Record<'primary' | 'secondary' | 'accent' | 'background' | 'textPrimary' | 'textSecondary' | 'link' | 'success' | 'warning' | 'error', string>
  >;
  fonts?: Array<{ family: string; role: 'heading' | 'body' | 'monospace' | 'display' | 'unknown' }>;
  typography?: {
    fontFamilies: Partial<Record<'primary' | 'heading' | 'code', string>>;
    fontStacks: Partial<Record<'primary' | 'heading' | 'body' | 'paragraph', string[]>>;
    fontSizes: Partial<Record<'h1' | 'h2' | 'h3' | 'body' | 'small', string>>;
    lineHeights: Partial<Record<'h1' | 'h2' | 'h3' | 'body', string>>;
    fontWeights: Partial<Record<'h1' | 'h2' | 'h3' | 'body', number>>;
  };
  spacing?: { borderRadius?: string };
  components?: { buttonPrimary?: ComponentStyle; buttonSecondary?: ComponentStyle; input?: ComponentStyle };
  images?: { logo?: string; logoHref?: string; logoAlt?: string; favicon?: string; ogImage?: string };
  designSystem?: { framework: 'tailwind' | 'bootstrap' | 'material' | 'chakra' | 'custom' | 'unknown'; componentLibrary?: string };
  confidence?: { buttons: number; colors: number; overall: number };
}

export interface ComponentStyle {
  background?: string;
  textColor?: string;
  borderColor?: string;
  focusBorderColor?: string;
  borderRadius?: string;
  borderRadiusCorners?: { topLeft: string; topRight: string; bottomRight: string; bottomLeft: string };
  shadow?: string;
}

const genericFamilies = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-sans-serif',
  'ui-serif',
  'ui-monospace',
  '-apple-system',
  'blinkmacsystemfont',
  'emoji',
  'math',
]);

export function fontStack(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((family) => family.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

/** The first family of a stack that names a font rather than a generic keyword. */
export function leadingFamily(value: string | undefined): string | undefined {
  const stack = fontStack(value);
  return stack.find((family) => !genericFamilies.has(family.toLowerCase())) ?? stack[0];
}

function px(value: string | undefined): string | undefined {
  return value && value !== 'normal' && value !== 'auto' ? value : undefined;
}

function component(sample: BoxSample | undefined): ComponentStyle | undefined {
  if (!sample) return undefined;
  const [topLeft, topRight, bottomRight, bottomLeft] = sample.borderRadius;
  const background = hexOf(sample.backgroundColor);
  const textColor = hexOf(sample.color);
  const borderColor = hexOf(sample.borderColor);
  return {
    ...(background ? { background } : {}),
    ...(textColor ? { textColor } : {}),
    ...(borderColor ? { borderColor } : {}),
    borderRadius: topLeft,
    borderRadiusCorners: { topLeft, topRight, bottomRight, bottomLeft },
    ...(sample.boxShadow && sample.boxShadow !== 'none' ? { shadow: sample.boxShadow } : {}),
  };
}

function vividness(hex: string): number {
  const color = parseCssColor(hex);
  return color ? saturation(color) : 0;
}

function colorsOf(probe: BrandingProbe, background: string): { colors: NonNullable<Branding['colors']>; confidence: number } {
  const filled = probe.buttons.filter((button) => button.isFilled && hexOf(button.backgroundColor) && hexOf(button.backgroundColor) !== background);
  const buttonColors = [...new Map(filled.sort((a, b) => b.area - a.area).map((button) => [hexOf(button.backgroundColor)!, button])).keys()];
  const variables = Object.entries(probe.colorVariables);
  const variable = (pattern: RegExp) => hexOf(variables.find(([name]) => pattern.test(name))?.[1]);
  const link = hexOf(probe.links[0]?.color);
  const theme = hexOf(probe.themeColor);
  const primary = buttonColors[0] ?? variable(/primary|brand/) ?? theme ?? (link && vividness(link) > 0.3 ? link : undefined);
  const textPrimary = hexOf(probe.body.color);
  const paragraph = hexOf(probe.paragraph?.color);
  const small = hexOf(probe.small?.color);
  const textSecondary = [paragraph, small].find((color) => color && color !== textPrimary);
  const candidates = [
    ...buttonColors.slice(1),
    variable(/secondary/),
    ...variables.map(([, value]) => hexOf(value)),
    link,
    ...probe.backgrounds.map((entry) => hexOf(entry.color)),
  ].filter((color): color is string => Boolean(color) && color !== primary && color !== background && color !== textPrimary);
  const secondary = buttonColors[1] ?? variable(/secondary/);
  const accent =
    variable(/accent/) ?? candidates.filter((color) => color !== secondary && vividness(color) > 0.35).sort((a, b) => vividness(b) - vividness(a))[0];
  const colors: NonNullable<Branding['colors']> = {
    ...(primary ? { primary } : {}),
    ...(secondary ? { secondary } : {}),
    ...(accent ? { accent } : {}),
    background,
    ...(textPrimary ? { textPrimary } : {}),
    ...(textSecondary ? { textSecondary } : {}),
    ...(link ? { link } : {}),
  };
  for (const [key, pattern] of [
    ['success', /success/],
    ['warning', /warning/],
    ['error', /error|danger/],
  ] as const) {
    const value = variable(pattern);
    if (value) colors[key] = value;
  }
  const confidence = buttonColors[0] ? 0.8 : primary === theme || primary === variable(/primary|brand/) ? 0.6 : primary ? 0.4 : 0.2;
  return { colors, confidence };
}

function fontsOf(probe: BrandingProbe): NonNullable<Branding['fonts']> {
  const roles: Array<[StyleSample | undefined, 'heading' | 'body' | 'monospace']> = [
    [probe.headings.h1 ?? probe.headings.h2, 'heading'],
    [probe.body, 'body'],
    [probe.code, 'monospace'],
  ];
  const fonts = new Map<string, NonNullable<Branding['fonts']>[number]['role']>();
  for (const [sample, role] of roles) {
    const family = leadingFamily(sample?.fontFamily);
    if (family && !fonts.has(family)) fonts.set(family, role);
  }
  for (const usage of [...probe.fontUsage].sort((a, b) => b.characters - a.characters).slice(0, 6)) {
    const family = leadingFamily(usage.stack);
    if (family && !fonts.has(family)) fonts.set(family, usage.tags.some((tag) => /^h[1-3]$/.test(tag)) ? 'display' : 'unknown');
  }
  return [...fonts].map(([family, role]) => ({ family, role }));
}

function typographyOf(probe: BrandingProbe): NonNullable<Branding['typography']> {
  const heading = probe.headings.h1 ?? probe.headings.h2;
  const levels = { h1: probe.headings.h1, h2: probe.headings.h2, h3: probe.headings.h3, body: probe.body };
  const pick = <T>(read: (sample: StyleSample) => T | undefined) =>
    Object.fromEntries(Object.entries(levels).flatMap(([level, sample]) => (sample && read(sample) !== undefined ? [[level, read(sample)]] : [])));
  const families = { primary: leadingFamily(probe.body.fontFamily), heading: leadingFamily(heading?.fontFamily), code: leadingFamily(probe.code?.fontFamily) };
  const stacks = { primary: probe.body.fontFamily, heading: heading?.fontFamily, body: probe.body.fontFamily, paragraph: probe.paragraph?.fontFamily };
  return {
    fontFamilies: Object.fromEntries(Object.entries(families).filter(([, value]) => value)),
    fontStacks: Object.fromEntries(Object.entries(stacks).flatMap(([key, value]) => (value ? [[key, fontStack(value)]] : []))),
    fontSizes: { ...pick((sample) => px(sample.fontSize)), ...(probe.small ? { small: probe.small.fontSize } : {}) },
    lineHeights: pick((sample) => px(sample.lineHeight)),
    fontWeights: pick((sample) => (Number.isFinite(Number(sample.fontWeight)) ? Number(sample.fontWeight) : undefined)),
  };
}

function frameworkOf(probe: BrandingProbe): NonNullable<Branding['designSystem']>['framework'] {
  const [best] = Object.entries(probe.frameworkHints)
    .filter(([, score]) => (score ?? 0) >= 3)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  return (best?.[0] as NonNullable<Branding['designSystem']>['framework'] | undefined) ?? 'custom';
}

export function brandingFromProbe(probe: BrandingProbe): Branding {
  const background = hexOf(probe.pageBackground) ?? '#FFFFFF';
  const declared = probe.declaredColorScheme?.trim().split(/\s+/);
  const isDark =
    declared?.length === 1 && (declared[0] === 'dark' || declared[0] === 'light') ? declared[0] === 'dark' : luminance(parseCssColor(background)!) < 0.4;
  const { colors, confidence: colorConfidence } = colorsOf(probe, background);
  const primaryButton = [...probe.buttons].filter((button) => button.isFilled).sort((a, b) => b.area - a.area)[0] ?? probe.buttons[0];
  const secondaryButton = probe.buttons.find((button) => button !== primaryButton && hexOf(button.backgroundColor) !== hexOf(primaryButton?.backgroundColor));
  const input = component(probe.inputs[0]);
  const buttonConfidence = probe.buttons.length > 0 ? 0.8 : 0;
  const images = {
    ...(probe.logo
      ? { logo: probe.logo.src, ...(probe.logo.href ? { logoHref: probe.logo.href } : {}), ...(probe.logo.alt ? { logoAlt: probe.logo.alt } : {}) }
      : {}),
    ...(probe.favicon ? { favicon: probe.favicon } : {}),
    ...(probe.ogImage ? { ogImage: probe.ogImage } : {}),
  };
  const buttonPrimary = component(primaryButton);
  const buttonSecondary = component(secondaryButton);
  return {
    colorScheme: isDark ? 'dark' : 'light',
    colors,
    fonts: fontsOf(probe),
    typography: typographyOf(probe),
    ...(primaryButton ? { spacing: { borderRadius: primaryButton.borderRadius[0] } } : {}),
    components: {
      ...(buttonPrimary ? { buttonPrimary } : {}),
      ...(buttonSecondary ? { buttonSecondary } : {}),
      ...(input ? { input } : {}),
    },
    images,
    designSystem: { framework: frameworkOf(probe) },
    confidence: { buttons: buttonConfidence, colors: colorConfidence, overall: Math.round(((buttonConfidence + colorConfidence) / 2) * 100) / 100 },
  };
}
