import type { SortBy, TeamUserListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { useState } from 'react';
import { UserCog, UserPlus } from 'lucide-react';
import { usersApi } from '../../api/endpoints';
import type { TeamUser, TeamUserList } from '../../api/model';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { AddMemberModal } from './AddMemberModal';
import { ResetRequestsPanel } from './ResetRequestsPanel';
import './users.css';

/** What the server sorts this list by. */
const SORTS = ['email', 'first_name', 'last_name', 'status', 'account_type', 'last_login_at', 'created_at', 'updated_at'] as const satisfies readonly SortBy<TeamUserListQuery>[];

const columns: Column<TeamUser>[] = [
  {
    key: 'full_name',
    sortKey: 'last_name',
    header: 'Member',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.full_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email}</span>
        <span className="cell-sub">{r.email}</span>
      </div>
    ),
  },
  { key: 'account_type', header: 'Role', shrink: true, sortable: true, render: (r) => <Badge tone={r.account_type === 'admin' ? 'info' : 'neutral'}>{r.account_type === 'admin' ? 'Administrator' : 'Operator'}</Badge> },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={r.status === 'active' ? 'success' : r.status === 'suspended' ? 'danger' : 'neutral'}>{humanize(r.status)}</Badge> },
  { key: 'last_login_at', header: 'Last sign-in', shrink: true, sortable: true, render: (r) => formatDateTime(r.last_login_at) },
  { key: 'created_at', header: 'Added', shrink: true, hideOnTablet: true, sortable: true, render: (r) => formatDateTime(r.created_at) },
];

function asRole(value: string | undefined): 'admin' | 'operator' | undefined {
  return value === 'admin' || value === 'operator' ? value : undefined;
}

export function TeamMembersPage() {
  const [adding, setAdding] = useState(false);
  const list = useServerList({
    area: 'users',
    filters: ['role', 'status'],
    fetch: (r, signal) =>
      usersApi.list(
        {
          skip: r.offset,
          limit: r.limit,
          search: r.search,
          account_type: asRole(r.filters.role),
          include_inactive: r.filters.status === 'all',
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: no total, so the pager offers "next" while pages are full.
    select: (rows: TeamUserList) => ({ rows }),
  });
  const { table } = list;
  const role = asRole(table.filters.role);
  const includeInactive = table.filters.status === 'all';

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
      <ResetRequestsPanel />
      <DataTable
        caption="Team members"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search name or email"
        searchLabel="Search team members"
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
        empty={{ icon: <UserCog size={22} />, title: 'No team members', description: 'Administrators and operators you add appear here.' }}
      />
      <AddMemberModal open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}
