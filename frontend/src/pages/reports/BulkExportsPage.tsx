import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Download, FileDown, RefreshCw } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { DownloadLink } from '../../components/DownloadLink';
import { FormError, SelectField, TextAreaField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import {
  bulkExportApi,
  canDownload,
  DEFAULT_FORM,
  EXPORT_LIST_LIMIT,
  expiresLabel,
  exportFilename,
  exportFormSchema,
  FORMAT_OPTIONS,
  newIdempotencyKey,
  pollInterval,
  presetById,
  presetOf,
  PRESETS,
  progressLabel,
  rootField,
  sizeLabel,
  statusBadge,
  type BulkExport,
  type ExportFormValues,
} from './bulkExports';
import './reports.css';
import { queryKeys } from '../../api/queryKeys';

const PRESET_OPTIONS = [...PRESETS.map((p) => ({ value: p.id, label: p.label })), { value: '', label: 'Custom query' }];

const columns: Column<BulkExport>[] = [
  {
    key: 'id',
    header: 'Export',
    render: (e) => (
      <div className="cell-stack cell-stack--start">
        <span className="cell-strong">
          <span className="mono">#{e.id}</span> {rootField(e.query) || 'query'}
        </span>
        <code className="bulk-exports__query" title={e.query}>
          {e.query.replace(/\s+/g, ' ')}
        </code>
      </div>
    ),
  },
  { key: 'format', header: 'Format', shrink: true, render: (e) => <span className="mono">{e.format.toUpperCase()}</span> },
  {
    key: 'status',
    header: 'Status',
    shrink: true,
    render: (e) => {
      const b = statusBadge(e.status);
      return (
        <div className="cell-stack cell-stack--start">
          <Badge tone={b.tone}>{b.label}</Badge>
          {e.error && <span className="bulk-exports__error">{e.error}</span>}
        </div>
      );
    },
  },
  { key: 'progress', header: 'Rows', align: 'right', shrink: true, render: (e) => <span className="num">{progressLabel(e)}</span> },
  { key: 'size_bytes', header: 'Size', align: 'right', shrink: true, hideOnTablet: true, render: (e) => <span className="num">{sizeLabel(e)}</span> },
  { key: 'created_at', header: 'Created', shrink: true, hideOnTablet: true, render: (e) => formatDateTime(e.created_at) },
  {
    key: 'expires_at',
    header: 'Expires',
    shrink: true,
    render: (e) => <span title={e.expires_at ? formatDateTime(e.expires_at) : undefined}>{e.status === 'expired' ? 'Expired' : expiresLabel(e.expires_at)}</span>,
  },
  {
    key: 'download',
    header: 'File',
    shrink: true,
    render: (e) =>
      canDownload(e) && e.download_url ? (
        <DownloadLink url={e.download_url} filename={exportFilename(e)} className="link bulk-exports__download" aria-label={`Download export ${e.id}`}>
          <Download size={14} aria-hidden="true" /> Download
        </DownloadLink>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

/** Report builders queue a GraphQL query as a JSONL or CSV file and download it when it is done. */
export function BulkExportsPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  // One key per submitted form: a double click (or a retry of the same submit) queues one export.
  const idempotencyKey = useRef<string>(newIdempotencyKey());
  // Set synchronously on submit: a second click before the first request is pending is ignored.
  const submitting = useRef(false);

  const list = useQuery({
    queryKey: queryKeys.bulkExports.recent(EXPORT_LIST_LIMIT),
    queryFn: () => bulkExportApi.list(EXPORT_LIST_LIMIT),
    refetchInterval: (q) => pollInterval(q.state.data),
    staleTime: 0,
  });

  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    control,
    formState: { errors },
  } = useForm<ExportFormValues>({ resolver: zodResolver(exportFormSchema), defaultValues: DEFAULT_FORM });

  const queue = useMutation({
    mutationFn: (v: ExportFormValues) => bulkExportApi.create({ query: v.query.trim(), format: v.format }, idempotencyKey.current),
    onSuccess: async (e) => {
      toast.success('Export queued', `Export #${e.id} runs in the background; the list below shows its progress and then the download.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.bulkExports.all });
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['query', 'format'])),
    onSettled: () => {
      submitting.current = false;
      idempotencyKey.current = newIdempotencyKey();
    },
  });

  const queueExport = (v: ExportFormValues) => {
    if (submitting.current) return;
    submitting.current = true;
    setFormError(null);
    queue.mutate(v);
  };

  const preset = useWatch({ control, name: 'preset' });
  const format = useWatch({ control, name: 'format' });
  const chosen = presetById(preset);
  const queryField = register('query', {
    onChange: (e: { target: { value: string } }) => setValue('preset', presetOf(e.target.value)),
  });
  const presetField = register('preset', {
    onChange: (e: { target: { value: string } }) => {
      const p = presetById(e.target.value);
      if (!p) return;
      setValue('query', p.query, { shouldValidate: false });
      setValue('format', p.format);
      clearErrors();
      setFormError(null);
    },
  });

  const rows = list.data;
  const active = rows?.filter((e) => e.status === 'queued' || e.status === 'running').length ?? 0;

  return (
    <div className="page">
      <PageHeader
        title="Bulk Exports"
        description="Export a whole list as a file: pick a report or write a GraphQL query with one top-level list, choose CSV or JSON Lines, and download the file when it is ready. Files are kept for 24 hours."
      />
      <section className="card card--pad" aria-label="New export">
        <form
          className="form bulk-exports__form"
          aria-label="New export"
          noValidate
          onSubmit={(e) => void handleSubmit(queueExport)(e)}
        >
          <FormError title="The export was not queued" message={formError} />
          <SelectField label="Report" options={PRESET_OPTIONS} hint={chosen?.description ?? 'Your own query: one top-level list or connection field.'} {...presetField} />
          <TextAreaField
            label="Query"
            required
            rows={12}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            className="bulk-exports__editor"
            hint="GraphQL, e.g. { items { nodes { sku name } } }. The export reads every page of the list with your permissions."
            error={errors.query?.message}
            {...queryField}
          />
          <fieldset className="fieldset">
            <legend>Format</legend>
            <div className="form__row bulk-exports__formats">
              {FORMAT_OPTIONS.map((o) => (
                <label key={o.value} className="checkbox">
                  <input type="radio" value={o.value} {...register('format')} /> {o.label}
                </label>
              ))}
            </div>
            <p className="field__hint">{FORMAT_OPTIONS.find((o) => o.value === format)?.hint}</p>
            {errors.format?.message && <p className="field__error">{errors.format.message}</p>}
          </fieldset>
          <div>
            <Button variant="primary" type="submit" icon={<FileDown size={16} />} loading={queue.isPending}>
              Queue export
            </Button>
          </div>
        </form>
      </section>
      <section className="card card--pad" aria-label="Your exports">
        <div className="bulk-exports__head">
          <h2 className="bulk-exports__title">Your exports</h2>
          <span className="muted small" data-testid="export-polling">
            {active > 0 ? `${active} in progress · refreshing every few seconds` : rows && rows.length > 0 ? 'All exports finished' : ''}
          </span>
          <Button variant="ghost" size="sm" icon={<RefreshCw size={14} />} onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading}>
            Refresh
          </Button>
        </div>
        <DataTable
          caption="Bulk exports"
          columns={columns}
          rows={rows}
          rowKey={(e) => e.id}
          total={rows?.length}
          page={1}
          pageSize={EXPORT_LIST_LIMIT}
          onPageChange={() => undefined}
          loading={list.isLoading}
          fetching={list.isFetching}
          error={list.error}
          onRetry={() => void list.refetch()}
          empty={{ title: 'No exports yet', description: 'Queue an export above; it shows here with its progress, then a Download link.', icon: <FileDown size={22} /> }}
        />
        {rows && rows.length >= EXPORT_LIST_LIMIT && <p className="muted small">Your latest {EXPORT_LIST_LIMIT} exports are listed.</p>}
      </section>
    </div>
  );
}
