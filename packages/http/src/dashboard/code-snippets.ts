/**
 * The request a playground run made, as the user would send it: curl, and the official Firecrawl
 * SDKs (JavaScript and Python) pointed at this server. The key is never written out: snippets read
 * it from the QUARRY_API_KEY environment variable.
 */
export interface SnippetRequest {
  baseUrl: string;
  url: string;
  formats: string[];
  onlyMainContent: boolean;
}

function body(request: SnippetRequest): Record<string, unknown> {
  return { url: request.url, formats: request.formats, ...(request.onlyMainContent ? {} : { onlyMainContent: false }) };
}

/** Quotes for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlSnippet(request: SnippetRequest): string {
  return [
    `curl -X POST ${shellQuote(`${request.baseUrl}/v2/scrape`)} \\`,
    `  -H "Authorization: Bearer $QUARRY_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body(request)))}`,
  ].join('\n');
}

export function javascriptSnippet(request: SnippetRequest): string {
  const options = { formats: request.formats, ...(request.onlyMainContent ? {} : { onlyMainContent: false }) };
  return [
    `import Firecrawl from '@mendable/firecrawl-js';`,
    ``,
    `const firecrawl = new Firecrawl({ apiKey: process.env.QUARRY_API_KEY, apiUrl: ${JSON.stringify(request.baseUrl)} });`,
    `const document = await firecrawl.scrape(${JSON.stringify(request.url)}, ${JSON.stringify(options)});`,
    `console.log(document.markdown);`,
  ].join('\n');
}

export function pythonSnippet(request: SnippetRequest): string {
  const formats = `[${request.formats.map((format) => JSON.stringify(format)).join(', ')}]`;
  return [
    `import os`,
    `from firecrawl import Firecrawl`,
    ``,
    `firecrawl = Firecrawl(api_key=os.environ["QUARRY_API_KEY"], api_url=${JSON.stringify(request.baseUrl)})`,
    `document = firecrawl.scrape(${JSON.stringify(request.url)}, formats=${formats}${request.onlyMainContent ? '' : ', only_main_content=False'})`,
    `print(document.markdown)`,
  ].join('\n');
}
