import { strToU8, zipSync } from 'fflate';

/**
 * Small but complete office files for tests, written the way Word, Excel, PowerPoint and
 * LibreOffice Calc lay them out (content types, relationships, document properties), so the
 * converters read them as they would read real ones.
 */
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function zip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

function coreProps(title: string | undefined, author = 'Quarry Tests'): string {
  return xml(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${title ? `<dc:title>${esc(title)}</dc:title>` : ''}<dc:creator>${esc(author)}</dc:creator></cp:coreProperties>`,
  );
}

const packageRels = (main: string) =>
  xml(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${main}"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/></Relationships>`,
  );

export type DocxBlock = { heading: string } | { paragraph: string } | { bullets: string[] } | { table: string[][] } | { link: { text: string; url: string } };

export function docxFile(options: { title?: string; pages?: number; blocks: DocxBlock[] }): Uint8Array {
  const links: string[] = [];
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
  const body = options.blocks
    .map((block) => {
      if ('heading' in block) return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(block.heading)}</w:p>`;
      if ('paragraph' in block) return `<w:p>${run(block.paragraph)}</w:p>`;
      if ('bullets' in block)
        return block.bullets
          .map((item) => `<w:p><w:pPr><w:pStyle w:val="ListBullet"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${run(item)}</w:p>`)
          .join('');
      if ('link' in block) {
        links.push(block.link.url);
        return `<w:p><w:hyperlink r:id="rIdLink${links.length}">${run(block.link.text)}</w:hyperlink></w:p>`;
      }
      return `<w:tbl>${block.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
    })
    .join('');
  return zip({
    '[Content_Types].xml': xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`,
    ),
    '_rels/.rels': packageRels('word/document.xml'),
    'docProps/core.xml': coreProps(options.title),
    'docProps/app.xml': xml(
      `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Quarry Tests</Application><Pages>${options.pages ?? 1}</Pages></Properties>`,
    ),
    'word/_rels/document.xml.rels': xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdNumbering" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>${links.map((url, index) => `<Relationship Id="rIdLink${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(url)}" TargetMode="External"/>`).join('')}</Relationships>`,
    ),
    'word/numbering.xml': xml(
      `<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
    ),
    'word/document.xml': xml(
      `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

export interface SheetFixture {
  name: string;
  rows: Array<Array<string | number | boolean>>;
}

const columnName = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : columnName(Math.floor(index / 26) - 1) + String.fromCharCode(65 + (index % 26));

/** Strings go to the shared-string table (as Excel writes them), numbers and booleans inline. */
export function xlsxFile(options: { title?: string; sheets: SheetFixture[] }): Uint8Array {
  const shared: string[] = [];
  const cell = (value: string | number | boolean, ref: string) => {
    if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
    if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    shared.push(value);
    return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
  };
  const sheets = options.sheets.map((sheet) =>
    xml(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet.rows.map((row, r) => `<row r="${r + 1}">${row.map((value, c) => cell(value, `${columnName(c)}${r + 1}`)).join('')}</row>`).join('')}</sheetData></worksheet>`,
    ),
  );
  return zip({
    '[Content_Types].xml': xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, index) => `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    '_rels/.rels': packageRels('xl/workbook.xml'),
    'docProps/core.xml': coreProps(options.title),
    'docProps/app.xml': xml(
      `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Quarry Tests</Application></Properties>`,
    ),
    'xl/workbook.xml': xml(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${options.sheets.map((sheet, index) => `<sheet name="${esc(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${options.sheets.map((_, index) => `<Relationship Id="rId${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`).join('')}</Relationships>`,
    ),
    'xl/sharedStrings.xml': xml(
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">${shared.map((text) => `<si><t>${esc(text)}</t></si>`).join('')}</sst>`,
    ),
    ...Object.fromEntries(sheets.map((sheet, index) => [`xl/worksheets/sheet${index + 1}.xml`, sheet])),
  });
}

/** An ODS as LibreOffice writes it: `mimetype` first and stored, then content.xml (with the trailing empty rows it repeats to the sheet's end). */
export function odsFile(options: { sheets: SheetFixture[] }): Uint8Array {
  const tables = options.sheets
    .map(
      (sheet) =>
        `<table:table table:name="${esc(sheet.name)}">${sheet.rows
          .map(
            (row) =>
              `<table:table-row>${row.map((value) => (typeof value === 'number' ? `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>` : `<table:table-cell office:value-type="string"><text:p>${esc(String(value))}</text:p></table:table-cell>`)).join('')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
          )
          .join(
            '',
          )}<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>`,
    )
    .join('');
  const content = xml(
    `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`,
  );
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
    'content.xml': strToU8(content),
    'META-INF/manifest.xml': strToU8(
      xml(
        `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      ),
    ),
  });
}

export interface SlideFixture {
  title: string;
  paragraphs: string[];
}

export function pptxFile(options: { title?: string; slides: SlideFixture[] }): Uint8Array {
  const ns =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const shape = (id: number, placeholder: string, paragraphs: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr><p:ph type="${placeholder}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs.map((text) => `<a:p><a:r><a:t>${esc(text)}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;
  const slides = options.slides.map((slide) =>
    xml(`<p:sld ${ns}><p:cSld><p:spTree>${shape(2, 'title', [slide.title])}${shape(3, 'body', slide.paragraphs)}</p:spTree></p:cSld></p:sld>`),
  );
  // Slide files numbered in reverse, so only the presentation's list gives the order.
  const fileOf = (index: number) => `slide${options.slides.length - index}.xml`;
  return zip({
    '[Content_Types].xml': xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${slides.map((_, index) => `<Override PartName="/ppt/slides/${fileOf(index)}" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join('')}</Types>`,
    ),
    '_rels/.rels': packageRels('ppt/presentation.xml'),
    'docProps/core.xml': coreProps(options.title),
    'docProps/app.xml': xml(
      `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Quarry Tests</Application><Slides>${slides.length}</Slides></Properties>`,
    ),
    'ppt/presentation.xml': xml(
      `<p:presentation ${ns}><p:sldIdLst>${slides.map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    ),
    'ppt/_rels/presentation.xml.rels': xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, index) => `<Relationship Id="rId${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/${fileOf(index)}"/>`).join('')}</Relationships>`,
    ),
    ...Object.fromEntries(slides.map((slide, index) => [`ppt/slides/${fileOf(index)}`, slide])),
  });
}
