import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MessageSquarePlus } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { THREAD_LIMIT_MAX, messagesApi } from './messagesApi';
import { NewMessageDialog, type MessageOrder } from './NewMessageDialog';
import './messages.css';

/**
 * The conversations about an order, on its page (any signed-in user): each linked to the
 * inbox with its unread count, and "Message customer" to start one with the order preset.
 */
export function OrderMessagesCard({ order }: { order: MessageOrder }) {
  const [composing, setComposing] = useState(false);
  const request = { sales_order_id: order.id };
  const threads = useQuery({
    queryKey: queryKeys.messages.list(request),
    queryFn: ({ signal }) => messagesApi.threads({ ...request, limit: THREAD_LIMIT_MAX }, signal),
  });
  return (
    <section className="card card--pad" aria-labelledby="so-messages">
      <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
        <h2 id="so-messages" className="section-title">
          Messages
        </h2>
        <Button size="sm" variant="secondary" icon={<MessageSquarePlus size={14} />} onClick={() => setComposing(true)}>
          Message customer
        </Button>
      </div>
      {threads.error ? (
        <ErrorState compact error={threads.error} onRetry={() => void threads.refetch()} />
      ) : threads.isPending ? (
        <Skeleton width="60%" />
      ) : threads.data.length === 0 ? (
        <p className="muted">No messages about this order yet.</p>
      ) : (
        <ul className="msg-order-list" aria-label="Conversations about the order">
          {threads.data.map((t) => (
            <li key={t.thread_id}>
              <div className="cell-stack">
                <Link to={`/admin/messages?thread=${encodeURIComponent(t.thread_id)}`} className="cell-strong">
                  {t.thread_subject ?? 'No subject'}
                </Link>
                <span className="cell-sub">
                  {t.message_count} message{t.message_count === 1 ? '' : 's'} · last{' '}
                  <time dateTime={t.last_message_at} title={formatDateTime(t.last_message_at)}>
                    {formatRelativeTime(t.last_message_at)}
                  </time>
                  {t.last_sender_name ? ` by ${t.last_sender_name}` : ''}
                </span>
              </div>
              <span className="msg-order-list__chips">
                {t.unread_count > 0 && <Badge tone="info">{t.unread_count} unread</Badge>}
                {t.awaiting_reply && <Badge tone="warning">Awaiting reply</Badge>}
              </span>
            </li>
          ))}
        </ul>
      )}
      <NewMessageDialog order={order} open={composing} onClose={() => setComposing(false)} />
    </section>
  );
}
