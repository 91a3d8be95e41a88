import { describe, expect, it } from 'vitest';
import { formatPreview, settingsSchema } from './SettingsPage';

const blank = {
  company_name: '',
  company_email: '',
  company_phone: '',
  company_website: '',
  company_address_line1: '',
  company_address_line2: '',
  company_city: '',
  company_state: '',
  company_zip: '',
  company_country: '',
  tax_enabled: false,
  tax_name: '',
  tax_rate_percent: '',
  tax_registration_number: '',
  default_quote_validity_days: '',
  quote_terms: '',
  quote_footer: '',
  timezone: '',
  currency_code: '',
  locale: '',
  business_hours_start: '',
  business_hours_end: '',
};

describe('settingsSchema', () => {
  it('sends blanks as null, the tax rate as a decimal string and hours as numbers', () => {
    const out = settingsSchema.parse({ ...blank, company_name: ' Hopper Print Works ', tax_rate_percent: '8.25', business_hours_start: '9' });
    expect(out.company_name).toBe('Hopper Print Works');
    expect(out.company_city).toBeNull();
    expect(out.tax_rate_percent).toBe('8.25');
    expect(out.business_hours_start).toBe(9);
    expect(out.business_hours_end).toBeNull();
    // Blank validity leaves the server's value alone.
    expect(out.default_quote_validity_days).toBeUndefined();
    expect(out.currency_code).toBeUndefined();
  });

  it('upper-cases the currency and refuses what is not a code', () => {
    expect(settingsSchema.parse({ ...blank, currency_code: ' eur ', locale: 'de-DE' })).toMatchObject({ currency_code: 'EUR', locale: 'de-DE' });
    const r = settingsSchema.safeParse({ ...blank, currency_code: 'EURO' });
    expect(r.error?.issues[0]?.message).toBe('Enter a three-letter ISO 4217 code, e.g. USD.');
  });

  it('previews an amount and a date in the chosen currency and locale', () => {
    expect(formatPreview('EUR', 'de-DE')).toMatch(/^1\.234,50\s€ · 31\.12\.2026$/);
    expect(formatPreview('USD', 'en-US')).toBe('$1,234.50 · Dec 31, 2026');
    expect(formatPreview('XX1', 'en-US')).toBe('This currency or locale is not known.');
  });

  it('names each bad field', () => {
    const r = settingsSchema.safeParse({ ...blank, tax_rate_percent: '101', business_hours_end: '24', default_quote_validity_days: '0' });
    expect(r.success).toBe(false);
    expect(Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]))).toEqual({
      tax_rate_percent: 'Enter a percentage from 0 to 100.',
      business_hours_end: 'Enter an hour from 0 to 23.',
      default_quote_validity_days: 'Enter 1 to 365 days.',
    });
  });
});
