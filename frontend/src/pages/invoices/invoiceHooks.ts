import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';

/**
 * Invalidates what an invoice change moves: the invoices, their orders (payment status,
 * balance), payments, customers (what each owes) and the ledger (receivables, ageing).
 */
export function useInvoiceInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.invoices.all, queryKeys.sales.all, queryKeys.payments.all, queryKeys.customers.all, queryKeys.accounting.all].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}
