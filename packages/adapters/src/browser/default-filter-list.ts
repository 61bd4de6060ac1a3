/**
 * The filter list used when the operator gives none: Adblock Plus syntax, read by the Ghostery
 * engine. It blocks the largest ad and tracking networks by host and hides (and removes) the
 * cookie-consent banners of the common consent platforms. Operators who want full coverage pass
 * EasyList / EasyPrivacy / a cookie list (files they keep current) as `filterLists`.
 */
export const defaultAdHosts = [
  'doubleclick.net', 'googlesyndication.com', 'googleadservices.com', 'adservice.google.com', 'googletagservices.com',
  'google-analytics.com', 'googletagmanager.com', 'amazon-adsystem.com', 'adnxs.com', 'adsrvr.org', 'criteo.com', 'criteo.net',
  'taboola.com', 'outbrain.com', 'rubiconproject.com', 'pubmatic.com', 'openx.net', 'casalemedia.com', 'moatads.com',
  'scorecardresearch.com', 'quantserve.com', 'adform.net', 'smartadserver.com', 'yieldmo.com', 'sharethrough.com',
  'teads.tv', '3lift.com', 'bidswitch.net', 'contextweb.com', 'lijit.com', 'media.net', 'advertising.com', 'adroll.com',
  'zedo.com', 'revcontent.com', 'mgid.com', 'popads.net', 'propellerads.com', 'adcolony.com', 'serving-sys.com',
  'hotjar.com', 'facebook.net', 'connect.facebook.net', 'ads-twitter.com', 'ads.linkedin.com', 'bat.bing.com', 'adsafeprotected.com',
  'doubleverify.com', 'imasdk.googleapis.com', 'pagead2.googlesyndication.com',
] as const;

/** Consent-platform banners and generic cookie bars, removed from the DOM when ads are blocked. */
export const cookieBannerSelectors = [
  '#onetrust-banner-sdk', '#onetrust-consent-sdk', '#CybotCookiebotDialog', '#CybotCookiebotDialogBodyUnderlay', '#usercentrics-root',
  '#truste-consent-track', '#trustarc-banner-overlay', '.qc-cmp2-container', '#qc-cmp2-container', '.fc-consent-root', '#didomi-host',
  '#sp_message_container', '[id^="sp_message_container"]', '.cc-window', '.cc-banner', '#cookie-law-info-bar', '#cookie-notice', '.cookie-notice',
  '#cookie-banner', '.cookie-banner', '#cookieBanner', '.cookie-consent', '#cookie-consent', '.cookie-bar', '#cookie-bar', '.cookies-banner',
  '#gdpr-cookie-message', '.gdpr-banner', '#gdpr-banner', '.js-cookie-consent', '#consent-banner', '.consent-banner', '#cmpbox', '#cmpwrapper',
  '.osano-cm-window', '#iubenda-cs-banner', '.termly-styles-root', '#hs-eu-cookie-confirmation', '.cky-consent-container', '#moove_gdpr_cookie_info_bar',
  '[aria-label="cookieconsent"]', '[aria-describedby="cookieconsent:desc"]',
] as const;

export function defaultFilterList(): string {
  return [
    '! Quarry default list: ad and tracking hosts, consent banners',
    ...defaultAdHosts.map((host) => `||${host}^$third-party`),
    ...cookieBannerSelectors.map((selector) => `##${selector}`),
  ].join('\n');
}
