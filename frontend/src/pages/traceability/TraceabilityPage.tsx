import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Download, ScanSearch, ShieldAlert } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { FormError, TextAreaField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { saveText, toCsv } from '../../lib/csv';
import { humanize } from '../../lib/format';
import { isAdmin } from '../../auth/roles';
import { useAuth } from '../../auth/AuthContext';
import { TraceGraph } from './TraceGraph';
import { LotsSection, SerialsSection } from './TraceLists';
import { ProfilesSection } from './TraceProfiles';
import {
  customerRows,
  parseNumbers,
  tabParams,
  traceApi,
  unitRows,
  type Direction,
  type ForwardTrace,
  type TraceCustomer,
  type TraceNode,
} from './traceApi';
import './traceability.css';
import { queryKeys } from '../../api/queryKeys';

type Tab = 'trace' | 'recall' | 'lots' | 'serials' | 'profiles';

const TABS: readonly { id: Tab; label: string; adminOnly: boolean }[] = [
  { id: 'trace', label: 'Trace', adminOnly: false },
  { id: 'recall', label: 'Recall impact', adminOnly: false },
  { id: 'lots', label: 'Lots', adminOnly: true },
  { id: 'serials', label: 'Serial numbers', adminOnly: true },
  { id: 'profiles', label: 'Customer profiles', adminOnly: true },
];

/** Material Traceability (`/admin/quality/traceability`): trace a serial, lot or spool number
 * forward to customers or backward to vendors, assess a recall, and (admins) browse the
 * material lots and serial numbers, record lots, consumptions and units, and keep customers'
 * traceability profiles. */
export function TraceabilityPage() {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((t) => admin || !t.adminOnly);
  const tab: Tab = tabs.find((t) => t.id === params.get('tab'))?.id ?? 'trace';
  const setTab = (t: Tab) => setParams(tabParams(params, t), { replace: true });
  return (
    <div className="page">
      <PageHeader
        title="Material Traceability"
        description="Follow a serial, lot or spool number to every work order, unit, order and customer it reached, or back to the spools, lots and vendors it came from."
      />
      <div className="tabs" role="tablist" aria-label="Traceability views">
        {tabs.map(({ id, label }) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={`tab${tab === id ? ' is-active' : ''}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'trace' && <TraceSection />}
      {tab === 'recall' && <RecallSection />}
      {tab === 'lots' && <LotsSection />}
      {tab === 'serials' && <SerialsSection />}
      {tab === 'profiles' && <ProfilesSection />}
    </div>
  );
}

function TraceSection() {
  const [params, setParams] = useSearchParams();
  const code = params.get('q')?.trim() ?? '';
  const direction: Direction = params.get('dir') === 'backward' ? 'BACKWARD' : 'FORWARD';
  const [draft, setDraft] = useState(code);
  const [draftDirection, setDraftDirection] = useState<Direction>(direction);

  const go = (q: string, dir: Direction) => {
    const next = new URLSearchParams(params);
    next.set('q', q);
    if (dir === 'BACKWARD') next.set('dir', 'backward');
    else next.delete('dir');
    setParams(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim()) go(draft.trim(), draftDirection);
  };
  const pick = (node: TraceNode) => {
    setDraft(node.code);
    go(node.code, direction);
  };

  const forward = useQuery({
    queryKey: queryKeys.traceability.forward(code),
    queryFn: ({ signal }) => traceApi.forward(code, signal),
    enabled: Boolean(code) && direction === 'FORWARD',
    retry: false,
  });
  const backward = useQuery({
    queryKey: queryKeys.traceability.graph(code, 'BACKWARD'),
    queryFn: ({ signal }) => traceApi.graph(code, 'BACKWARD', signal),
    enabled: Boolean(code) && direction === 'BACKWARD',
    retry: false,
  });
  const active = direction === 'FORWARD' ? forward : backward;

  return (
    <section className="trace-section" aria-label="Trace">
      <form className="card card--pad trace-search" onSubmit={submit} role="search">
        <label className="trace-search__field">
          <span className="field__label">Serial, lot or spool number</span>
          <input className="input" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="e.g. BLB-20261124-0001, PLA-2026-0003, SP-0042" aria-label="Serial, lot or spool number" autoFocus />
        </label>
        <div className="trace-search__direction" role="radiogroup" aria-label="Direction">
          {(
            [
              ['FORWARD', 'Where did it go?'],
              ['BACKWARD', 'What is it made of?'],
            ] as const
          ).map(([d, label]) => (
            <label key={d} className={`trace-toggle${draftDirection === d ? ' is-active' : ''}`}>
              <input type="radio" name="direction" value={d} checked={draftDirection === d} onChange={() => setDraftDirection(d)} />
              {label}
            </label>
          ))}
        </div>
        <Button type="submit" variant="primary" icon={<ScanSearch size={16} />} disabled={!draft.trim()}>
          Trace
        </Button>
      </form>

      {!code && (
        <EmptyState
          icon={<ScanSearch size={22} />}
          title="Start with a number"
          description="Type a finished unit's serial number, a material lot number or a spool number. Forward shows the work orders, units, orders and customers it reached; backward shows the spools, lots, purchase orders and vendors behind it."
        />
      )}
      {code && active.isPending && <TraceSkeleton />}
      {code && active.isError && <ErrorState error={active.error} onRetry={() => void active.refetch()} />}
      {code && direction === 'FORWARD' && forward.data && <ForwardResult trace={forward.data} onPick={pick} />}
      {code && direction === 'BACKWARD' && backward.data && (
        <>
          <dl className="stat-row" aria-label="Upstream counts">
            {backward.data.counts.map((c) => (
              <div className="stat" key={c.kind}>
                <dt>{humanize(c.kind)}s</dt>
                <dd>{c.count}</dd>
              </div>
            ))}
          </dl>
          <div className="card card--pad">
            <h2 className="section-title">Upstream of {backward.data.start.code}</h2>
            <TraceGraph nodes={backward.data.nodes} edges={backward.data.edges} onPick={pick} />
          </div>
        </>
      )}
    </section>
  );
}

function TraceSkeleton() {
  return (
    <div className="card card--pad" aria-busy="true" aria-label="Tracing">
      <Skeleton width="40%" height={18} />
      <Skeleton width="100%" height={160} />
    </div>
  );
}

function Summary({ trace }: { trace: ForwardTrace }) {
  const s = trace.summary;
  return (
    <dl className="stat-row" aria-label="Downstream counts">
      <div className="stat">
        <dt>Work orders</dt>
        <dd>{s.total_production_orders}</dd>
      </div>
      <div className="stat">
        <dt>Units</dt>
        <dd>{s.total_serial_numbers}</dd>
      </div>
      <div className={`stat${s.units_shipped > 0 ? ' stat--warning' : ''}`}>
        <dt>Shipped</dt>
        <dd>{s.units_shipped}</dd>
      </div>
      <div className="stat">
        <dt>On hand</dt>
        <dd>{s.units_on_hand}</dd>
      </div>
      <div className="stat">
        <dt>Sales orders</dt>
        <dd>{s.affected_sales_orders}</dd>
      </div>
      <div className={`stat${s.affected_customers > 0 ? ' stat--danger' : ''}`}>
        <dt>Customers</dt>
        <dd>{s.affected_customers}</dd>
      </div>
      <div className="stat">
        <dt>Material used</dt>
        <dd>{Number(s.total_consumed_g).toLocaleString()} g</dd>
      </div>
    </dl>
  );
}

function ForwardResult({ trace, onPick }: { trace: ForwardTrace; onPick?: (n: TraceNode) => void }) {
  const source = trace.sources.map((s) => `${humanize(s.kind)} ${s.code}`).join(', ');
  const file = (what: string) => `${what}-${trace.sources.map((s) => s.code).join('-') || 'trace'}.csv`;
  return (
    <>
      <Summary trace={trace} />
      {trace.purchase_info && (
        <p className="trace-origin">
          Bought as lot <strong>{trace.purchase_info.lot_number}</strong>
          {trace.purchase_info.po_number && <> on {trace.purchase_info.po_number}</>}
          {trace.purchase_info.vendor_name && <> from {trace.purchase_info.vendor_name}</>}
          {trace.purchase_info.received_date && <>, received {trace.purchase_info.received_date}</>}.
        </p>
      )}
      <div className="card card--pad">
        <h2 className="section-title">Downstream of {source}</h2>
        {trace.nodes.length <= trace.sources.length ? (
          <EmptyState compact icon={<ScanSearch size={20} />} title="Nothing downstream yet" description="No work order has used it so far." />
        ) : (
          <TraceGraph nodes={trace.nodes} edges={trace.edges} onPick={onPick} />
        )}
      </div>
      <CustomersCard customers={trace.summary.customers} onExport={() => saveText(toCsv(customerRows(trace.summary.customers)), file('customers'))} onExportUnits={trace.serial_numbers.length > 0 ? () => saveText(toCsv(unitRows(trace)), file('units')) : undefined} />
    </>
  );
}

function CustomersCard({ customers, onExport, onExportUnits }: { customers: readonly TraceCustomer[]; onExport: () => void; onExportUnits?: () => void }) {
  return (
    <div className="card card--pad">
      <div className="trace-card-head">
        <h2 className="section-title">Affected customers</h2>
        <div className="trace-card-head__actions">
          {onExportUnits && (
            <Button size="sm" variant="secondary" icon={<Download size={14} />} onClick={onExportUnits}>
              Export units CSV
            </Button>
          )}
          <Button size="sm" variant="secondary" icon={<Download size={14} />} onClick={onExport} disabled={customers.length === 0}>
            Export customers CSV
          </Button>
        </div>
      </div>
      {customers.length === 0 ? (
        <EmptyState compact icon={<ShieldAlert size={20} />} title="No customer affected" description="None of its units or work orders has reached a sales order." />
      ) : (
        <table className="table table--compact" aria-label="Affected customers">
          <thead>
            <tr>
              <th>Customer</th>
              <th>Email</th>
              <th>Orders</th>
            </tr>
          </thead>
          <tbody>
            {customers.map((c) => (
              <tr key={`${c.id ?? c.email ?? c.name}`}>
                <td className="cell-strong">{c.name ?? '—'}</td>
                <td>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : '—'}</td>
                <td className="mono">{c.order_numbers.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function RecallSection() {
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const assess = useMutation({
    mutationFn: (numbers: string[]) => traceApi.recallImpact({ lot_numbers: numbers, spool_numbers: numbers }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const numbers = parseNumbers(text);
    if (numbers.length === 0) {
      setFieldError('Enter at least one lot or spool number.');
      return;
    }
    if (numbers.length > 250) {
      setFieldError('At most 250 numbers at once.');
      return;
    }
    setFieldError(null);
    assess.mutate(numbers);
  };
  const result = assess.data;
  // Each number was looked up as a lot and as a spool; it is unknown only if it is neither.
  const unknown = result
    ? [...new Set(result.not_found.map((n) => n.toUpperCase()))].filter(
        (n) => result.not_found.filter((m) => m.toUpperCase() === n).length > 1,
      )
    : [];
  return (
    <section className="trace-section" aria-label="Recall impact">
      <form className="card card--pad" onSubmit={submit}>
        <TextAreaField
          label="Suspect lots and spools"
          hint="One per line or separated by commas: material lot numbers and spool numbers."
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={fieldError}
          rows={4}
        />
        <FormError message={assess.isError ? errorMessage(assess.error) : null} title="Could not assess the recall" />
        <div>
          <Button type="submit" variant="primary" icon={<ShieldAlert size={16} />} loading={assess.isPending}>
            Assess impact
          </Button>
        </div>
      </form>
      {result && (
        <>
          {unknown.length > 0 && (
            <p className="trace-warning" role="status">
              Not found: {unknown.join(', ')}
            </p>
          )}
          <ForwardResult trace={result} />
        </>
      )}
    </section>
  );
}
