/** One link a map answers: the normalised URL, with the title and description when the page or sitemap gave them. */
export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}
