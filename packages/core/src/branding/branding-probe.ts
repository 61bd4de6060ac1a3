/**
 * The raw measurements a browser takes of a rendered page for the `branding` format. The probe
 * (adapters/src/browser/branding-probe.ts) runs in the page and fills this shape from computed
 * styles; `brandingFromProbe` (brand-profile.ts) turns it into the API's branding object. Colors
 * are CSS color strings as `getComputedStyle` returns them (`rgb(...)`/`rgba(...)`).
 */
export interface StyleSample {
  color: string;
  backgroundColor: string;
  fontFamily: string;
  /** Computed size, e.g. `16px`. */
  fontSize: string;
  fontWeight: string;
  lineHeight: string;
}

export interface BoxSample extends StyleSample {
  text: string;
  borderColor: string;
  /** top-left, top-right, bottom-right, bottom-left, computed (`6px`). */
  borderRadius: [string, string, string, string];
  boxShadow: string;
  /** Rendered area in CSS pixels squared: larger elements weigh more. */
  area: number;
  /** Whether the element's background differs from the page's (a filled button). */
  isFilled: boolean;
}

export interface BrandingProbe {
  /** `color-scheme` meta or CSS, when the page declares one. */
  declaredColorScheme?: string;
  themeColor?: string;
  body: StyleSample;
  /** The page background: html or body background, whichever is painted. */
  pageBackground: string;
  headings: Partial<Record<'h1' | 'h2' | 'h3', StyleSample>>;
  paragraph?: StyleSample;
  small?: StyleSample;
  code?: StyleSample;
  links: StyleSample[];
  buttons: BoxSample[];
  inputs: BoxSample[];
  /** Background colors of visible elements with the area they cover. */
  backgrounds: Array<{ color: string; area: number }>;
  /** Font families as declared (whole stack) with how many characters of text use them. */
  fontUsage: Array<{ stack: string; characters: number; tags: string[] }>;
  /** Custom properties on :root whose value is a color, name -> value (at most a few dozen). */
  colorVariables: Record<string, string>;
  logo?: { src: string; alt?: string; href?: string };
  favicon?: string;
  ogImage?: string;
  /** Class-name and stylesheet hints of CSS frameworks. */
  frameworkHints: Partial<Record<'tailwind' | 'bootstrap' | 'material' | 'chakra', number>>;
}
