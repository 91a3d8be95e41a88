import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, ClipboardCheck, ClipboardList, RotateCcw, XCircle } from 'lucide-react';
import { inventoryApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { AdjustmentReason, CycleCountResult, InventoryLocation, StockBalance } from '../../api/model';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { FormError, TextField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatQty } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { ReconciliationCard } from './ReconciliationCard';
import { parseCount, summarize, toBatch, variance, type CountEntry, type SheetLine, type Variance } from './cycleCount';
import { queryKeys } from '../../api/queryKeys';

type Step = 'count' | 'review' | 'done';

/** The first warehouse, else the first location: where a count starts. */
function defaultLocation(locations: readonly InventoryLocation[]): InventoryLocation | undefined {
  return locations.find((l) => l.type === 'warehouse') ?? locations[0];
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `count-${Date.now()}-${Math.random()}`;
}

export function VarianceCell({ v, unit }: { v: Variance | null; unit?: string }) {
  if (!v) return <span className="muted">—</span>;
  if (v.tone === 'match') return <span className="variance variance--match">Matches</span>;
  const sign = v.units > 0 ? '+' : '';
  return (
    <span
      className={`variance variance--${v.tone}${v.large ? ' variance--large' : ''}`}
      title={v.tone === 'over' ? 'More on the shelf than on the books' : 'Less on the shelf than on the books'}
    >
      {sign}
      {formatQty(v.text, unit)}
    </span>
  );
}

export function CycleCountPage() {
  const table = useTableState(['location', 'zero']);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [step, setStep] = useState<Step>('count');
  const [entries, setEntries] = useState<Map<number, CountEntry>>(new Map());
  const [reference, setReference] = useState('');
  const [result, setResult] = useState<CycleCountResult | null>(null);
  const [key, setKey] = useState(newKey);
  /** A location picked while counts are entered: asks before clearing them. */
  const [switchTo, setSwitchTo] = useState<string | null>(null);

  const locations = useQuery({ queryKey: queryKeys.inventory.locations(), queryFn: ({ signal }) => inventoryApi.locations(signal), staleTime: 60_000 });
  const reasons = useQuery({ queryKey: queryKeys.inventory.reasons(), queryFn: ({ signal }) => inventoryApi.adjustmentReasons(signal), staleTime: 300_000 });
  const location =
    (locations.data ?? []).find((l) => String(l.id) === table.filters.location) ?? defaultLocation(locations.data ?? []);
  const showZero = table.filters.zero === '1';

  const request = {
    location_id: location?.id,
    search: table.search || undefined,
    show_zero: showZero,
    limit: table.pageSize,
    offset: table.offset,
  };
  const sheet = useQuery({
    queryKey: queryKeys.inventory.summary(request),
    queryFn: ({ signal }) => inventoryApi.summary(request, signal),
    enabled: location !== undefined,
    placeholderData: keepPreviousData,
  });

  const summary = useMemo(() => summarize(entries.values()), [entries]);
  const reasonList: AdjustmentReason[] = reasons.data ?? [];

  const post = useMutation({
    mutationFn: () =>
      inventoryApi.recordCount({ items: toBatch(summary.lines), location_id: location?.id ?? null, count_reference: reference.trim() || null }, key),
    onSuccess: async (res) => {
      setResult(res);
      setStep('done');
      if (res.failed === 0) toast.success('Count posted', `${res.successful} ${res.successful === 1 ? 'line' : 'lines'} recorded as ${res.count_reference}.`);
      else toast.error('Count posted with errors', `${res.failed} of ${res.total_items} lines were not recorded.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.inventory.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.accounting.all });
    },
  });

  const setEntry = (b: StockBalance, patch: Partial<Omit<CountEntry, 'balance'>>) =>
    setEntries((prev) => {
      const next = new Map(prev);
      const current = next.get(b.product_id) ?? { balance: b, counted: '', reason: '' };
      const merged = { ...current, balance: b, ...patch };
      if (!merged.counted.trim() && !merged.reason) next.delete(b.product_id);
      else next.set(b.product_id, merged);
      return next;
    });

  const restart = () => {
    setEntries(new Map());
    setReference('');
    setResult(null);
    setKey(newKey());
    post.reset();
    setStep('count');
  };

  const header = (
    <PageHeader
      title="Cycle Count"
      description="Count what is on the shelf, compare it with the books, and post the differences as adjustments."
      eyebrow={location ? `${location.code} · ${location.name}` : undefined}
    />
  );
  const steps = (
    <ol className="steps" aria-label="Count steps">
      {(['count', 'review', 'done'] as const).map((s, i) => (
        <li key={s} className={`steps__item${step === s ? ' is-current' : ''}`} aria-current={step === s ? 'step' : undefined}>
          <span className="steps__dot">{i + 1}</span>
          {s === 'count' ? 'Count' : s === 'review' ? 'Review' : 'Posted'}
        </li>
      ))}
    </ol>
  );

  if (locations.isPending) {
    return (
      <div className="page">
        {header}
        <div className="card card--pad" aria-busy="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={28} />
          ))}
        </div>
      </div>
    );
  }
  if (locations.error) {
    return (
      <div className="page">
        {header}
        <div className="card">
          <ErrorState error={locations.error} onRetry={() => void locations.refetch()} />
        </div>
      </div>
    );
  }
  if (!location) {
    return (
      <div className="page">
        {header}
        <div className="card">
          <EmptyState
            icon={<ClipboardList size={22} />}
            title="Nothing to count yet"
            description="Stock appears here once it has been received into a location."
          />
        </div>
      </div>
    );
  }

  // ------------------------------------------------------------ step 3: results
  if (step === 'done' && result) {
    const cols: Column<CycleCountResult['results'][number]>[] = [
      {
        key: 'item',
        header: 'Item',
        render: (r) => (
          <div className="cell-stack">
            <span className="cell-strong">{r.product_name ?? `Item ${r.product_id}`}</span>
            <span className="cell-sub mono">{r.product_sku ?? '—'}</span>
          </div>
        ),
      },
      { key: 'previous', header: 'On the books', align: 'right', shrink: true, render: (r) => <span className="num">{formatQty(r.previous_quantity)}</span> },
      { key: 'counted', header: 'Counted', align: 'right', shrink: true, render: (r) => <span className="num">{formatQty(r.counted_quantity)}</span> },
      {
        key: 'variance',
        header: 'Variance',
        align: 'right',
        shrink: true,
        render: (r) => <VarianceCell v={r.variance !== null && r.previous_quantity !== null ? variance(r.previous_quantity, parseUnits(r.counted_quantity)) : null} />,
      },
      {
        key: 'result',
        header: 'Result',
        render: (r) =>
          r.success ? (
            <span className="cell-inline">
              <CheckCircle2 size={15} className="text-success" aria-hidden="true" />
              {r.transaction_id ? `Adjusted (transaction #${r.transaction_id}${r.journal_entry_id ? `, entry #${r.journal_entry_id}` : ''})` : 'Recorded, no change'}
            </span>
          ) : (
            <span className="cell-inline text-danger">
              <XCircle size={15} aria-hidden="true" />
              {r.error ?? 'Not recorded'}
            </span>
          ),
      },
    ];
    return (
      <div className="page">
        {header}
        {steps}
        {location && <ReconciliationCard locationId={location.id} locationName={location.name} />}
        <section className="card card--pad" aria-label="Count results" data-testid="count-results">
          <div className="card__row">
            <div>
              <h2 className="card__title">{result.count_reference}</h2>
              <p className="muted">Each difference was posted as an adjustment with its journal entry.</p>
            </div>
            <Button variant="primary" icon={<RotateCcw size={16} />} onClick={restart}>
              Start a new count
            </Button>
          </div>
          <dl className="stat-row">
            <div className="stat">
              <dt>Lines</dt>
              <dd>{result.total_items}</dd>
            </div>
            <div className="stat stat--success">
              <dt>Recorded</dt>
              <dd>{result.successful}</dd>
            </div>
            <div className={`stat${result.failed ? ' stat--danger' : ''}`}>
              <dt>Failed</dt>
              <dd>{result.failed}</dd>
            </div>
          </dl>
          <DataTable
            caption="Results per line"
            columns={cols}
            rows={result.results}
            rowKey={(r) => `${r.product_id}-${r.counted_quantity}-${r.transaction_id ?? r.error ?? ''}`}
            total={result.results.length}
            page={1}
            pageSize={Math.max(result.results.length, 1)}
            onPageChange={() => undefined}
            loading={false}
          />
        </section>
      </div>
    );
  }

  // ------------------------------------------------------------ step 2: review
  if (step === 'review') {
    const cols: Column<SheetLine>[] = [
      {
        key: 'item',
        header: 'Item',
        render: (l) => (
          <div className="cell-stack">
            <span className="cell-strong">{l.balance.product_name}</span>
            <span className="cell-sub mono">{l.balance.product_sku}</span>
          </div>
        ),
      },
      { key: 'book', header: 'On the books', align: 'right', shrink: true, render: (l) => <span className="num">{formatQty(l.balance.on_hand_quantity, l.balance.unit)}</span> },
      { key: 'counted', header: 'Counted', align: 'right', shrink: true, render: (l) => <span className="num">{formatQty(l.counted, l.balance.unit)}</span> },
      { key: 'variance', header: 'Variance', align: 'right', shrink: true, render: (l) => <VarianceCell v={l.variance} unit={l.balance.unit} /> },
      {
        key: 'reason',
        header: 'Reason',
        render: (l) => (l.variance.tone === 'match' ? <span className="muted">—</span> : (reasonList.find((r) => r.code === l.reason)?.name ?? l.reason)),
      },
    ];
    return (
      <div className="page">
        {header}
        {steps}
        <section className="card card--pad" aria-label="Review the count">
          <div className="card__row">
            <div>
              <h2 className="card__title">Review before posting</h2>
              <p className="muted">
                {summary.counted} counted at {location.name}: {summary.withVariance === 0 ? 'no differences' : `${summary.over} over, ${summary.short} short`}. Each
                difference becomes an adjustment and a journal entry.
              </p>
            </div>
          </div>
          <FormError message={post.error ? errorMessage(post.error) : null} title="The count was not posted." />
          <DataTable
            caption="Counted lines"
            columns={cols}
            rows={summary.lines}
            rowKey={(l) => l.balance.product_id}
            total={summary.lines.length}
            page={1}
            pageSize={Math.max(summary.lines.length, 1)}
            onPageChange={() => undefined}
            loading={false}
          />
          <div className="form__grid">
            <TextField
              label="Count reference"
              value={reference}
              onChange={(e) => setReference(e.target.value)}
              placeholder="Cycle Count YYYY-MM-DD HH:MM"
              hint="Shown on every adjustment of this count. Leave blank for the date and time."
              maxLength={100}
            />
          </div>
          <div className="card__actions">
            <Button icon={<ArrowLeft size={16} />} onClick={() => setStep('count')} disabled={post.isPending}>
              Back to the count
            </Button>
            <Button variant="primary" icon={<ClipboardCheck size={16} />} loading={post.isPending} onClick={() => post.mutate()}>
              Post count
            </Button>
          </div>
        </section>
      </div>
    );
  }

  // ------------------------------------------------------------ step 1: the count sheet
  const blocked = summary.invalid.size > 0 || summary.missingReason.length > 0;
  const cols: Column<StockBalance>[] = [
    {
      key: 'item',
      header: 'Item',
      render: (b) => (
        <div className="cell-stack">
          <span className="cell-strong">{b.product_name}</span>
          <span className="cell-sub mono">
            {b.product_sku}
            {b.category_name ? ` · ${b.category_name}` : ''}
          </span>
        </div>
      ),
    },
    { key: 'last_counted', header: 'Last counted', shrink: true, hideOnTablet: true, render: (b) => <span className="muted">{b.last_counted ? formatDateTime(b.last_counted) : 'Never'}</span> },
    { key: 'on_hand', header: 'On the books', align: 'right', shrink: true, render: (b) => <span className="num">{formatQty(b.on_hand_quantity, b.unit)}</span> },
    {
      key: 'counted',
      header: 'Counted',
      shrink: true,
      render: (b) => {
        const entry = entries.get(b.product_id);
        const problem = summary.invalid.get(b.product_id);
        return (
          <div className="count-input">
            <input
              className={`input input--sm num${problem ? ' is-invalid' : ''}`}
              inputMode="decimal"
              aria-label={`Counted ${b.product_sku}`}
              aria-invalid={problem ? true : undefined}
              title={problem}
              placeholder="—"
              value={entry?.counted ?? ''}
              onChange={(e) => setEntry(b, { counted: e.target.value })}
            />
            {problem && <span className="count-input__error">{problem}</span>}
          </div>
        );
      },
    },
    {
      key: 'variance',
      header: 'Variance',
      align: 'right',
      shrink: true,
      render: (b) => {
        const parsed = parseCount(entries.get(b.product_id)?.counted ?? '');
        return <VarianceCell v={parsed.kind === 'ok' ? variance(b.on_hand_quantity, parsed.units) : null} unit={b.unit} />;
      },
    },
    {
      key: 'reason',
      header: 'Reason',
      shrink: true,
      render: (b) => {
        const entry = entries.get(b.product_id);
        const missing = summary.missingReason.includes(b.product_id);
        return (
          <select
            className={`input input--select input--sm count-reason${missing ? ' is-invalid' : ''}`}
            aria-label={`Reason for ${b.product_sku}`}
            aria-invalid={missing || undefined}
            value={entry?.reason ?? ''}
            onChange={(e) => setEntry(b, { reason: e.target.value })}
          >
            <option value="">{missing ? 'Choose a reason' : 'Reason…'}</option>
            {reasonList.map((r) => (
              <option key={r.code} value={r.code} title={r.description}>
                {r.name}
              </option>
            ))}
          </select>
        );
      },
    },
  ];

  return (
    <div className="page">
      {header}
      {steps}
      {location && <ReconciliationCard locationId={location.id} locationName={location.name} />}
      <DataTable
        caption="Count sheet"
        columns={cols}
        rows={sheet.data?.items}
        total={sheet.data?.total}
        rowKey={(b) => b.inventory_id}
        page={table.page}
        pageSize={table.pageSize}
        onPageChange={table.setPage}
        onPageSizeChange={table.setPageSize}
        search={table.search}
        onSearchChange={table.setSearch}
        searchPlaceholder="Search by SKU or name"
        searchLabel="Search the count sheet"
        filtered={Boolean(table.search)}
        onClearFilters={table.clearAll}
        loading={sheet.isPending}
        fetching={sheet.isFetching}
        error={sheet.error}
        onRetry={() => void sheet.refetch()}
        filters={
          <>
            <select
              className="input input--select"
              aria-label="Location"
              value={String(location.id)}
              onChange={(e) => {
                // Counts belong to one location: a new location starts a new sheet.
                if (entries.size > 0) setSwitchTo(e.target.value);
                else table.setFilter('location', e.target.value);
              }}
            >
              {(locations.data ?? []).map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {l.code} · {l.name}
                </option>
              ))}
            </select>
            <label className="checkbox checkbox--inline">
              <input type="checkbox" checked={showZero} onChange={(e) => table.setFilter('zero', e.target.checked ? '1' : '')} />
              <span>Show zero stock</span>
            </label>
          </>
        }
        empty={{
          icon: <ClipboardList size={22} />,
          title: `No stock at ${location.name}`,
          description: showZero ? 'Nothing has been stocked at this location yet.' : 'Only items with stock are listed. Tick “Show zero stock” to count the rest too.',
        }}
      />
      <div className="count-bar" role="region" aria-label="Count summary">
        <div className="count-bar__stats" aria-live="polite">
          <span>
            <strong>{summary.counted}</strong> counted
          </span>
          <span>
            <strong>{summary.withVariance}</strong> with a difference
          </span>
          {summary.over > 0 && <Badge tone="info">{summary.over} over</Badge>}
          {summary.short > 0 && <Badge tone="danger">{summary.short} short</Badge>}
          {summary.missingReason.length > 0 && <Badge tone="warning">{summary.missingReason.length} need a reason</Badge>}
          {summary.invalid.size > 0 && <Badge tone="warning">{summary.invalid.size} not a number</Badge>}
        </div>
        <div className="count-bar__actions">
          {entries.size > 0 && (
            <Button variant="ghost" onClick={() => setEntries(new Map())}>
              Clear
            </Button>
          )}
          <Button variant="primary" disabled={summary.counted === 0 || blocked} onClick={() => setStep('review')}>
            Review count{summary.counted ? ` (${summary.counted})` : ''}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={switchTo !== null}
        title="Count another location?"
        message={`The ${entries.size} ${entries.size === 1 ? 'count' : 'counts'} entered for ${location.name} will be cleared. A count covers one location.`}
        confirmLabel="Clear and switch"
        onConfirm={() => {
          setEntries(new Map());
          if (switchTo) table.setFilter('location', switchTo);
          setSwitchTo(null);
        }}
        onCancel={() => setSwitchTo(null)}
      />
    </div>
  );
}

function parseUnits(text: string): number {
  const p = parseCount(text);
  return p.kind === 'ok' ? p.units : 0;
}
