/** A self-contained docs page (no CDN: works offline) that lists every operation of both versions. */
export function docsPageHtml(documents: Record<string, ReturnType<typeof import('./openapi-document.js').openApiDocument>>): string {
  const sections = Object.entries(documents)
    .map(([version, document]) => {
      const rows = Object.entries(document.paths)
        .flatMap(([path, operations]) =>
          Object.entries(
            operations as unknown as Record<
              string,
              {
                summary: string;
                requestBody?: { content: Record<string, { schema: { properties?: Record<string, { description?: string; default?: unknown }> } }> };
              }
            >,
          ).map(([method, operation]) => {
            // A JSON body, or a multipart one (parse's file upload).
            const content = operation.requestBody ? Object.values(operation.requestBody.content)[0] : undefined;
            const fields = Object.entries(content?.schema.properties ?? {})
              .map(
                ([name, field]) =>
                  `<li><code>${escape(name)}</code>${field.default !== undefined ? ` (default <code>${escape(JSON.stringify(field.default))}</code>)` : ''}${field.description ? ` — ${escape(field.description)}` : ''}</li>`,
              )
              .join('');
            return `<details><summary><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code> ${escape(operation.summary)}</summary>${fields ? `<ul>${fields}</ul>` : '<p>No body.</p>'}</details>`;
          }),
        )
        .join('\n');
      return `<section><h2>${version} <a href="/${version}/openapi.json">openapi.json</a></h2>${rows}</section>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Quarry API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .2em;border-radius:3px}
details{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.4rem .8rem}summary{cursor:pointer}.method{display:inline-block;min-width:4.5em;font-weight:700}
.get{color:#0a6b2d}.post{color:#0b4fa8}.delete{color:#a3161b}</style></head><body><h1>Quarry API</h1>
<p>Firecrawl-compatible: point the official SDKs at this server's URL. Send <code>Authorization: Bearer fc-…</code> when the server has API keys.</p>
${sections}</body></html>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);
}
