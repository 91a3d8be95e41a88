import { useQuery, useQueryClient } from '@tanstack/react-query';
import { customersApi, itemsApi } from '../../api/endpoints';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { queryKeys } from '../../api/queryKeys';

/**
 * Invalidates every sales view: orders, payments, shipping, quotes, invoices (payments are
 * applied to them, shipping writes them) and production, fed by confirming.
 */
export function useSalesInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.sales.all, queryKeys.payments.all, queryKeys.shipping.all, queryKeys.quotes.all, queryKeys.invoices.all, queryKeys.production.all, queryKeys.customers.all].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

/** Active sellable items as select options. */
export function useItemOptions(enabled: boolean) {
  const items = useQuery({
    queryKey: queryKeys.sales.itemOptions(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
    enabled,
  });
  const options = (items.data?.items ?? []).map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  return { items, options };
}

/** Customers as select options; the list is admin-only, so operators order for themselves. */
export function useCustomerOptions(enabled: boolean) {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const customers = useQuery({
    queryKey: queryKeys.customers.options(),
    queryFn: ({ signal }) => customersApi.list({ limit: 200 }, signal),
    enabled: enabled && admin,
  });
  const options = (customers.data ?? []).map((c) => ({
    value: String(c.id),
    label: [c.customer_number, c.full_name || [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email].filter(Boolean).join(' · '),
  }));
  return { admin, customers, options };
}
