import { useQuery } from '@tanstack/react-query';
import { accountingApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { JournalEntry } from '../../api/model';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Badge, Skeleton } from '../../components/States';
import { formatMoney, humanize, toNumber } from '../../lib/format';
import { formatDate } from './accountingFormat';
import { queryKeys } from '../../api/queryKeys';

/** One journal entry with its lines; loads it unless the caller already has it. */
export function JournalEntryModal({ entryId, entry, onClose, onAccount }: { entryId: number | null; entry?: JournalEntry | null; onClose: () => void; onAccount?: (code: string) => void }) {
  const detail = useQuery({
    queryKey: queryKeys.accounting.entry(entryId),
    queryFn: ({ signal }) => accountingApi.journalEntry(entryId!, signal),
    enabled: entryId !== null && !entry,
  });
  const data = entry ?? detail.data;
  const totalCredit = (data?.lines ?? []).reduce((s, l) => s + (toNumber(l.credit_amount) ?? 0), 0);
  return (
    <Modal open={entryId !== null} onClose={onClose} size="lg" title={data ? `Journal entry ${data.entry_number}` : 'Journal entry'} description={data?.description}>
      {!data && detail.isPending ? (
        <div className="form" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={28} />
          ))}
        </div>
      ) : !data ? (
        <FormError message={errorMessage(detail.error)} title="The entry could not be loaded." />
      ) : (
        <div className="form">
          <dl className="meta-list">
            <div>
              <dt>Date</dt>
              <dd>{formatDate(data.entry_date)}</dd>
            </div>
            <div>
              <dt>Source</dt>
              <dd>{data.source_type ? `${humanize(data.source_type)}${data.source_id ? ` #${data.source_id}` : ''}` : 'Manual'}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <Badge tone={data.status === 'posted' ? 'success' : data.status === 'voided' ? 'danger' : 'neutral'}>{humanize(data.status)}</Badge>
              </dd>
            </div>
          </dl>
          <div className="datatable__frame">
            <table className="table table--compact" aria-label="Entry lines">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Memo</th>
                  <th scope="col" className="align-right shrink">
                    Debit
                  </th>
                  <th scope="col" className="align-right shrink">
                    Credit
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.lines.map((l) => (
                  <tr key={l.id}>
                    <td>
                      {onAccount ? (
                        <button type="button" className="link-btn" onClick={() => onAccount(l.account_code)}>
                          <span className="mono">{l.account_code}</span> {l.account_name}
                        </button>
                      ) : (
                        <>
                          <span className="mono">{l.account_code}</span> {l.account_name}
                        </>
                      )}
                    </td>
                    <td className="muted">{l.memo ?? ''}</td>
                    <td className="align-right num">{toNumber(l.debit_amount) ? formatMoney(l.debit_amount) : ''}</td>
                    <td className="align-right num">{toNumber(l.credit_amount) ? formatMoney(l.credit_amount) : ''}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>
                    Total
                  </th>
                  <td className="align-right num cell-strong">{formatMoney(data.total_debit)}</td>
                  <td className="align-right num cell-strong">{formatMoney(totalCredit)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </div>
      )}
    </Modal>
  );
}
