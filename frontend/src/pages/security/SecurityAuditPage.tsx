import type { SortBy, AuditLogQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { useEffect, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { auditApi } from '../../api/endpoints';
import type { AuditLogEntry, AuditLogPage } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { useDebouncedValue } from '../../lib/useDebounce';
import { SecurityScanSection } from './SecurityScanSection';

/** What the server sorts this list by. */
const SORTS = ['created_at', 'event_type', 'outcome', 'user_email', 'ip_address'] as const satisfies readonly SortBy<AuditLogQuery>[];

const OUTCOME_TONE: Record<string, 'success' | 'danger' | 'warning' | 'neutral'> = {
  success: 'success',
  failure: 'danger',
  failed: 'danger',
  denied: 'warning',
};

const columns: Column<AuditLogEntry>[] = [
  { key: 'created_at', header: 'When', shrink: true, sortable: true, render: (r) => formatDateTime(r.created_at) },
  { key: 'event_type', header: 'Event', sortable: true, render: (r) => <span className="cell-strong">{humanize(r.event_type)}</span> },
  { key: 'outcome', header: 'Outcome', shrink: true, sortable: true, render: (r) => <Badge tone={OUTCOME_TONE[r.outcome] ?? 'neutral'}>{humanize(r.outcome)}</Badge> },
  { key: 'user', header: 'User', render: (r) => r.user_email ?? (r.user_id ? `#${r.user_id}` : '—') },
  { key: 'ip_address', header: 'IP address', shrink: true, hideOnTablet: true, render: (r) => <span className="mono">{r.ip_address ?? '—'}</span> },
  { key: 'request_id', header: 'Request', shrink: true, hideOnTablet: true, render: (r) => <span className="mono muted" title={r.request_id ?? undefined}>{r.request_id ? r.request_id.slice(0, 8) : '—'}</span> },
];

export function SecurityAuditPage() {
  const list = useServerList({
    area: 'security',
    filters: ['event', 'since', 'until'],
    searchable: false,
    fetch: (r, signal) =>
      auditApi.list(
        {
          limit: r.limit,
          offset: r.offset,
          event_type: r.filters.event || undefined,
          since: r.filters.since || undefined,
          until: r.filters.until || undefined,
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    select: (data: AuditLogPage) => ({ rows: data.items, total: data.total }),
  });
  const { table } = list;

  return (
    <div className="page">
      <PageHeader title="Security Audit" description="Sign-ins, password resets, role changes and other security events." />
      <SecurityScanSection />
      <DataTable
        caption="Security events"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        filters={
          <>
            <EventTypeFilter value={table.filters.event ?? ''} onChange={(v) => table.setFilter('event', v)} />
            <input className="input" type="date" aria-label="From date" value={table.filters.since ?? ''} onChange={(e) => table.setFilter('since', e.target.value)} />
            <input className="input" type="date" aria-label="To date" value={table.filters.until ?? ''} onChange={(e) => table.setFilter('until', e.target.value)} />
          </>
        }
        empty={{ icon: <ShieldCheck size={22} />, title: 'No security events yet' }}
      />
    </div>
  );
}

function EventTypeFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text.trim(), 400);
  useEffect(() => {
    if (debounced !== value) onChange(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- react to the typed text only
  }, [debounced]);
  return <input className="input" aria-label="Event type" placeholder="Event type, e.g. login" value={text} onChange={(e) => setText(e.target.value)} />;
}
