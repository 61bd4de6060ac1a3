/** Writes a main-content fixture input: a small real-shaped body inside one generator's template. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { dress } from './dress.js';
import { moreTemplates } from './templates-more.js';
import { templates as firstTemplates } from './templates.js';

const templates = [...firstTemplates, ...moreTemplates];

const [templateName, markdownFile, folder] = process.argv.slice(2);
const template = templates.find((candidate) => candidate.name === templateName);
if (!template || !markdownFile || !folder) throw new Error('usage: make-fixture.mts <template> <file.md> <fixture folder>');
const { readFileSync } = await import('node:fs');
const html = micromark(readFileSync(markdownFile, 'utf8'), { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
mkdirSync(folder, { recursive: true });
writeFileSync(`${folder}/input.html`, dress(html, template, ['introduction', 'installation', 'configuration']).page + '\n');
