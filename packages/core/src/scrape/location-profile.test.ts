import { describe, expect, it } from 'vitest';
import { acceptLanguageOf, locationProfile } from './location-profile.js';

describe('locationProfile', () => {
  it('maps a country to its locale, capital timezone and Accept-Language', () => {
    expect(locationProfile({ country: 'DE' })).toEqual({ locale: 'de-DE', timezoneId: 'Europe/Berlin', acceptLanguage: 'de-DE,de;q=0.9' });
    expect(locationProfile({ country: 'jp' })).toEqual({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo', acceptLanguage: 'ja-JP,ja;q=0.9' });
  });

  it('lets languages win for locale and Accept-Language, in order', () => {
    expect(locationProfile({ country: 'CH', languages: ['fr-CH', 'en'] })).toEqual({
      locale: 'fr-CH',
      timezoneId: 'Europe/Zurich',
      acceptLanguage: 'fr-CH,fr;q=0.9,en;q=0.8',
    });
  });

  it('falls back to English and UTC for countries outside the table, and US-generic to the US', () => {
    expect(locationProfile({ country: 'ZW' })).toEqual({ locale: 'en-ZW', timezoneId: 'UTC', acceptLanguage: 'en-ZW,en;q=0.9' });
    expect(locationProfile({ country: 'US-generic' })).toMatchObject({ locale: 'en-US', timezoneId: 'America/New_York' });
  });

  it('builds Accept-Language without repeating a language', () => {
    expect(acceptLanguageOf(['en-US', 'en', 'de'])).toBe('en-US,en;q=0.9,de;q=0.8');
  });
});
