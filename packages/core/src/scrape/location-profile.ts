import type { ScrapeOptions } from '../options/scrape-options.js';
import type { LocationProfile } from '../ports/fetcher.js';

/**
 * `location` option -> what a browser emulates: locale, timezone and Accept-Language. The country
 * picks the main locale and the capital's timezone; `languages`, when given, wins for locale and
 * Accept-Language (in the order given). Countries not in the table get `en-<CC>` and UTC.
 */
const countries: Record<string, readonly [locale: string, timezone: string]> = {
  US: ['en-US', 'America/New_York'],
  CA: ['en-CA', 'America/Toronto'],
  MX: ['es-MX', 'America/Mexico_City'],
  BR: ['pt-BR', 'America/Sao_Paulo'],
  AR: ['es-AR', 'America/Argentina/Buenos_Aires'],
  CL: ['es-CL', 'America/Santiago'],
  CO: ['es-CO', 'America/Bogota'],
  PE: ['es-PE', 'America/Lima'],
  GB: ['en-GB', 'Europe/London'],
  IE: ['en-IE', 'Europe/Dublin'],
  FR: ['fr-FR', 'Europe/Paris'],
  DE: ['de-DE', 'Europe/Berlin'],
  AT: ['de-AT', 'Europe/Vienna'],
  CH: ['de-CH', 'Europe/Zurich'],
  NL: ['nl-NL', 'Europe/Amsterdam'],
  BE: ['nl-BE', 'Europe/Brussels'],
  LU: ['fr-LU', 'Europe/Luxembourg'],
  ES: ['es-ES', 'Europe/Madrid'],
  PT: ['pt-PT', 'Europe/Lisbon'],
  IT: ['it-IT', 'Europe/Rome'],
  DK: ['da-DK', 'Europe/Copenhagen'],
  SE: ['sv-SE', 'Europe/Stockholm'],
  NO: ['nb-NO', 'Europe/Oslo'],
  FI: ['fi-FI', 'Europe/Helsinki'],
  IS: ['is-IS', 'Atlantic/Reykjavik'],
  PL: ['pl-PL', 'Europe/Warsaw'],
  CZ: ['cs-CZ', 'Europe/Prague'],
  SK: ['sk-SK', 'Europe/Bratislava'],
  HU: ['hu-HU', 'Europe/Budapest'],
  RO: ['ro-RO', 'Europe/Bucharest'],
  BG: ['bg-BG', 'Europe/Sofia'],
  GR: ['el-GR', 'Europe/Athens'],
  HR: ['hr-HR', 'Europe/Zagreb'],
  SI: ['sl-SI', 'Europe/Ljubljana'],
  RS: ['sr-RS', 'Europe/Belgrade'],
  UA: ['uk-UA', 'Europe/Kyiv'],
  RU: ['ru-RU', 'Europe/Moscow'],
  TR: ['tr-TR', 'Europe/Istanbul'],
  EE: ['et-EE', 'Europe/Tallinn'],
  LV: ['lv-LV', 'Europe/Riga'],
  LT: ['lt-LT', 'Europe/Vilnius'],
  IL: ['he-IL', 'Asia/Jerusalem'],
  AE: ['ar-AE', 'Asia/Dubai'],
  SA: ['ar-SA', 'Asia/Riyadh'],
  EG: ['ar-EG', 'Africa/Cairo'],
  MA: ['fr-MA', 'Africa/Casablanca'],
  NG: ['en-NG', 'Africa/Lagos'],
  KE: ['en-KE', 'Africa/Nairobi'],
  ZA: ['en-ZA', 'Africa/Johannesburg'],
  IN: ['en-IN', 'Asia/Kolkata'],
  PK: ['ur-PK', 'Asia/Karachi'],
  BD: ['bn-BD', 'Asia/Dhaka'],
  CN: ['zh-CN', 'Asia/Shanghai'],
  HK: ['zh-HK', 'Asia/Hong_Kong'],
  TW: ['zh-TW', 'Asia/Taipei'],
  JP: ['ja-JP', 'Asia/Tokyo'],
  KR: ['ko-KR', 'Asia/Seoul'],
  SG: ['en-SG', 'Asia/Singapore'],
  MY: ['ms-MY', 'Asia/Kuala_Lumpur'],
  TH: ['th-TH', 'Asia/Bangkok'],
  VN: ['vi-VN', 'Asia/Ho_Chi_Minh'],
  ID: ['id-ID', 'Asia/Jakarta'],
  PH: ['en-PH', 'Asia/Manila'],
  AU: ['en-AU', 'Australia/Sydney'],
  NZ: ['en-NZ', 'Pacific/Auckland'],
};

const fallback = { locale: 'en-US', timezoneId: 'America/New_York' } as const;

/** Accept-Language for languages in order of preference: `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguageOf(languages: readonly string[]): string {
  const expanded: string[] = [];
  for (const language of languages) {
    for (const tag of [language, language.split('-')[0]!]) if (!expanded.includes(tag)) expanded.push(tag);
  }
  return expanded.map((tag, index) => (index === 0 ? tag : `${tag};q=${Math.max(0.1, 1 - index / 10).toFixed(1)}`)).join(',');
}

export function locationProfile(location: NonNullable<ScrapeOptions['location']>): LocationProfile {
  const country = location.country.toUpperCase();
  const known = countries[country];
  const countryLocale = known?.[0] ?? (country === 'US-GENERIC' ? fallback.locale : `en-${country}`);
  const timezoneId = known?.[1] ?? (country === 'US-GENERIC' ? fallback.timezoneId : 'UTC');
  const languages = location.languages && location.languages.length > 0 ? location.languages : [countryLocale];
  return { locale: languages[0]!, timezoneId, acceptLanguage: acceptLanguageOf(languages) };
}
