import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Inbox, MessageSquarePlus, MessagesSquare, Search, X } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebounce';
import { UNREAD_REFRESH_MS } from './messageHooks';
import { MessageThreadView } from './MessageThreadView';
import { THREAD_LIMIT_MAX, THREAD_PAGE, messagesApi, type MessageThread } from './messagesApi';
import { NewMessageDialog } from './NewMessageDialog';
import './messages.css';

type Filter = 'all' | 'unread';
const FILTER_LABEL: Record<Filter, string> = { all: 'All', unread: 'Unread' };

function ThreadItem({ t, selected, onOpen }: { t: MessageThread; selected: boolean; onOpen: () => void }) {
  const about = [t.order_number, t.customer_name].filter(Boolean).join(' · ');
  return (
    <li>
      <button
        type="button"
        className={`msg-item${selected ? ' is-selected' : ''}${t.unread_count > 0 ? ' is-unread' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={onOpen}
      >
        <span className="msg-item__top">
          <span className="msg-item__subject">{t.thread_subject ?? 'No subject'}</span>
          <time className="msg-item__time" dateTime={t.last_message_at} title={formatDateTime(t.last_message_at)}>
            {formatRelativeTime(t.last_message_at)}
          </time>
        </span>
        {about && <span className="cell-sub">{about}</span>}
        <span className="msg-item__preview">
          {t.last_sender_name ? `${t.last_sender_name}: ` : ''}
          {t.last_message_preview}
        </span>
        {(t.unread_count > 0 || t.awaiting_reply) && (
          <span className="msg-item__chips">
            {t.unread_count > 0 && <Badge tone="info">{t.unread_count} unread</Badge>}
            {t.awaiting_reply && <Badge tone="warning">Awaiting reply</Badge>}
          </span>
        )}
      </button>
    </li>
  );
}

/**
 * Messages (any signed-in user): the conversations with customers, latest activity first,
 * All or Unread and searched on the server, beside the open one (`?thread=<uuid>`, so it
 * survives a reload) with its reply box. "New message" starts one, about an order or not.
 */
export function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const threadId = params.get('thread');
  const filter: Filter = params.get('filter') === 'unread' ? 'unread' : 'all';
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), 300);
  // "Show more" grows the page for the current filter and search only.
  const listFor = `${filter}|${search}`;
  const [more, setMore] = useState({ listFor, limit: THREAD_PAGE });
  const limit = more.listFor === listFor ? more.limit : THREAD_PAGE;
  const [composing, setComposing] = useState(false);
  const request = { unread_only: filter === 'unread', search: search || null, limit };
  const threads = useQuery({
    queryKey: queryKeys.messages.list(request),
    queryFn: ({ signal }) => messagesApi.threads(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: UNREAD_REFRESH_MS,
  });

  const setParam = (name: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const rows = threads.data ?? [];
  const selected = threadId ? rows.find((t) => t.thread_id === threadId) : undefined;

  let list;
  if (threads.error) {
    list = <ErrorState compact error={threads.error} onRetry={() => void threads.refetch()} />;
  } else if (threads.isPending) {
    list = (
      <div className="msg-list__loading" aria-busy="true">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="cell-stack">
            <Skeleton width="70%" />
            <Skeleton width="45%" />
          </div>
        ))}
      </div>
    );
  } else if (rows.length === 0) {
    list = search ? (
      <EmptyState compact icon={<Search size={22} />} title="No conversations match" description={`Nothing matches “${search}”. Try an order number, a customer or words from a message.`} />
    ) : filter === 'unread' ? (
      <EmptyState compact icon={<Inbox size={22} />} title="Nothing unread" description="Every customer message has been read." />
    ) : (
      <EmptyState
        compact
        icon={<MessagesSquare size={22} />}
        title="No messages yet"
        description="Conversations with customers about their orders appear here. Start one with New message, or from an order's page."
      />
    );
  } else {
    list = (
      <>
        <ul className="msg-list__items" aria-label="Conversations">
          {rows.map((t) => (
            <ThreadItem key={t.thread_id} t={t} selected={t.thread_id === threadId} onOpen={() => setParam('thread', t.thread_id)} />
          ))}
        </ul>
        {rows.length >= limit && limit < THREAD_LIMIT_MAX && (
          <div className="msg-list__more">
            <Button size="sm" variant="ghost" loading={threads.isFetching} onClick={() => setMore({ listFor, limit: Math.min(limit + THREAD_PAGE, THREAD_LIMIT_MAX) })}>
              Show more
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <div className="page">
      <PageHeader
        title="Messages"
        description="Conversations with customers about their orders: reply, or record what they sent by e-mail or said on the phone."
        actions={
          <Button variant="primary" icon={<MessageSquarePlus size={16} />} onClick={() => setComposing(true)}>
            New message
          </Button>
        }
      />
      <div className="card msg-inbox">
        <div className={`msg-list${threads.isFetching && !threads.isPending ? ' is-fetching' : ''}`}>
          <div className="msg-list__head">
            <div className="tabs msg-tabs" role="tablist" aria-label="Show">
              {(Object.keys(FILTER_LABEL) as Filter[]).map((f) => (
                <button
                  key={f}
                  type="button"
                  role="tab"
                  aria-selected={filter === f}
                  className={`tab${filter === f ? ' is-active' : ''}`}
                  onClick={() => setParam('filter', f === 'all' ? null : f)}
                >
                  {FILTER_LABEL[f]}
                </button>
              ))}
            </div>
            <div className="search-box msg-search">
              <Search size={16} className="search-box__icon" aria-hidden="true" />
              <input
                type="search"
                className="input search-box__input"
                aria-label="Search messages"
                placeholder="Subject, order, customer, text…"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape' && typed) {
                    e.preventDefault();
                    setTyped('');
                  }
                }}
              />
              {typed && (
                <button type="button" className="icon-btn icon-btn--sm search-box__clear" aria-label="Clear search" onClick={() => setTyped('')}>
                  <X size={14} />
                </button>
              )}
            </div>
          </div>
          {list}
        </div>
        {threadId ? (
          <MessageThreadView key={threadId} threadId={threadId} summary={selected} onClose={() => setParam('thread', null)} />
        ) : (
          <section className="msg-thread msg-thread--empty" aria-label="Conversation">
            <EmptyState compact icon={<MessagesSquare size={22} />} title="Choose a conversation" description="Its messages show here, with a box to reply or to record the customer's answer." />
          </section>
        )}
      </div>
      <NewMessageDialog open={composing} onClose={() => setComposing(false)} onCreated={(m) => setParam('thread', m.thread_id)} />
    </div>
  );
}
