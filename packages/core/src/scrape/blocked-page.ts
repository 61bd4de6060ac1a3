import { TargetError } from '../errors.js';
import type { PageSignals } from './page-signals.js';

/**
 * Bot-protection interstitials: a page that answers with a challenge, a captcha or an access
 * denied template instead of the content. Such a page is not a result: the scrape fails with a
 * `blocked` TargetError that says it may pass later (retryable) and is not charged.
 *
 * Each template is a row; a page matches when its visible text is short (challenge pages are
 * small, an article about Cloudflare is not) and one row recognises it.
 */
export interface BlockedPageInput {
  status: number;
  signals: PageSignals;
  /** The HTML, for markers that are not visible text (script URLs, element ids). */
  html: string;
}

interface BlockTemplate {
  name: string;
  vendor: string;
  matches: (page: { status: number; title: string; text: string; html: string }) => boolean;
}

/** Pages with more visible text than this are never taken for an interstitial. */
export const blockedPageMaxText = 5_000;

const blockTemplates: BlockTemplate[] = [
  {
    name: 'cloudflare-challenge',
    vendor: 'Cloudflare',
    matches: (page) =>
      /^just a moment\.*$/i.test(page.title) ||
      page.html.includes('cf-browser-verification') ||
      page.html.includes('cf_chl_opt') ||
      (page.html.includes('/cdn-cgi/challenge-platform/') &&
        /verif(y|ying) you are human|checking your browser|enable javascript and cookies/i.test(page.text)),
  },
  {
    name: 'cloudflare-block',
    vendor: 'Cloudflare',
    matches: (page) =>
      /attention required! \| cloudflare/i.test(page.title) || (page.html.includes('cf-error-details') && /you have been blocked/i.test(page.text)),
  },
  {
    name: 'imperva-interruption',
    vendor: 'Imperva (Distil)',
    matches: (page) => /^pardon our interruption/i.test(page.title) || (/^pardon our interruption/i.test(page.text) && page.text.length < 2_000),
  },
  {
    name: 'imperva-incapsula',
    vendor: 'Imperva (Incapsula)',
    matches: (page) => page.html.includes('_incapsula_resource') || /incapsula incident id/i.test(page.text),
  },
  {
    name: 'akamai-access-denied',
    vendor: 'Akamai',
    matches: (page) => /^access denied$/i.test(page.title) && /you don'?t have permission to access/i.test(page.text),
  },
  {
    name: 'perimeterx',
    vendor: 'HUMAN (PerimeterX)',
    matches: (page) => page.html.includes('px-captcha') || /access to this page has been denied/i.test(page.title),
  },
  {
    name: 'datadome',
    vendor: 'DataDome',
    matches: (page) => page.html.includes('captcha-delivery.com') && page.text.length < 1_000,
  },
  {
    name: 'sucuri',
    vendor: 'Sucuri',
    matches: (page) => /sucuri website firewall/i.test(page.title) || /sucuri website firewall/i.test(page.text.slice(0, 500)),
  },
  {
    name: 'aws-waf',
    vendor: 'AWS WAF',
    matches: (page) =>
      (page.html.includes('awswaf') && page.text.length < 500) ||
      (page.status === 403 && /^403 forbidden$/i.test(page.title) && /request blocked/i.test(page.text)),
  },
  {
    name: 'captcha',
    vendor: 'captcha',
    matches: (page) =>
      page.text.length < 1_500 &&
      /verify (that )?you are (a )?human|are you a robot|prove you('| a)re not a robot|complete the security check|checking (if the site connection is secure|your browser)|unusual traffic from your (computer )?network/i.test(
        `${page.title} ${page.text}`,
      ),
  },
];

/** The matching template's name and vendor, or undefined for an ordinary page. */
export function blockedPageTemplate(input: BlockedPageInput): { name: string; vendor: string } | undefined {
  if (input.signals.textLength > blockedPageMaxText) return undefined;
  const page = { status: input.status, title: input.signals.title, text: input.signals.text, html: input.html.toLowerCase() };
  // A loop, not `find` with an arrow made per page (V8 compiled those again on later pages).
  for (const template of blockTemplates) if (template.matches(page)) return { name: template.name, vendor: template.vendor };
  return undefined;
}

/** The error a blocked page becomes: retryable, kind `blocked`, naming the template. */
export function blockedPageError(url: URL, template: { name: string; vendor: string }, engine: string): TargetError {
  return new TargetError(
    'blocked',
    `${url.host} answered with a ${template.vendor} bot-protection page (${template.name}) instead of the content; ` +
      'it may pass on a later try or through an enhanced proxy',
    { retryable: true, details: { host: url.host, template: template.name, engine } },
  );
}
