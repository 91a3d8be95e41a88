import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Mail, MessagesSquare, Send } from 'lucide-react';
import { ApiError } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { CheckboxField, FormError, TextAreaField } from '../../components/Field';
import { useZodForm } from '../../components/FormDialog';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { UNREAD_REFRESH_MS, useMessagesInvalidate } from './messageHooks';
import {
  BODY_MAX,
  CUSTOMER_SOURCE_LABEL,
  CUSTOMER_SOURCES,
  EMPTY_REPLY,
  SOURCE_NOTE,
  messagesApi,
  replyBody,
  replySchema,
  unreadIn,
  type Message,
  type MessageThread,
  type ReplyForm,
} from './messagesApi';

const SIDE: Record<Message['sender_type'], string> = { admin: 'ours', customer: 'theirs', system: 'system' };
const WHO: Record<Message['sender_type'], string> = { admin: 'Us', customer: 'Customer', system: 'Strata' };

function Bubble({ m }: { m: Message }) {
  const note = SOURCE_NOTE[m.source];
  return (
    <li className={`msg msg--${SIDE[m.sender_type]}`} data-testid="message">
      <div className="msg__bubble">
        <div className="msg__meta">
          <span className="msg__sender">{m.sender_name ?? WHO[m.sender_type]}</span>
          <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
          {note && <span>{note}</span>}
          {m.read_at === null && <Badge tone="info">New</Badge>}
        </div>
        <p className="msg__body">{m.body}</p>
        {m.emailed_to && (
          <div className="msg__note">
            <Mail size={12} aria-hidden="true" /> E-mailed to {m.emailed_to}
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * The reply box: ours (e-mailed to the order's customer unless unticked) or, ticked "Record
 * as customer's message", theirs as it came in (e-mail, phone, portal). Ctrl/Cmd+Enter sends.
 */
function ReplyBox({ threadId, hasOrder }: { threadId: string; hasOrder: boolean }) {
  const invalidate = useMessagesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(messagesApi.newKey);
  const form = useZodForm(replySchema, { defaultValues: EMPTY_REPLY });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = form;
  const fromCustomer = useWatch({ control, name: 'from_customer' });
  const send = useMutation({
    mutationFn: (v: ReplyForm) => messagesApi.reply(threadId, replyBody(v), idemKey),
    onSuccess: async (m, v) => {
      // The next message starts empty, from the same side (a call is often logged in parts).
      form.reset({ ...EMPTY_REPLY, from_customer: v.from_customer, source: v.source, email_customer: v.email_customer });
      setIdemKey(messagesApi.newKey());
      await invalidate(m.sales_order_id);
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['body', 'source', 'email_customer'])),
  });
  const body = register('body');
  return (
    <form
      className="msg-reply"
      aria-label="Reply"
      noValidate
      onSubmit={(e) =>
        void handleSubmit((v) => {
          if (send.isPending) return;
          setFormError(null);
          send.mutate(v);
        })(e)
      }
    >
      <FormError title={fromCustomer ? 'The message was not recorded' : 'The reply was not sent'} message={formError} />
      <TextAreaField
        label={fromCustomer ? "The customer's message" : 'Reply'}
        rows={3}
        maxLength={BODY_MAX}
        placeholder={fromCustomer ? 'What the customer wrote or said…' : 'Write a reply…'}
        hint="Ctrl+Enter (⌘+Enter on a Mac) sends."
        error={errors.body?.message}
        {...body}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <div className="msg-reply__bar">
        <CheckboxField label="Record as customer's message" className="checkbox--inline" {...register('from_customer')} />
        {fromCustomer ? (
          <label className="inline-field">
            Came in by
            <select className="input input--sm input--select" {...register('source')}>
              {CUSTOMER_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {CUSTOMER_SOURCE_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
        ) : (
          hasOrder && <CheckboxField label="E-mail to customer" className="checkbox--inline" {...register('email_customer')} />
        )}
        <Button type="submit" variant="primary" size="sm" className="msg-reply__send" icon={<Send size={14} />} loading={send.isPending}>
          {fromCustomer ? 'Record message' : 'Send reply'}
        </Button>
      </div>
    </form>
  );
}

/**
 * One conversation: its messages as bubbles (ours on the right, the customer's on the left,
 * Strata's centred), then the reply box. Opening it with unread messages marks the thread
 * read (`POST /notifications/{id}/read`), which refreshes the inbox and the badge.
 */
export function MessageThreadView({ threadId, summary, onClose }: { threadId: string; summary?: MessageThread; onClose: () => void }) {
  const invalidate = useMessagesInvalidate();
  const thread = useQuery({
    queryKey: queryKeys.messages.thread(threadId),
    queryFn: ({ signal }) => messagesApi.thread(threadId, signal),
    refetchInterval: UNREAD_REFRESH_MS,
  });
  const { mutate: markRead } = useMutation({
    mutationFn: (id: string) => messagesApi.markThreadRead(id),
    onSuccess: () => invalidate(),
  });
  const messages = thread.data;
  const unread = messages ? unreadIn(messages).join(',') : '';
  // Once per set of unread messages: a refetch before the read lands does not ask again.
  const marked = useRef('');
  useEffect(() => {
    const asked = `${threadId}:${unread}`;
    if (!unread || marked.current === asked) return;
    marked.current = asked;
    markRead(threadId);
  }, [threadId, unread, markRead]);
  // The latest message in view.
  const list = useRef<HTMLOListElement>(null);
  const count = messages?.length ?? 0;
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [threadId, count]);

  if (thread.error) {
    const gone = thread.error instanceof ApiError && thread.error.status === 404;
    return (
      <section className="msg-thread msg-thread--empty" aria-label="Conversation">
        {gone ? (
          <EmptyState
            compact
            icon={<MessagesSquare size={22} />}
            title="Conversation not found"
            description="It may have been opened from an old link."
            action={<Button onClick={onClose}>Back to the inbox</Button>}
          />
        ) : (
          <ErrorState compact error={thread.error} onRetry={() => void thread.refetch()} />
        )}
      </section>
    );
  }
  if (!messages) {
    return (
      <section className="msg-thread" aria-label="Conversation" aria-busy="true">
        <div className="msg-thread__head">
          <Skeleton width="40%" height={18} />
        </div>
        <div className="msg-bubbles">
          <Skeleton width="60%" height={48} />
          <Skeleton width="50%" height={48} />
        </div>
      </section>
    );
  }
  const first = messages[0];
  const subject = first?.thread_subject ?? summary?.thread_subject ?? null;
  const orderId = first?.sales_order_id ?? summary?.sales_order_id ?? null;
  const awaiting = messages.at(-1)?.sender_type === 'customer';
  return (
    <section className="msg-thread" aria-label={`Conversation: ${subject ?? 'no subject'}`}>
      <header className="msg-thread__head">
        <div className="cell-stack">
          <h2 className="msg-thread__title">{subject ?? 'No subject'}</h2>
          <span className="cell-sub">
            {orderId !== null ? (
              <Link to={`/admin/orders/${orderId}`} className="mono">
                {summary?.order_number ?? `Order #${orderId}`}
              </Link>
            ) : (
              'No order'
            )}
            {summary?.customer_name ? ` · ${summary.customer_name}` : ''} · {messages.length} message{messages.length === 1 ? '' : 's'}
          </span>
        </div>
        {awaiting && <Badge tone="warning">Awaiting reply</Badge>}
      </header>
      <ol ref={list} className="msg-bubbles" aria-label="Messages">
        {messages.map((m) => (
          <Bubble key={m.id} m={m} />
        ))}
      </ol>
      <ReplyBox key={threadId} threadId={threadId} hasOrder={orderId !== null} />
    </section>
  );
}
