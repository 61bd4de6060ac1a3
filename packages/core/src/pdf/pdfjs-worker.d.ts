// pdfjs-dist ships no declaration for its worker entry. Importing it registers
// `globalThis.pdfjsWorker`, which pdf.js then uses as an in-thread ("fake") worker.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
