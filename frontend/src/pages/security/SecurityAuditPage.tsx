import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { auditApi } from '../../api/endpoints';
import type { AuditLogEntry } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { useDebouncedValue } from '../../lib/useDebounce';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';

const OUTCOME_TONE: Record<string, 'success' | 'danger' | 'warning' | 'neutral'> = {
  success: 'success',
  failure: 'danger',
  failed: 'danger',
  denied: 'warning',
};

const columns: Column<AuditLogEntry>[] = [
  { key: 'created_at', header: 'When', shrink: true, render: (r) => formatDateTime(r.created_at) },
  { key: 'event_type', header: 'Event', render: (r) => <span className="cell-strong">{humanize(r.event_type)}</span> },
  { key: 'outcome', header: 'Outcome', shrink: true, render: (r) => <Badge tone={OUTCOME_TONE[r.outcome] ?? 'neutral'}>{humanize(r.outcome)}</Badge> },
  { key: 'user', header: 'User', render: (r) => r.user_email ?? (r.user_id ? `#${r.user_id}` : '—') },
  { key: 'ip_address', header: 'IP address', shrink: true, hideOnTablet: true, render: (r) => <span className="mono">{r.ip_address ?? '—'}</span> },
  { key: 'request_id', header: 'Request', shrink: true, hideOnTablet: true, render: (r) => <span className="mono muted" title={r.request_id ?? undefined}>{r.request_id ? r.request_id.slice(0, 8) : '—'}</span> },
];

export function SecurityAuditPage() {
  const table = useTableState(['event', 'since', 'until']);
  const query = {
    limit: table.pageSize,
    offset: table.offset,
    event_type: table.filters.event || undefined,
    since: table.filters.since || undefined,
    until: table.filters.until || undefined,
  };
  const list = useQuery({
    queryKey: ['security', 'audit', query],
    queryFn: ({ signal }) => auditApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="security" />;

  return (
    <div className="page">
      <PageHeader title="Security Audit" description="Sign-ins, password resets, role changes and other security events." />
      <DataTable
        caption="Security events"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        rowKey={(r) => r.id}
        page={table.page}
        pageSize={table.pageSize}
        onPageChange={table.setPage}
        onPageSizeChange={table.setPageSize}
        filters={
          <>
            <EventTypeFilter value={table.filters.event ?? ''} onChange={(v) => table.setFilter('event', v)} />
            <input className="input" type="date" aria-label="From date" value={table.filters.since ?? ''} onChange={(e) => table.setFilter('since', e.target.value)} />
            <input className="input" type="date" aria-label="To date" value={table.filters.until ?? ''} onChange={(e) => table.setFilter('until', e.target.value)} />
          </>
        }
        filtered={Boolean(table.filters.event || table.filters.since || table.filters.until)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
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
