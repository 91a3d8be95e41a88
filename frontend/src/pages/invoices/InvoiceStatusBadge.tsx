import { Badge } from '../../components/States';
import { humanize } from '../../lib/format';
import { INVOICE_TONE, type InvoiceRow } from './invoicesApi';

/** The status as shown: red "Overdue" (with how late) for a sent or partly paid invoice past due. */
export function InvoiceStatusBadge({ invoice }: { invoice: Pick<InvoiceRow, 'display_status' | 'days_overdue'> }) {
  const overdue = invoice.display_status === 'overdue';
  return (
    <Badge tone={INVOICE_TONE[invoice.display_status] ?? 'neutral'}>
      {overdue && invoice.days_overdue > 0 ? `Overdue ${invoice.days_overdue}d` : humanize(invoice.display_status)}
    </Badge>
  );
}
