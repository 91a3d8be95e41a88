import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { settingsApi } from '../../api/endpoints';
import type { CompanySettings, CompanySettingsPatch } from '../../api/model';
import { Button } from '../../components/Button';
import { CheckboxField, FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { applyServerErrors } from '../../lib/forms';
import { AiConnectionCard } from './AiConnectionCard';
import { TaxRatesCard } from './TaxRatesCard';
import { PriceLevelsCard } from './PriceLevelsCard';
import { QualityPolicyCard } from '../quality/QualityPolicyCard';
import { queryKeys } from '../../api/queryKeys';

/** Text as typed; blank is null. */
const text = z
  .string()
  .trim()
  .transform((v) => v || null);
/** A whole number within bounds, typed as text; blank is null. */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), message)
    .transform((v) => (v ? Number.parseInt(v, 10) : null));

/** The settings form; its output is the generated body of PATCH /settings/. */
export const settingsSchema = z.object({
  company_name: text,
  company_email: text,
  company_phone: text,
  company_website: text,
  company_address_line1: text,
  company_address_line2: text,
  company_city: text,
  company_state: text,
  company_zip: text,
  company_country: text,
  tax_enabled: z.boolean(),
  tax_name: text,
  tax_rate_percent: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= 100), 'Enter a percentage from 0 to 100.')
    .transform((v) => v || null),
  tax_registration_number: text,
  // Blank leaves the server's value as it is (the field cannot be cleared).
  default_quote_validity_days: wholeNumber(1, 365, 'Enter 1 to 365 days.').transform((v) => v ?? undefined),
  quote_terms: text,
  quote_footer: text,
  timezone: text,
  // Blank leaves the server's value as it is.
  currency_code: z
    .string()
    .trim()
    .toUpperCase()
    .refine((v) => v === '' || /^[A-Z]{3}$/.test(v), 'Enter a three-letter ISO 4217 code, e.g. USD.')
    .transform((v) => v || undefined),
  locale: z
    .string()
    .trim()
    .transform((v) => v || undefined),
  business_hours_start: wholeNumber(0, 23, 'Enter an hour from 0 to 23.'),
  business_hours_end: wholeNumber(0, 23, 'Enter an hour from 0 to 23.'),
}) satisfies z.ZodType<CompanySettingsPatch, unknown>;

type SettingsValues = z.input<typeof settingsSchema>;
type SettingsOutput = z.output<typeof settingsSchema>;
const FIELDS = Object.keys(settingsSchema.shape) as (keyof SettingsValues)[];

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function fromSettings(c: CompanySettings): SettingsValues {
  return {
    company_name: s(c.company_name),
    company_email: s(c.company_email),
    company_phone: s(c.company_phone),
    company_website: s(c.company_website),
    company_address_line1: s(c.company_address_line1),
    company_address_line2: s(c.company_address_line2),
    company_city: s(c.company_city),
    company_state: s(c.company_state),
    company_zip: s(c.company_zip),
    company_country: s(c.company_country),
    tax_enabled: Boolean(c.tax_enabled),
    tax_name: s(c.tax_name),
    tax_rate_percent: s(c.tax_rate_percent),
    tax_registration_number: s(c.tax_registration_number),
    default_quote_validity_days: s(c.default_quote_validity_days),
    quote_terms: s(c.quote_terms),
    quote_footer: s(c.quote_footer),
    timezone: s(c.timezone),
    currency_code: s(c.currency_code),
    locale: s(c.locale),
    business_hours_start: s(c.business_hours_start),
    business_hours_end: s(c.business_hours_end),
  };
}

/** Currencies farms sell in (any ISO 4217 code is accepted by the server). */
const CURRENCIES = ['USD', 'CAD', 'EUR', 'GBP', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'JPY', 'MXN', 'BRL'];
/** Locales for numbers and dates. */
const LOCALES: readonly { value: string; label: string }[] = [
  { value: 'en-US', label: 'English (United States): 1,234.50 · 12/31/2026' },
  { value: 'en-GB', label: 'English (United Kingdom): 1,234.50 · 31/12/2026' },
  { value: 'en-CA', label: 'English (Canada): 1,234.50 · 2026-12-31' },
  { value: 'en-AU', label: 'English (Australia): 1,234.50 · 31/12/2026' },
  { value: 'de-DE', label: 'Deutsch (Deutschland): 1.234,50 · 31.12.2026' },
  { value: 'de-CH', label: 'Deutsch (Schweiz): 1’234.50 · 31.12.2026' },
  { value: 'fr-FR', label: 'Français (France): 1 234,50 · 31/12/2026' },
  { value: 'fr-CA', label: 'Français (Canada): 1 234,50 · 2026-12-31' },
  { value: 'es-ES', label: 'Español (España): 1.234,50 · 31/12/2026' },
  { value: 'it-IT', label: 'Italiano: 1.234,50 · 31/12/2026' },
  { value: 'nl-NL', label: 'Nederlands: 1.234,50 · 31-12-2026' },
  { value: 'pt-BR', label: 'Português (Brasil): 1.234,50 · 31/12/2026' },
  { value: 'sv-SE', label: 'Svenska: 1 234,50 · 2026-12-31' },
  { value: 'ja-JP', label: '日本語: 1,234.50 · 2026/12/31' },
];

/** How an amount and a date will look, or why the pair cannot be shown. */
export function formatPreview(currency: string, locale: string): string {
  try {
    const code = currency.trim().toUpperCase() || 'USD';
    const tag = locale.trim() || undefined;
    const money = new Intl.NumberFormat(tag, { style: 'currency', currency: code }).format(1234.5);
    const date = new Date(Date.UTC(2026, 11, 31)).toLocaleDateString(tag, { dateStyle: 'medium', timeZone: 'UTC' });
    return `${money} · ${date}`;
  } catch {
    return 'This currency or locale is not known.';
  }
}

export function SettingsPage() {
  const settings = useQuery({ queryKey: queryKeys.settings.all, queryFn: ({ signal }) => settingsApi.get(signal) });
  return (
    <div className="page">
      <PageHeader title="Settings" description="Your company details, tax, currency and format, business hours and quality policy." />
      {settings.isPending ? (
        <div className="card settings-card" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={34} />
          ))}
        </div>
      ) : settings.error ? (
        <div className="card">
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        </div>
      ) : (
        <SettingsForm key={settings.data.updated_at ?? 'settings'} initial={settings.data} />
      )}
      <div className="settings">
        <TaxRatesCard />
        <PriceLevelsCard />
        <QualityPolicyCard />
        <AiConnectionCard />
      </div>
    </div>
  );
}

function SettingsForm({ initial }: { initial: CompanySettings }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<SettingsValues, unknown, SettingsOutput>({ resolver: zodResolver(settingsSchema), defaultValues: fromSettings(initial) });

  const [previewCurrency, previewLocale] = useWatch({ control, name: ['currency_code', 'locale'] });
  const save = useMutation({
    mutationFn: (patch: SettingsOutput) => settingsApi.patch(patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings.all, saved);
      toast.success('Settings saved');
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, FIELDS)),
  });

  const onSubmit = handleSubmit((patch) => {
    setFormError(null);
    save.mutate(patch);
  });

  const f = (k: Exclude<keyof SettingsValues, 'tax_enabled'>, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} {...register(k)} error={errors[k]?.message} {...extra} />
  );

  return (
    <form className="settings" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Company settings">
      <FormError message={formError} />
      <section className="card settings-card">
        <header className="settings-card__head">
          <h2 className="card__title">Company</h2>
          <p className="muted small">Shown on quotes, invoices and packing slips.</p>
        </header>
        <div className="form">
          {f('company_name', 'Company name', { autoComplete: 'organization' })}
          <div className="form__grid form__grid--3">
            {f('company_email', 'Email', { type: 'email' })}
            {f('company_phone', 'Phone', { type: 'tel' })}
            {f('company_website', 'Website', { type: 'url' })}
          </div>
          <div className="form__grid">
            {f('company_address_line1', 'Address line 1')}
            {f('company_address_line2', 'Address line 2')}
          </div>
          <div className="form__grid form__grid--4">
            {f('company_city', 'City')}
            {f('company_state', 'State')}
            {f('company_zip', 'ZIP / postcode')}
            {f('company_country', 'Country')}
          </div>
        </div>
      </section>
      <section className="card settings-card">
        <header className="settings-card__head">
          <h2 className="card__title">Tax and quotes</h2>
        </header>
        <div className="form">
          <CheckboxField label="Charge sales tax" {...register('tax_enabled')} />
          <div className="form__grid form__grid--3">
            {f('tax_name', 'Tax name', { placeholder: 'Sales tax' })}
            {f('tax_rate_percent', 'Tax rate (%)', { inputMode: 'decimal' })}
            {f('tax_registration_number', 'Registration number')}
          </div>
          {f('default_quote_validity_days', 'Quotes are valid for (days)', { inputMode: 'numeric' })}
          <TextAreaField label="Quote terms" {...register('quote_terms')} error={errors.quote_terms?.message} />
          <TextAreaField label="Quote footer" {...register('quote_footer')} error={errors.quote_footer?.message} />
        </div>
      </section>
      <section className="card settings-card">
        <header className="settings-card__head">
          <h2 className="card__title">Currency and format</h2>
          <p className="muted small">One currency for the company: how amounts, numbers and dates look here and on documents.</p>
        </header>
        <div className="form__grid">
          <TextField
            label="Currency"
            list="settings-currencies"
            placeholder="USD"
            {...register('currency_code')}
            error={errors.currency_code?.message}
            hint="ISO 4217 code."
          />
          <datalist id="settings-currencies">
            {CURRENCIES.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <SelectField
            label="Numbers and dates"
            options={LOCALES.some((l) => l.value === initial.locale) || !initial.locale ? LOCALES : [{ value: initial.locale, label: initial.locale }, ...LOCALES]}
            {...register('locale')} error={errors.locale?.message} />
        </div>
        <p className="muted small" data-testid="format-preview">
          Preview: {formatPreview(previewCurrency ?? '', previewLocale ?? '')}
        </p>
      </section>
      <section className="card settings-card">
        <header className="settings-card__head">
          <h2 className="card__title">Business hours</h2>
        </header>
        <div className="form__grid form__grid--3">
          {f('timezone', 'Time zone', { placeholder: 'America/New_York', hint: 'An IANA name.' })}
          {f('business_hours_start', 'Opens at (hour)', { inputMode: 'numeric' })}
          {f('business_hours_end', 'Closes at (hour)', { inputMode: 'numeric' })}
        </div>
      </section>
      <div className="settings__actions">
        <Button type="submit" variant="primary" loading={save.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
