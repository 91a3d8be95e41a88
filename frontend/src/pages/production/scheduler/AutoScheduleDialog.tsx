import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { formatDateTime } from '../../../lib/format';
import type { AutoScheduleResult } from './schedulerApi';

/** What a whole-shop auto-schedule did: operations booked, late orders, operations it could not place. */
export function AutoScheduleDialog({ result, onClose }: { result: AutoScheduleResult | null; onClose: () => void }) {
  const late = result?.orders.filter((o) => o.late) ?? [];
  const unplaced = result?.orders.flatMap((o) => o.unplaced.map((u) => ({ ...u, order: o }))) ?? [];
  return (
    <Modal
      open={result !== null}
      title="Auto-schedule summary"
      description="Released orders were booked on the first free machines of their work centers, most urgent first."
      onClose={onClose}
      size="lg"
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {result && (
        <div className="sched-summary">
          <dl className="sched-summary__stats">
            <div>
              <dt>Operations booked</dt>
              <dd className="num">{result.scheduled_operations}</dd>
            </div>
            <div>
              <dt>Orders considered</dt>
              <dd className="num">{result.orders.length}</dd>
            </div>
            <div>
              <dt>Late orders</dt>
              <dd className={`num${result.late_orders > 0 ? ' text-danger' : ''}`}>{result.late_orders}</dd>
            </div>
          </dl>
          {late.length > 0 ? (
            <table className="table table--compact sched-summary__table" aria-label="Late orders">
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Planned finish</th>
                  <th>Due</th>
                </tr>
              </thead>
              <tbody>
                {late.map((o) => (
                  <tr key={o.order_id}>
                    <td>
                      <Link className="mono" to={`/admin/production/${o.order_id}`}>
                        {o.order_code}
                      </Link>
                    </td>
                    <td>{o.planned_finish ? formatDateTime(o.planned_finish) : 'Not placed'}</td>
                    <td>{o.due_date ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="sched-summary__ok">{result.orders.length ? 'Every order finishes by its due date.' : 'No released orders were waiting for a booking.'}</p>
          )}
          {unplaced.length > 0 && (
            <section aria-label="Operations not placed">
              <h3 className="section-subtitle">Operations not placed</h3>
              <ul className="sched-summary__unplaced">
                {unplaced.map((u) => (
                  <li key={u.operation_id}>
                    <span className="mono">{u.order.order_code}</span> operation #{u.operation_id}: {u.reason}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </Modal>
  );
}
