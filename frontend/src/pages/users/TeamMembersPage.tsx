import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { UserCog, UserPlus } from 'lucide-react';
import { usersApi } from '../../api/endpoints';
import type { TeamUser, TeamUserListQuery } from '../../api/types';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';
import { AddMemberModal } from './AddMemberModal';

const columns: Column<TeamUser>[] = [
  {
    key: 'name',
    header: 'Member',
    sortValue: (r) => r.full_name ?? r.email,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.full_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email}</span>
        <span className="cell-sub">{r.email}</span>
      </div>
    ),
  },
  { key: 'account_type', header: 'Role', shrink: true, sortValue: (r) => r.account_type, render: (r) => <Badge tone={r.account_type === 'admin' ? 'info' : 'neutral'}>{r.account_type === 'admin' ? 'Administrator' : 'Operator'}</Badge> },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={r.status === 'active' ? 'success' : r.status === 'suspended' ? 'danger' : 'neutral'}>{humanize(r.status)}</Badge> },
  { key: 'last_login_at', header: 'Last sign-in', shrink: true, sortValue: (r) => r.last_login_at, render: (r) => formatDateTime(r.last_login_at) },
  { key: 'created_at', header: 'Added', shrink: true, hideOnTablet: true, sortValue: (r) => r.created_at, render: (r) => formatDateTime(r.created_at) },
];

export function TeamMembersPage() {
  const table = useTableState(['role', 'status']);
  const [adding, setAdding] = useState(false);
  const rawRole = table.filters.role;
  const role = rawRole === 'admin' || rawRole === 'operator' ? rawRole : undefined;
  const includeInactive = table.filters.status === 'all';
  const query: TeamUserListQuery = { skip: table.offset, limit: table.pageSize, account_type: role, include_inactive: includeInactive };
  const list = useQuery({
    queryKey: ['users', 'list', query],
    queryFn: ({ signal }) => usersApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="users" />;

  return (
    <div className="page">
      <PageHeader
        title="Team Members"
        description="The administrators and operators who use Strata."
        actions={
          <Button variant="primary" icon={<UserPlus size={16} />} onClick={() => setAdding(true)}>
            Add member
          </Button>
        }
      />
      <DataTable
        caption="Team members"
        columns={columns}
        rows={list.data}
        rowKey={(r) => r.id}
        page={table.page}
        pageSize={table.pageSize}
        onPageChange={table.setPage}
        onPageSizeChange={table.setPageSize}
        sort={table.sort}
        onSortChange={table.setSort}
        clientSort
        filters={
          <>
            <select className="input input--select" aria-label="Role" value={role ?? ''} onChange={(e) => table.setFilter('role', e.target.value)}>
              <option value="">All roles</option>
              <option value="admin">Administrators</option>
              <option value="operator">Operators</option>
            </select>
            <select className="input input--select" aria-label="Status" value={includeInactive ? 'all' : ''} onChange={(e) => table.setFilter('status', e.target.value)}>
              <option value="">Active only</option>
              <option value="all">Active and inactive</option>
            </select>
          </>
        }
        filtered={Boolean(role || includeInactive)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{ icon: <UserCog size={22} />, title: 'No team members', description: 'Administrators and operators you add appear here.' }}
      />
      <AddMemberModal open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}
