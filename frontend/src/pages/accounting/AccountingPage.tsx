import { lazy, Suspense, useState } from 'react';
import { NavLink, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck, CheckCircle2, Lock, LockOpen, Receipt, Scale, XCircle } from 'lucide-react';
import { accountingApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { FiscalPeriod, JournalEntry, TrialBalance } from '../../api/model';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, humanize, toNumber } from '../../lib/format';
import { ACCOUNT_TYPE_LABEL, ACCOUNT_TYPE_TONE, formatDate, periodName, today } from './accountingFormat';
import { JournalEntryModal } from './JournalEntryModal';
import { JournalsSection } from './JournalsSection';
import { LedgerModal } from './LedgerModal';
import { ReceivablesAgingSection } from './ReceivablesAgingSection';
import type { ValuationBar } from './ValuationChart';
import { queryKeys } from '../../api/queryKeys';

const ValuationChart = lazy(() => import('./ValuationChart'));

const TABS = [
  { id: 'trial-balance', label: 'Trial balance' },
  { id: 'valuation', label: 'Inventory valuation' },
  { id: 'entries', label: 'Journal entries' },
  { id: 'journals', label: 'Journals' },
  { id: 'receivables', label: 'AR ageing' },
  { id: 'periods', label: 'Fiscal periods' },
] as const;
type Tab = (typeof TABS)[number]['id'];

function Loading({ rows = 6 }: { rows?: number }) {
  return (
    <div className="card card--pad" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={24} />
      ))}
    </div>
  );
}

function Failed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="card">
      <ErrorState error={error} onRetry={onRetry} />
    </div>
  );
}

export function AccountingPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'trial-balance';
  const asOf = params.get('as_of') ?? '';
  const [account, setAccount] = useState<string | null>(null);
  const [entry, setEntry] = useState<{ id: number; data?: JournalEntry } | null>(null);

  const summary = useQuery({
    queryKey: queryKeys.accounting.summary(asOf),
    queryFn: ({ signal }) => accountingApi.summary(asOf || undefined, signal),
  });

  const s = summary.data;
  const kpis = s
    ? [
        { label: 'Assets', value: s.total_assets },
        { label: 'Liabilities', value: s.total_liabilities },
        { label: 'Equity', value: s.total_equity },
        { label: 'Net income', value: s.net_income, hint: `${formatMoney(s.total_revenue)} revenue · ${formatMoney(s.total_expenses)} expenses` },
        { label: 'Inventory value', value: s.inventory_value },
      ]
    : [];

  const tabHref = (id: Tab) => {
    const next = new URLSearchParams(params);
    if (id === 'trial-balance') next.delete('tab');
    else next.set('tab', id);
    const qs = next.toString();
    return `/admin/accounting${qs ? `?${qs}` : ''}`;
  };

  return (
    <div className="page">
      <PageHeader
        title="Accounting"
        description="The general ledger behind inventory, purchasing and sales: balances, valuation, journal entries, receivables and periods."
      />
      <section aria-label="Key figures" className="kpi-grid">
        {summary.isPending &&
          Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="kpi">
              <Skeleton width="50%" />
              <Skeleton width="45%" height={26} />
            </div>
          ))}
        {kpis.map((k) => (
          <div key={k.label} className="kpi">
            <span className="kpi__label">{k.label}</span>
            <span className={`kpi__value${(toNumber(k.value) ?? 0) < 0 ? ' text-danger' : ''}`}>{formatMoney(k.value)}</span>
            <span className="kpi__hint">{k.hint ?? `As of ${formatDate(s?.as_of_date)}`}</span>
          </div>
        ))}
        {summary.error && (
          <div className="kpi-grid__notice">
            <XCircle size={18} aria-hidden="true" />
            <div>
              <strong>Key figures could not be loaded</strong>
              <span>{errorMessage(summary.error)}</span>
            </div>
            <Button size="sm" onClick={() => void summary.refetch()}>
              Try again
            </Button>
          </div>
        )}
      </section>

      <nav className="tabs" aria-label="Accounting sections">
        {TABS.map((t) => (
          <NavLink key={t.id} to={tabHref(t.id)} end className={() => `tab${tab === t.id ? ' is-active' : ''}`} aria-current={tab === t.id ? 'page' : undefined}>
            {t.label}
          </NavLink>
        ))}
      </nav>

      {tab === 'trial-balance' && (
        <TrialBalanceSection
          asOf={asOf}
          onAsOf={(d) => {
            const next = new URLSearchParams(params);
            if (d) next.set('as_of', d);
            else next.delete('as_of');
            setParams(next, { replace: true });
          }}
          onAccount={setAccount}
        />
      )}
      {tab === 'valuation' && <ValuationSection onAccount={setAccount} />}
      {tab === 'entries' && <EntriesSection onEntry={(e) => setEntry({ id: e.id, data: e })} />}
      {tab === 'journals' && <JournalsSection />}
      {tab === 'receivables' && <ReceivablesAgingSection />}
      {tab === 'periods' && <PeriodsSection />}

      <LedgerModal accountCode={account} asOfDate={tab === 'trial-balance' ? asOf || undefined : undefined} onClose={() => setAccount(null)}
        onEntry={(id) => {
          setAccount(null);
          setEntry({ id });
        }}
      />
      <JournalEntryModal
        entryId={entry?.id ?? null}
        entry={entry?.data}
        onClose={() => setEntry(null)}
        onAccount={(code) => {
          setEntry(null);
          setAccount(code);
        }}
      />
    </div>
  );
}

// ------------------------------------------------------------ trial balance
function TrialBalanceSection({ asOf, onAsOf, onAccount }: { asOf: string; onAsOf: (d: string) => void; onAccount: (code: string) => void }) {
  const [includeZero, setIncludeZero] = useState(false);
  const tb = useQuery({
    queryKey: queryKeys.accounting.trialBalance(asOf, includeZero),
    queryFn: ({ signal }) => accountingApi.trialBalance({ as_of_date: asOf || undefined, include_zero_balances: includeZero }, signal),
  });
  return (
    <section className="card" aria-labelledby="tb-title">
      <header className="card__header card__row">
        <div>
          <h2 id="tb-title" className="card__title">
            Trial balance
          </h2>
          <p className="muted">Every account’s balance on its normal side. Click an account to see its ledger.</p>
        </div>
        <div className="toolbar">
          <label className="inline-field">
            <span>As of</span>
            <input type="date" className="input input--sm" aria-label="As of date" value={asOf || today()} max={today()} onChange={(e) => onAsOf(e.target.value === today() ? '' : e.target.value)} />
          </label>
          <label className="checkbox checkbox--inline">
            <input type="checkbox" checked={includeZero} onChange={(e) => setIncludeZero(e.target.checked)} />
            <span>Zero balances</span>
          </label>
        </div>
      </header>
      {tb.isPending ? (
        <Loading />
      ) : tb.error ? (
        <ErrorState error={tb.error} onRetry={() => void tb.refetch()} compact />
      ) : (
        <TrialBalanceTable tb={tb.data} onAccount={onAccount} />
      )}
    </section>
  );
}

function BalanceIndicator({ tb }: { tb: TrialBalance }) {
  return tb.is_balanced ? (
    <div className="balance-flag balance-flag--ok" role="status" data-testid="balance-indicator">
      <CheckCircle2 size={18} aria-hidden="true" />
      <span>
        <strong>Balanced</strong> · debits equal credits as of {formatDate(tb.as_of_date)}
      </span>
    </div>
  ) : (
    <div className="balance-flag balance-flag--bad" role="alert" data-testid="balance-indicator">
      <XCircle size={18} aria-hidden="true" />
      <span>
        <strong>Out of balance by {formatMoney(tb.variance)}</strong> · debits and credits differ as of {formatDate(tb.as_of_date)}
      </span>
    </div>
  );
}

function TrialBalanceTable({ tb, onAccount }: { tb: TrialBalance; onAccount: (code: string) => void }) {
  if (tb.accounts.length === 0) {
    return (
      <>
        <div className="card__body">
          <BalanceIndicator tb={tb} />
        </div>
        <EmptyState compact icon={<Scale size={22} />} title="No balances yet" description="Accounts get balances as soon as stock is received, counted or shipped." />
      </>
    );
  }
  return (
    <>
      <div className="card__body">
        <BalanceIndicator tb={tb} />
      </div>
      <div className="datatable__scroll">
        <table className="table" aria-label="Trial balance">
          <thead>
            <tr>
              <th scope="col" className="shrink">
                Code
              </th>
              <th scope="col">Account</th>
              <th scope="col" className="shrink hide-tablet">
                Type
              </th>
              <th scope="col" className="align-right shrink">
                Debit
              </th>
              <th scope="col" className="align-right shrink">
                Credit
              </th>
            </tr>
          </thead>
          <tbody>
            {tb.accounts.map((a) => (
              <tr key={a.account_code} className="is-clickable" tabIndex={0} aria-label={`Ledger of ${a.account_code} ${a.account_name}`} onClick={() => onAccount(a.account_code)} onKeyDown={(e) => e.key === 'Enter' && onAccount(a.account_code)}>
                <td className="shrink">
                  <span className="mono">{a.account_code}</span>
                </td>
                <td className="cell-strong">{a.account_name}</td>
                <td className="shrink hide-tablet">
                  <Badge tone={ACCOUNT_TYPE_TONE[a.account_type]}>{ACCOUNT_TYPE_LABEL[a.account_type]}</Badge>
                </td>
                <td className="align-right shrink num">{toNumber(a.debit_balance) ? formatMoney(a.debit_balance) : ''}</td>
                <td className="align-right shrink num">{toNumber(a.credit_balance) ? formatMoney(a.credit_balance) : ''}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className={tb.is_balanced ? 'totals' : 'totals totals--bad'}>
              <th scope="row" colSpan={2}>
                Totals
              </th>
              <td className="hide-tablet" />
              <td className="align-right num" data-testid="total-debits">
                {formatMoney(tb.total_debits)}
              </td>
              <td className="align-right num" data-testid="total-credits">
                {formatMoney(tb.total_credits)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}

// ------------------------------------------------------------ inventory valuation
function ValuationSection({ onAccount }: { onAccount: (code: string) => void }) {
  const v = useQuery({ queryKey: queryKeys.accounting.valuation(), queryFn: ({ signal }) => accountingApi.inventoryValuation(signal) });
  if (v.isPending) return <Loading />;
  if (v.error) return <Failed error={v.error} onRetry={() => void v.refetch()} />;
  const d = v.data;
  const chart: ValuationBar[] = d.categories.map((c) => ({
    name: c.account_name.replace(/ Inventory$/, ''),
    'Stock value': toNumber(c.inventory_value) ?? 0,
    'Ledger balance': toNumber(c.gl_balance) ?? 0,
  }));
  return (
    <div className="split">
      <section className="card" aria-labelledby="val-title">
        <header className="card__header card__row">
          <div>
            <h2 id="val-title" className="card__title">
              Inventory valuation
            </h2>
            <p className="muted">Stock on hand at cost, next to the balance of its inventory account, as of {formatDate(d.as_of_date)}.</p>
          </div>
          {d.is_reconciled ? <Badge tone="success">Reconciled</Badge> : <Badge tone="danger">Variance {formatMoney(d.total_variance)}</Badge>}
        </header>
        {d.categories.length === 0 ? (
          <EmptyState compact icon={<Scale size={22} />} title="No inventory yet" description="Receive stock to see its value here." />
        ) : (
          <div className="datatable__scroll">
            <table className="table" aria-label="Inventory valuation">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col" className="align-right shrink">
                    Items
                  </th>
                  <th scope="col" className="align-right shrink hide-tablet">
                    Quantity
                  </th>
                  <th scope="col" className="align-right shrink">
                    Stock value
                  </th>
                  <th scope="col" className="align-right shrink">
                    Ledger
                  </th>
                  <th scope="col" className="align-right shrink">
                    Variance
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.categories.map((c) => (
                  <tr key={c.account_code} className="is-clickable" tabIndex={0} aria-label={`Ledger of ${c.account_code} ${c.account_name}`} onClick={() => onAccount(c.account_code)} onKeyDown={(e) => e.key === 'Enter' && onAccount(c.account_code)}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{c.account_name}</span>
                        <span className="cell-sub mono">{c.account_code}</span>
                      </div>
                    </td>
                    <td className="align-right shrink num">{c.item_count}</td>
                    <td className="align-right shrink num hide-tablet">{formatQty(c.total_quantity)}</td>
                    <td className="align-right shrink num">{formatMoney(c.inventory_value)}</td>
                    <td className="align-right shrink num">{formatMoney(c.gl_balance)}</td>
                    <td className={`align-right shrink num${toNumber(c.variance) ? ' text-danger' : ' muted'}`}>{formatMoney(c.variance)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="totals">
                  <th scope="row" colSpan={3}>
                    Total
                  </th>
                  <td className="align-right num">{formatMoney(d.total_inventory_value)}</td>
                  <td className="align-right num">{formatMoney(d.total_gl_balance)}</td>
                  <td className={`align-right num${toNumber(d.total_variance) ? ' text-danger' : ''}`}>{formatMoney(d.total_variance)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
      {d.categories.length > 0 && (
        <section className="card" aria-labelledby="val-chart-title">
          <header className="card__header">
            <h2 id="val-chart-title" className="card__title">
              Value by inventory type
            </h2>
          </header>
          <div className="chart" role="img" aria-label={`Bar chart: ${chart.map((c) => `${c.name} ${formatMoney(c['Stock value'])}`).join(', ')}`}>
            <Suspense fallback={<Skeleton height={260} />}>
              <ValuationChart data={chart} />
            </Suspense>
          </div>
        </section>
      )}
    </div>
  );
}

// ------------------------------------------------------------ journal entries
function EntriesSection({ onEntry }: { onEntry: (e: JournalEntry) => void }) {
  const [limit, setLimit] = useState(25);
  const entries = useQuery({ queryKey: queryKeys.accounting.recent(limit), queryFn: ({ signal }) => accountingApi.recentEntries(limit, signal) });
  if (entries.isPending) return <Loading />;
  if (entries.error) return <Failed error={entries.error} onRetry={() => void entries.refetch()} />;
  const rows = entries.data;
  return (
    <section className="card" aria-labelledby="je-title">
      <header className="card__header">
        <h2 id="je-title" className="card__title">
          Recent journal entries
        </h2>
        <p className="muted">Posted automatically by receipts, counts, production and shipping. Click an entry to see its lines.</p>
      </header>
      {rows.length === 0 ? (
        <EmptyState compact icon={<Receipt size={22} />} title="No journal entries yet" description="Entries appear as soon as stock moves or orders ship." />
      ) : (
        <div className="datatable__scroll">
          <table className="table" aria-label="Journal entries">
            <thead>
              <tr>
                <th scope="col" className="shrink">
                  Entry
                </th>
                <th scope="col" className="shrink">
                  Date
                </th>
                <th scope="col">Description</th>
                <th scope="col" className="shrink hide-tablet">
                  Source
                </th>
                <th scope="col" className="shrink hide-tablet">
                  Accounts
                </th>
                <th scope="col" className="align-right shrink">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} className="is-clickable" tabIndex={0} aria-label={`Entry ${e.entry_number}`} onClick={() => onEntry(e)} onKeyDown={(ev) => ev.key === 'Enter' && onEntry(e)}>
                  <td className="shrink">
                    <span className="mono">{e.entry_number}</span>
                  </td>
                  <td className="shrink">{formatDate(e.entry_date)}</td>
                  <td>
                    <span className="cell-strong">{e.description}</span>
                  </td>
                  <td className="shrink hide-tablet">{e.source_type ? <Badge>{humanize(e.source_type)}</Badge> : '—'}</td>
                  <td className="shrink hide-tablet mono muted">{[...new Set(e.lines.map((l) => l.account_code))].join(' · ')}</td>
                  <td className="align-right shrink num cell-strong">{formatMoney(e.total_debit)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length >= limit && limit < 250 && (
        <footer className="card__footer">
          <Button size="sm" onClick={() => setLimit((l) => Math.min(250, l * 2))} loading={entries.isFetching}>
            Show more
          </Button>
        </footer>
      )}
    </section>
  );
}

// ------------------------------------------------------------ fiscal periods
function PeriodsSection() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [closing, setClosing] = useState<FiscalPeriod | null>(null);
  const periods = useQuery({ queryKey: queryKeys.accounting.periods(), queryFn: ({ signal }) => accountingApi.periods(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.accounting.all });
  const close = useMutation({
    mutationFn: (p: FiscalPeriod) => accountingApi.closePeriod(p.id),
    onSuccess: async (p) => {
      setClosing(null);
      toast.success('Period closed', `${periodName(p.year, p.period)} is closed: postings dated in it are refused.`);
      await refresh();
    },
    onError: (err) => {
      setClosing(null);
      toast.error('The period was not closed', errorMessage(err));
    },
  });
  const reopen = useMutation({
    mutationFn: (p: FiscalPeriod) => accountingApi.reopenPeriod(p.id),
    onSuccess: async (p) => {
      toast.success('Period reopened', `${periodName(p.year, p.period)} accepts postings again.`);
      await refresh();
    },
    onError: (err) => toast.error('The period was not reopened', errorMessage(err)),
  });
  if (periods.isPending) return <Loading rows={4} />;
  if (periods.error) return <Failed error={periods.error} onRetry={() => void periods.refetch()} />;
  return (
    <section className="card" aria-labelledby="fp-title">
      <header className="card__header">
        <h2 id="fp-title" className="card__title">
          Fiscal periods
        </h2>
        <p className="muted">Calendar months. Close a month once its books are final; nothing can be posted into a closed period until it is reopened.</p>
      </header>
      {periods.data.length === 0 ? (
        <EmptyState compact icon={<CalendarCheck size={22} />} title="No periods yet" description="A period opens with the first posting of each month." />
      ) : (
        <div className="datatable__scroll">
          <table className="table" aria-label="Fiscal periods">
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col" className="hide-tablet">
                  Dates
                </th>
                <th scope="col" className="shrink">
                  Status
                </th>
                <th scope="col" className="shrink hide-tablet">
                  Closed
                </th>
                <th scope="col" className="align-right shrink">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {periods.data.map((p) => (
                <tr key={p.id} aria-label={periodName(p.year, p.period)}>
                  <td className="cell-strong">{periodName(p.year, p.period)}</td>
                  <td className="hide-tablet muted">
                    {formatDate(p.start_date)} – {formatDate(p.end_date)}
                  </td>
                  <td className="shrink">{p.status === 'open' ? <Badge tone="success">Open</Badge> : <Badge>Closed</Badge>}</td>
                  <td className="shrink hide-tablet muted">{p.closed_at ? formatDateTime(p.closed_at) : '—'}</td>
                  <td className="align-right shrink">
                    {p.status === 'open' ? (
                      <Button size="sm" icon={<Lock size={14} />} onClick={() => setClosing(p)} aria-label={`Close ${periodName(p.year, p.period)}`}>
                        Close
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        icon={<LockOpen size={14} />}
                        loading={reopen.isPending && reopen.variables?.id === p.id}
                        onClick={() => reopen.mutate(p)}
                        aria-label={`Reopen ${periodName(p.year, p.period)}`}
                      >
                        Reopen
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={closing !== null}
        title={closing ? `Close ${periodName(closing.year, closing.period)}?` : 'Close this period?'}
        message="Receipts, counts, shipments and any other posting dated in this month will be refused until the period is reopened."
        confirmLabel="Close period"
        busy={close.isPending}
        onConfirm={() => closing && close.mutate(closing)}
        onCancel={() => setClosing(null)}
      />
    </section>
  );
}
