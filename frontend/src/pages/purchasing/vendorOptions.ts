import { useQuery } from '@tanstack/react-query';
import { vendorsApi } from '../../api/endpoints';
import { queryKeys } from '../../api/queryKeys';
import type { Option } from '../../components/Field';

/** The vendor picker's list: up to this many vendors (active ones, as the list route answers). */
export const VENDOR_OPTIONS_LIMIT = 500;

/**
 * The vendors a form picks from (purchase orders, MRP releases), fetched once and shared:
 * the query, the vendors, and `{value, label}` options (`VND-001 · Filament Co`) for a
 * `<SelectField>`.
 */
export function useVendorOptions(enabled = true) {
  const query = useQuery({
    queryKey: queryKeys.purchasing.vendorOptions(),
    queryFn: ({ signal }) => vendorsApi.list({ limit: VENDOR_OPTIONS_LIMIT }, signal),
    enabled,
  });
  const vendors = query.data?.items ?? [];
  const options: Option[] = vendors.map((v) => ({ value: String(v.id), label: `${v.code} · ${v.name}` }));
  return { query, vendors, options };
}
