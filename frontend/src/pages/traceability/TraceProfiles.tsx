/** Customers' traceability profiles (admins): what each customer needs traced and certified. */
import { useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, ShieldCheck } from 'lucide-react';
import { customersApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { humanize } from '../../lib/format';
import {
  EMPTY_PROFILE,
  LEVEL_TONE,
  newKey,
  PROFILE_FIELDS,
  profilePayload,
  profileSchema,
  profileValues,
  recordsApi,
  TRACE_LEVELS,
  type Profile,
} from './traceRecords';
import { queryKeys } from '../../api/queryKeys';

const LEVEL_HINT: Record<string, string> = {
  none: 'No tracing required.',
  lot: 'Material lots of every shipment.',
  serial: 'Serial number of every unit.',
  full: 'Lots and serial numbers, with certificates.',
};

function requirements(p: Profile): string {
  const r = [p.requires_coc && 'CoC', p.requires_coa && 'CoA', p.requires_first_article && 'First article'].filter(Boolean);
  return r.length ? r.join(', ') : '—';
}

export function ProfilesSection() {
  const [editing, setEditing] = useState<Profile | 'new' | null>(null);
  const list = useQuery({ queryKey: queryKeys.traceabilityProfiles.all, queryFn: ({ signal }) => recordsApi.profiles(signal) });
  return (
    <div className="trace-section">
      <div className="trace-toolbar">
        <p className="muted">One profile per customer: the level of tracing and the certificates their orders need.</p>
        <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing('new')}>
          New profile
        </Button>
      </div>
      {list.isLoading ? (
        <div className="card card--pad" aria-busy="true" aria-label="Loading profiles">
          <Skeleton height={14} />
        </div>
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data?.length ? (
        <EmptyState icon={<ShieldCheck size={22} />} title="No traceability profiles yet" description="Give a customer a profile when their contract asks for lot or serial tracing." />
      ) : (
        <div className="datatable card">
          <div className="datatable__scroll">
          <table className="table" aria-label="Traceability profiles">
            <thead>
              <tr>
                <th>Customer</th>
                <th>Level</th>
                <th>Certificates</th>
                <th className="hide-tablet">Standards</th>
                <th className="align-right">Retention (days)</th>
                <th className="shrink">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <div className="cell-stack cell-stack--start">
                      <span className="cell-strong">{p.customer_name}</span>
                      <span className="cell-sub">{p.customer_email}</span>
                    </div>
                  </td>
                  <td>
                    <Badge tone={LEVEL_TONE[p.traceability_level]}>{humanize(p.traceability_level)}</Badge>
                  </td>
                  <td>{requirements(p)}</td>
                  <td className="hide-tablet">{p.compliance_standards ?? '—'}</td>
                  <td className="align-right num">{p.record_retention_days}</td>
                  <td className="shrink">
                    <Button size="sm" variant="ghost" onClick={() => setEditing(p)} aria-label={`Edit profile of ${p.customer_name}`}>
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </div>
      )}
      {editing && <ProfileDialog profile={editing === 'new' ? null : editing} taken={new Set(list.data?.map((p) => p.customer_id))} onClose={() => setEditing(null)} />}
    </div>
  );
}

function ProfileDialog({ profile, taken, onClose }: { profile: Profile | null; taken: ReadonlySet<number>; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const customers = useQuery({
    queryKey: queryKeys.customers.options('traceability'),
    queryFn: ({ signal }) => customersApi.list({ limit: 200 }, signal),
    enabled: profile === null,
    staleTime: 60_000,
  });
  const options = (customers.data ?? [])
    .filter((c) => !taken.has(c.id))
    .map((c) => {
      const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
      return { value: String(c.id), label: `${c.company_name || name || c.email} (${c.email})` };
    });
  const form = useZodForm(profileSchema, { defaultValues: profile ? profileValues(profile) : EMPTY_PROFILE });
  const {
    register,
    formState: { errors },
  } = form;
  const customerHint = customers.isLoading
    ? 'Loading…'
    : customers.isError
      ? `Could not load the customers: ${errorMessage(customers.error)}`
      : options.length === 0
        ? 'Every customer already has a profile (or there are none yet).'
        : undefined;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      size="lg"
      title={profile ? `Traceability profile of ${profile.customer_name}` : 'New traceability profile'}
      id={formId}
      label="Traceability profile"
      submitLabel={profile ? 'Save' : 'Create profile'}
      errorTitle="The profile was not saved"
      submit={(v) => {
        const body = profilePayload(v);
        return profile ? recordsApi.updateProfile(profile.customer_id, body) : recordsApi.createProfile(body, key.current);
      }}
      onSuccess={async (p) => {
        toast.success(profile ? 'Profile saved' : 'Profile created', `${p.customer_name}: ${humanize(p.traceability_level).toLowerCase()} tracing.`);
        await qc.invalidateQueries({ queryKey: queryKeys.traceabilityProfiles.all });
      }}
      serverError={() => {
        key.current = newKey();
        return undefined;
      }}
      fields={PROFILE_FIELDS}
    >
      {profile ? (
        <p>
          <strong>{profile.customer_name}</strong> <span className="muted">{profile.customer_email}</span>
        </p>
      ) : (
        <SelectField label="Customer" required placeholder="Pick a customer…" options={options} hint={customerHint} error={errors.customer_id?.message} {...register('customer_id')} />
      )}
      <div className="form__grid">
        <SelectField
          label="Traceability level"
          options={TRACE_LEVELS.map((l) => ({ value: l, label: `${humanize(l)}: ${LEVEL_HINT[l]}` }))}
          error={errors.traceability_level?.message}
          {...register('traceability_level')}
        />
        <TextField label="Keep records for (days)" inputMode="numeric" hint="2555 days is 7 years." error={errors.record_retention_days?.message} {...register('record_retention_days')} />
        <TextField label="Serial number prefix" hint="Optional, e.g. ACME-." error={errors.custom_serial_prefix?.message} {...register('custom_serial_prefix')} />
        <TextField label="Compliance standards" hint="e.g. AS9100, ISO 13485." error={errors.compliance_standards?.message} {...register('compliance_standards')} />
      </div>
      <fieldset className="fieldset">
        <legend>Documents with every order</legend>
        <CheckboxField label="Certificate of conformance (CoC)" {...register('requires_coc')} />
        <CheckboxField label="Certificate of analysis (CoA)" {...register('requires_coa')} />
        <CheckboxField label="First article inspection" {...register('requires_first_article')} />
      </fieldset>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
