import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { accountingApi } from '../../api/endpoints';
import type { LedgerLine } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { Modal } from '../../components/Modal';
import { Badge } from '../../components/States';
import { formatMoney, humanize, toNumber } from '../../lib/format';
import { ACCOUNT_TYPE_LABEL, ACCOUNT_TYPE_TONE, formatDate } from './accountingFormat';
import { queryKeys } from '../../api/queryKeys';

const PAGE = 25;

/** One account's lines, oldest first, with the running balance the server computes. */
export function LedgerModal({ accountCode, asOfDate, onClose, onEntry }: { accountCode: string | null; asOfDate?: string; onClose: () => void; onEntry: (id: number) => void }) {
  const [page, setPage] = useState(1);
  const [lastCode, setLastCode] = useState(accountCode);
  if (accountCode !== lastCode) {
    setLastCode(accountCode);
    setPage(1);
  }
  const q = { end_date: asOfDate, limit: PAGE, offset: (page - 1) * PAGE };
  const ledger = useQuery({
    queryKey: queryKeys.accounting.ledger(accountCode, q),
    queryFn: ({ signal }) => accountingApi.ledger(accountCode!, q, signal),
    enabled: accountCode !== null,
    placeholderData: keepPreviousData,
  });
  const d = ledger.data?.account_code === accountCode ? ledger.data : undefined;
  const columns: Column<LedgerLine>[] = [
    { key: 'entry_date', header: 'Date', shrink: true, render: (l) => formatDate(l.entry_date) },
    {
      key: 'entry',
      header: 'Entry',
      render: (l) => (
        <div className="cell-stack">
          <button type="button" className="link-btn mono" onClick={() => onEntry(l.journal_entry_id)}>
            {l.entry_number}
          </button>
          <span className="cell-sub">
            {l.description}
            {l.source_type ? ` · ${humanize(l.source_type)}` : ''}
          </span>
        </div>
      ),
    },
    { key: 'debit', header: 'Debit', align: 'right', shrink: true, render: (l) => <span className="num">{toNumber(l.debit) ? formatMoney(l.debit) : ''}</span> },
    { key: 'credit', header: 'Credit', align: 'right', shrink: true, render: (l) => <span className="num">{toNumber(l.credit) ? formatMoney(l.credit) : ''}</span> },
    {
      key: 'running_balance',
      header: 'Balance',
      align: 'right',
      shrink: true,
      render: (l) => <span className="num cell-strong">{formatMoney(l.running_balance)}</span>,
    },
  ];
  return (
    <Modal
      open={accountCode !== null}
      onClose={onClose}
      size="lg"
      title={d ? `${d.account_code} · ${d.account_name}` : `Account ${accountCode ?? ''}`}
      description={
        d ? (
          <span className="cell-inline">
            <Badge tone={ACCOUNT_TYPE_TONE[d.account_type]}>{ACCOUNT_TYPE_LABEL[d.account_type]}</Badge>
            {d.total} {d.total === 1 ? 'line' : 'lines'}
            {asOfDate ? ` up to ${formatDate(asOfDate)}` : ''}
          </span>
        ) : undefined
      }
    >
      <DataTable
        caption="Account ledger"
        columns={columns}
        rows={d?.lines}
        total={d?.total}
        rowKey={(l) => `${l.journal_entry_id}-${l.running_balance}-${l.debit}-${l.credit}`}
        page={page}
        pageSize={PAGE}
        onPageChange={setPage}
        loading={ledger.isPending || (!d && ledger.isFetching)}
        fetching={ledger.isFetching}
        error={ledger.error}
        onRetry={() => void ledger.refetch()}
        empty={{ title: 'No entries on this account', description: 'Postings appear here as soon as a transaction touches the account.' }}
      />
    </Modal>
  );
}
