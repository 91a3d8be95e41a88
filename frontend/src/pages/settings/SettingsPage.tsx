import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { CompanySettings, CompanySettingsPatch } from '../../api/model';
import { Button } from '../../components/Button';
import { CheckboxField, FormError, TextAreaField, TextField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';

type Values = Record<
  | 'company_name'
  | 'company_email'
  | 'company_phone'
  | 'company_website'
  | 'company_address_line1'
  | 'company_address_line2'
  | 'company_city'
  | 'company_state'
  | 'company_zip'
  | 'company_country'
  | 'tax_name'
  | 'tax_rate_percent'
  | 'tax_registration_number'
  | 'default_quote_validity_days'
  | 'quote_terms'
  | 'quote_footer'
  | 'timezone'
  | 'business_hours_start'
  | 'business_hours_end',
  string
> & { tax_enabled: boolean };

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function fromSettings(c: CompanySettings): Values {
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
    business_hours_start: s(c.business_hours_start),
    business_hours_end: s(c.business_hours_end),
  };
}

function validate(v: Values): Record<string, string> {
  const e: Record<string, string> = {};
  const pct = Number(v.tax_rate_percent);
  if (v.tax_rate_percent.trim() && (!Number.isFinite(pct) || pct < 0 || pct > 100)) e.tax_rate_percent = 'Enter a percentage from 0 to 100.';
  for (const k of ['business_hours_start', 'business_hours_end'] as const) {
    const n = Number(v[k]);
    if (v[k].trim() && (!Number.isInteger(n) || n < 0 || n > 23)) e[k] = 'Enter an hour from 0 to 23.';
  }
  const days = Number(v.default_quote_validity_days);
  if (v.default_quote_validity_days.trim() && (!Number.isInteger(days) || days < 1 || days > 365)) e.default_quote_validity_days = 'Enter 1 to 365 days.';
  return e;
}

function toPatch(v: Values): CompanySettingsPatch {
  const text = (x: string) => (x.trim() ? x.trim() : null);
  const int = (x: string) => (x.trim() ? Number.parseInt(x, 10) : null);
  return {
    company_name: text(v.company_name),
    company_email: text(v.company_email),
    company_phone: text(v.company_phone),
    company_website: text(v.company_website),
    company_address_line1: text(v.company_address_line1),
    company_address_line2: text(v.company_address_line2),
    company_city: text(v.company_city),
    company_state: text(v.company_state),
    company_zip: text(v.company_zip),
    company_country: text(v.company_country),
    tax_enabled: v.tax_enabled,
    tax_name: text(v.tax_name),
    tax_rate_percent: text(v.tax_rate_percent),
    tax_registration_number: text(v.tax_registration_number),
    default_quote_validity_days: int(v.default_quote_validity_days) ?? undefined,
    quote_terms: text(v.quote_terms),
    quote_footer: text(v.quote_footer),
    timezone: text(v.timezone),
    business_hours_start: int(v.business_hours_start),
    business_hours_end: int(v.business_hours_end),
  };
}

export function SettingsPage() {
  const settings = useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => settingsApi.get(signal) });
  if (isMissingRoute(settings.error)) return <NotYetAvailable area="settings" />;
  return (
    <div className="page">
      <PageHeader title="Settings" description="Your company details, tax and business hours." />
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
    </div>
  );
}

function SettingsForm({ initial }: { initial: CompanySettings }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState<Values>(() => fromSettings(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (patch: CompanySettingsPatch) => settingsApi.patch(patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(['settings'], saved);
      toast.success('Settings saved');
    },
    onError: (err) => {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      setFormError(errorMessage(err));
    },
  });

  const set = (k: keyof Values) => (e: { target: { value: string; checked?: boolean; type?: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.type === 'checkbox' ? Boolean(e.target.checked) : e.target.value }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const errs = validate(values);
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    save.mutate(toPatch(values));
  };

  const f = (k: keyof Omit<Values, 'tax_enabled'>, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} name={k} value={values[k]} onChange={set(k)} error={errors[k]} {...extra} />
  );

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label="Company settings">
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
          <CheckboxField label="Charge sales tax" name="tax_enabled" checked={values.tax_enabled} onChange={set('tax_enabled')} />
          <div className="form__grid form__grid--3">
            {f('tax_name', 'Tax name', { placeholder: 'Sales tax' })}
            {f('tax_rate_percent', 'Tax rate (%)', { inputMode: 'decimal' })}
            {f('tax_registration_number', 'Registration number')}
          </div>
          {f('default_quote_validity_days', 'Quotes are valid for (days)', { inputMode: 'numeric' })}
          <TextAreaField label="Quote terms" name="quote_terms" value={values.quote_terms} onChange={set('quote_terms')} error={errors.quote_terms} />
          <TextAreaField label="Quote footer" name="quote_footer" value={values.quote_footer} onChange={set('quote_footer')} error={errors.quote_footer} />
        </div>
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
