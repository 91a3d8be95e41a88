import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { queryKeys } from '../../api/queryKeys';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useMessagesInvalidate } from './messageHooks';
import {
  BODY_MAX,
  CUSTOMER_SOURCE_LABEL,
  CUSTOMER_SOURCES,
  EMPTY_NEW_MESSAGE,
  SUBJECT_MAX,
  messagesApi,
  newMessageBody,
  newMessageSchema,
  orderLabel,
  type Message,
} from './messagesApi';

const FROM_OPTIONS = [
  { value: 'us', label: 'Us, to the customer' },
  { value: 'customer', label: 'The customer (record their message)' },
];
const SOURCE_OPTIONS = CUSTOMER_SOURCES.map((s) => ({ value: s, label: CUSTOMER_SOURCE_LABEL[s] }));

export interface MessageOrder {
  id: number;
  order_number: string;
  customer_name?: string | null;
}

/** The order picker: orders searched on the server, the chosen one kept while the search changes. */
function OrderPicker({ picked, onPick }: { picked: MessageOrder | null; onPick: (o: MessageOrder | null) => void }) {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const request = { search: term, limit: 20, picker: 'messages' };
  const orders = useQuery({ queryKey: queryKeys.sales.list(request), queryFn: ({ signal }) => messagesApi.orders(term, signal) });
  const found = (orders.data ?? []).map((o) => ({ id: o.id, order_number: o.order_number, customer_name: o.customer_name }));
  const choices = picked && !found.some((o) => o.id === picked.id) ? [picked, ...found] : found;
  return (
    <div className="form__grid">
      <TextField
        label="Find an order"
        type="search"
        placeholder="Order number, customer, e-mail…"
        hint="Optional: a message about an order reaches its customer."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <SelectField
        label="Order"
        placeholder={orders.isPending ? 'Loading orders…' : orders.error ? 'Orders could not be loaded' : 'No order'}
        options={choices.map((o) => ({ value: String(o.id), label: orderLabel(o) }))}
        value={picked ? String(picked.id) : ''}
        onChange={(e) => onPick(choices.find((o) => String(o.id) === e.target.value) ?? null)}
      />
    </div>
  );
}

/**
 * Starts a conversation (`POST /notifications`): a subject and a first message, about an
 * order (preset from its page, or picked) or none. Ours is e-mailed to the order's customer
 * when mail is configured (unless unticked); the customer's (a call, an e-mail, the portal)
 * is recorded as unread for the team. It joins the order's history.
 */
export function NewMessageDialog({
  order,
  open,
  onClose,
  onCreated,
}: {
  /** The order the message is about; left out, the dialog offers a picker. */
  order?: MessageOrder | null;
  open: boolean;
  onClose: () => void;
  onCreated?: (message: Message) => void;
}) {
  const toast = useToast();
  const invalidate = useMessagesInvalidate();
  const [idemKey, setIdemKey] = useState(messagesApi.newKey);
  const [picked, setPicked] = useState<MessageOrder | null>(null);
  const form = useZodForm(newMessageSchema, { defaultValues: EMPTY_NEW_MESSAGE });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const from = useWatch({ control, name: 'from' });
  const target = order ?? picked;
  const customer = from === 'customer';
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => {
        setPicked(null);
        setIdemKey(messagesApi.newKey());
      }}
      size="lg"
      title={order ? `Message customer · ${order.order_number}` : 'New message'}
      description={
        order
          ? `About ${order.order_number}${order.customer_name ? ` for ${order.customer_name}` : ''}; it joins the order's history.`
          : "A message to an order's customer, or one of theirs recorded here."
      }
      id="message-new-form"
      label="New message"
      submitLabel={customer ? 'Record message' : 'Send message'}
      errorTitle="The message was not saved"
      submit={(v) => messagesApi.start(newMessageBody(target?.id ?? null, v), idemKey)}
      onSuccess={async (m) => {
        if (m.sender_type === 'customer') toast.success('Message recorded', "The customer's message is in the inbox, unread.");
        else toast.success('Message sent', m.emailed_to ? `E-mailed to ${m.emailed_to}.` : 'Kept with the conversation; it was not e-mailed.');
        await invalidate(m.sales_order_id);
        onCreated?.(m);
      }}
      fields={['subject', 'body', 'from', 'source', 'email_customer']}
    >
      {!order && <OrderPicker picked={picked} onPick={setPicked} />}
      <div className="form__grid">
        <SelectField label="From" required options={FROM_OPTIONS} error={errors.from?.message} {...register('from')} />
        {customer && <SelectField label="Came in by" required options={SOURCE_OPTIONS} error={errors.source?.message} {...register('source')} />}
      </div>
      <TextField label="Subject" required maxLength={SUBJECT_MAX} error={errors.subject?.message} {...register('subject')} />
      <TextAreaField
        label="Message"
        required
        rows={6}
        maxLength={BODY_MAX}
        hint={customer ? 'What the customer wrote or said.' : undefined}
        error={errors.body?.message}
        {...register('body')}
      />
      {!customer &&
        (target ? (
          <CheckboxField label="E-mail to customer" hint="Sent to the order's customer when mail is configured." {...register('email_customer')} />
        ) : (
          <p className="field__hint">Without an order there is no customer to e-mail: the message is kept here only.</p>
        ))}
    </FormDialog>
  );
}
