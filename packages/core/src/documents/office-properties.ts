import { descendants, parseXml, textOf } from './xml-tree.js';
import { utf8, zipEntries } from './zip-entries.js';

/**
 * The document properties an OOXML file keeps (docProps/core.xml and app.xml): title, author and,
 * where the writing application counted them, pages. Missing parts give no field.
 */
export interface OfficeProperties {
  title?: string;
  author?: string;
  pages?: number;
}

export function officeProperties(bytes: Uint8Array): OfficeProperties {
  const entries = zipEntries(bytes, (name) => name === 'docProps/core.xml' || name === 'docProps/app.xml');
  const core = parseXml(utf8(entries.get('docProps/core.xml')));
  const app = parseXml(utf8(entries.get('docProps/app.xml')));
  const text = (tree: ReturnType<typeof parseXml>, name: string) => {
    const element = descendants(tree, name)[0];
    return element ? textOf(element, [name]).trim() : '';
  };
  const title = text(core, 'dc:title');
  const author = text(core, 'dc:creator');
  const pages = Number(text(app, 'Pages'));
  return { ...(title ? { title } : {}), ...(author ? { author } : {}), ...(Number.isInteger(pages) && pages > 0 ? { pages } : {}) };
}
