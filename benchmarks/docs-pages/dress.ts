/** Dresses a bare GFM rendering in a generator's template: its headings, code blocks and page. */
import type { Heading, Template } from './templates.js';

const headingPattern = /<h([1-6])>([\s\S]*?)<\/h\1>/g;
const codePattern = /<pre><code(?: class="language-([^"]+)")?>([\s\S]*?)<\/code><\/pre>/g;

function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function slugger(): (text: string) => string {
  const used = new Map<string, number>();
  return (text) => {
    const base =
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '') || 'section';
    const count = used.get(base) ?? 0;
    used.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

export function headingsOf(html: string): Heading[] {
  const slug = slugger();
  return [...html.matchAll(headingPattern)].map((match) => {
    const text = textOf(match[2]!);
    return { level: Number(match[1]), inner: match[2]!, id: slug(text), text };
  });
}

/** The template's whole page around `html` (a bare rendering), and the page's title. */
export function dress(html: string, template: Template, siblings: string[]): { page: string; title: string } {
  const headings = headingsOf(html);
  let index = 0;
  const body = html
    .replace(headingPattern, () => template.heading(headings[index++]!))
    .replace(codePattern, (_match, language: string | undefined, code: string) => template.code(code, language ?? ''));
  const title = headings.find((heading) => heading.level === 1)?.text ?? headings[0]?.text ?? 'Documentation';
  return { page: template.page({ title, body, toc: headings, siblings }), title };
}
