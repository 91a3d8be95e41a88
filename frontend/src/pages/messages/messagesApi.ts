/**
 * Customer messages (`/notifications`, any signed-in user): the inbox of threads, one
 * thread's messages, starting a thread (ours to the customer, or theirs recorded here),
 * replying, and marking read. Their query keys (`queryKeys.messages`) start with the
 * resource, so every change invalidates the list, the open thread and the sidebar badge.
 */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api, ListQuery, RequestBody } from '../../api/model';
import type { SalesOrderQuery, SalesOrderRow } from '../sales/salesApi';

export type MessageThread = Api<'/notifications', 'get'>[number];
export type Message = Api<'/notifications/{id}', 'get'>[number];
export type UnreadCount = Api<'/notifications/unread-count', 'get'>;
export type ThreadQuery = Omit<ListQuery<'/notifications'>, 'sort_by' | 'sort_order'>;
export type MessageStart = RequestBody<'/notifications', 'post'>;
export type MessageReply = RequestBody<'/notifications/{id}/reply', 'post'>;
export type ThreadMarkRead = Api<'/notifications/{id}/read', 'post'>;
export type SenderType = Message['sender_type'];
export type MessageSource = Message['source'];

/** How a customer's message reached us (what the team records it as). */
export const CUSTOMER_SOURCE_LABEL = {
  email: 'E-mail',
  phone: 'Phone',
  portal: 'Portal',
} as const satisfies Partial<Record<MessageSource, string>>;
export type CustomerSource = keyof typeof CUSTOMER_SOURCE_LABEL;
export const CUSTOMER_SOURCES = Object.keys(CUSTOMER_SOURCE_LABEL) as CustomerSource[];

/** The note under a message on how it arrived; ours and Strata's own say nothing. */
export const SOURCE_NOTE: Record<MessageSource, string | null> = {
  system: null,
  admin: null,
  email: 'by e-mail',
  phone: 'by phone',
  portal: 'via the portal',
};

/** The inbox's pages: threads are fetched this many at a time ("Show more" adds a page; the server caps 200). */
export const THREAD_PAGE = 50;
export const THREAD_LIMIT_MAX = 200;

export const SUBJECT_MAX = 200;
export const BODY_MAX = 5000;

// ---------------------------------------------------------------- form rules (zod)

const body = z
  .string()
  .trim()
  .min(1, 'Write the message.')
  .max(BODY_MAX, `Keep the message under ${BODY_MAX} characters.`);
const source = z.enum(CUSTOMER_SOURCES as [CustomerSource, ...CustomerSource[]], 'Choose how the message came in.');

/** A reply in a thread: ours (e-mailed to the customer by default) or the customer's, recorded. */
export const replySchema = z.object({
  body,
  from_customer: z.boolean(),
  source,
  email_customer: z.boolean(),
});
export type ReplyForm = z.input<typeof replySchema>;
export const EMPTY_REPLY: ReplyForm = { body: '', from_customer: false, source: 'email', email_customer: true };

export function replyBody(v: ReplyForm): MessageReply {
  const text = v.body.trim();
  return v.from_customer ? { body: text, sender_type: 'customer', source: v.source } : { body: text, email_customer: v.email_customer };
}

/** A new thread: its subject and first message, from us or from the customer. */
export const newMessageSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Give the conversation a subject.')
    .max(SUBJECT_MAX, `Keep the subject under ${SUBJECT_MAX} characters.`),
  body,
  from: z.enum(['us', 'customer']),
  source,
  email_customer: z.boolean(),
});
export type NewMessageForm = z.input<typeof newMessageSchema>;
export const EMPTY_NEW_MESSAGE: NewMessageForm = { subject: '', body: '', from: 'us', source: 'email', email_customer: true };

export function newMessageBody(orderId: number | null, v: NewMessageForm): MessageStart {
  const order = orderId === null ? {} : { sales_order_id: orderId };
  const text = { subject: v.subject.trim(), body: v.body.trim() };
  return v.from === 'customer'
    ? { ...order, ...text, sender_type: 'customer', source: v.source }
    : { ...order, ...text, email_customer: orderId !== null && v.email_customer };
}

/** "Mark read" is due when the thread holds a message nobody on the team has read. */
export const unreadIn = (messages: readonly Pick<Message, 'id' | 'read_at'>[]) => messages.filter((m) => m.read_at === null).map((m) => m.id);

/** An order as the dialog's picker names it. */
export const orderLabel = (o: { order_number: string; customer_name?: string | null }) => `${o.order_number} · ${o.customer_name ?? 'no customer'}`;

// ---------------------------------------------------------------- calls

const key = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
const once = (k: string) => ({ headers: { 'Idempotency-Key': k } });
const thread = (id: string) => `/notifications/${encodeURIComponent(id)}`;

export const messagesApi = {
  /** Threads, latest activity first: a bare array (no total). */
  threads: (q: ThreadQuery, signal?: AbortSignal) => api.get<MessageThread[]>('/notifications', { ...q }, signal),
  unreadCount: (signal?: AbortSignal) => api.get<UnreadCount>('/notifications/unread-count', undefined, signal),
  /** A thread's messages, oldest first (404 `Thread not found`). */
  thread: (id: string, signal?: AbortSignal) => api.get<Message[]>(thread(id), undefined, signal),
  /** One key per opened dialog: a double click or a retry writes one message. */
  start: (body: MessageStart, k: string) => api.post<Message>('/notifications', body, once(k)),
  reply: (id: string, body: MessageReply, k: string) => api.post<Message>(`${thread(id)}/reply`, body, once(k)),
  markThreadRead: (id: string) => api.post<ThreadMarkRead>(`${thread(id)}/read`),
  /** Orders for the new-message dialog's picker, searched on the server. */
  orders: (search: string, signal?: AbortSignal) =>
    api.get<SalesOrderRow[]>('/sales-orders/', { search: search || null, limit: 20, sort_by: 'created_at', sort_order: 'desc' } satisfies SalesOrderQuery, signal),
  newKey: key,
};
