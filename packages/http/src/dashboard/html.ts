/**
 * HTML built with a tagged template that escapes every interpolated value, so a page, a URL or a
 * key name taken from the outside cannot inject markup. Only `Html` values (other templates, or
 * markup produced by a trusted renderer and wrapped with `trustedHtml`) pass through as they are.
 */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character]!);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

/** Markup from a renderer that escapes on its own (the markdown renderer, the SVG chart). */
export function trustedHtml(text: string): Html {
  return new Html(text);
}
