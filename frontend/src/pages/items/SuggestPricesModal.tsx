import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgePercent } from 'lucide-react';
import { itemsApi, settingsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { ApplySuggestedPricesInput, ItemType, PriceCandidate } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, toNumber } from '../../lib/format';
import { isItemType, ITEM_TYPES } from './itemOptions';

/** The margin used when the company has none set. */
export const FALLBACK_MARGIN_PERCENT = 50;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The margin typed, as a number from 0 to under 100; null when it is not one. */
export function parseMargin(typed: string): number | null {
  const v = typed.trim();
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(v)) return null;
  const n = Number(v);
  return n < 100 ? n : null;
}

/** The price that earns `marginPercent` on `cost`: cost / (1 - margin/100), to the cent; null without a cost. */
export function suggestPrice(cost: string | number | null, marginPercent: number | null): number | null {
  const c = toNumber(cost);
  if (c === null || c <= 0 || marginPercent === null || marginPercent >= 100) return null;
  return round2(c / (1 - marginPercent / 100));
}

export interface SuggestedRow {
  candidate: PriceCandidate;
  suggested: number | null;
  /** suggested - current (the whole suggestion when there is no current price). */
  difference: number | null;
  /** The suggestion differs from the current price. */
  changed: boolean;
}

export function suggestedRows(candidates: readonly PriceCandidate[], marginPercent: number | null): SuggestedRow[] {
  return candidates.map((candidate) => {
    const suggested = suggestPrice(candidate.standard_cost, marginPercent);
    const current = toNumber(candidate.current_selling_price);
    const difference = suggested === null ? null : round2(suggested - (current ?? 0));
    return { candidate, suggested, difference, changed: suggested !== null && (current === null || round2(current) !== suggested) };
  });
}

/** The POST /items/apply-suggested-prices body of the chosen rows. */
export function applyBody(rows: readonly SuggestedRow[], chosen: (id: number) => boolean): ApplySuggestedPricesInput {
  return {
    items: rows
      .filter((r) => r.suggested !== null && chosen(r.candidate.id))
      .map((r) => ({ id: r.candidate.id, selling_price: (r.suggested as number).toFixed(2) })),
  };
}

const signed = (n: number) => (n > 0 ? `+${formatMoney(n)}` : formatMoney(n));

/** Items → Suggest prices (admins): selling prices from standard cost at a target margin. */
export function SuggestPricesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<BadgePercent size={16} />} onClick={() => setOpen(true)}>
        Suggest prices
      </Button>
      {open && <SuggestPricesModal onClose={() => setOpen(false)} />}
    </>
  );
}

export function SuggestPricesModal({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const settings = useQuery({ queryKey: queryKeys.settings.all, queryFn: ({ signal }) => settingsApi.get(signal) });
  // Typed by the person; until then, the company's default margin (else 50 %).
  const [typed, setTyped] = useState<string | null>(null);
  const [itemType, setItemType] = useState<ItemType | ''>('');
  // Rows left out; every row with a suggestion is chosen by default.
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);

  const fallback = settings.isPending ? null : String(settings.data?.default_margin_percent ?? FALLBACK_MARGIN_PERCENT);
  const marginText = typed ?? fallback ?? '';
  const margin = parseMargin(marginText);
  const request = { item_type: itemType || undefined };
  const candidates = useQuery({
    queryKey: queryKeys.items.priceCandidates(request),
    queryFn: ({ signal }) => itemsApi.priceCandidates(request, signal),
    placeholderData: keepPreviousData,
  });
  const rows = suggestedRows(candidates.data ?? [], margin);
  const chosen = (id: number) => !excluded.has(id);
  const body = applyBody(rows, chosen);
  const selectable = rows.filter((r) => r.suggested !== null);
  const allChosen = selectable.length > 0 && selectable.every((r) => chosen(r.candidate.id));

  const toggle = (id: number) =>
    setExcluded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const apply = useMutation({
    mutationFn: () => itemsApi.applySuggestedPrices(body),
    onSuccess: async (r) => {
      toast.success(`Updated ${r.updated} ${r.updated === 1 ? 'item' : 'items'}`, r.skipped ? `${r.skipped} skipped.` : undefined);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
      onClose();
    },
    onError: (err) => setError(errorMessage(err)),
  });

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title="Suggest prices"
      description="Selling prices from each item's standard cost at a target margin: cost / (1 − margin)."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" loading={apply.isPending} disabled={body.items.length === 0} onClick={() => apply.mutate()}>
            {`Apply ${body.items.length} ${body.items.length === 1 ? 'price' : 'prices'}`}
          </Button>
        </>
      }
    >
      <div className="form">
        <FormError title="The prices were not applied" message={error} />
        <div className="form__grid">
          <TextField
            label="Target margin (%)"
            inputMode="decimal"
            value={marginText}
            disabled={typed === null && fallback === null}
            error={marginText && margin === null ? 'Enter a margin from 0 to under 100.' : undefined}
            onChange={(e) => setTyped(e.target.value)}
          />
          <label className="field">
            <span className="field__label">Item type</span>
            <select className="input input--select" value={itemType} onChange={(e) => setItemType(isItemType(e.target.value) ? e.target.value : '')}>
              <option value="">All types</option>
              {ITEM_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {candidates.isPending ? (
          <Skeleton height={80} />
        ) : candidates.error ? (
          <ErrorState error={candidates.error} onRetry={() => void candidates.refetch()} compact />
        ) : rows.length === 0 ? (
          <EmptyState compact icon={<BadgePercent size={22} />} title="No items to price" description="Active items with a standard cost show here." />
        ) : (
          <>
            <div className="toolbar">
              <label className="checkbox checkbox--inline">
                <input
                  type="checkbox"
                  checked={allChosen}
                  onChange={() => setExcluded(allChosen ? new Set(selectable.map((r) => r.candidate.id)) : new Set())}
                />{' '}
                Select all
              </label>
              <Button size="sm" variant="ghost" onClick={() => setExcluded(new Set(rows.filter((r) => !r.changed).map((r) => r.candidate.id)))}>
                Select all changed
              </Button>
              <span className="muted small" aria-live="polite">
                {body.items.length} of {rows.length} chosen
              </span>
            </div>
            <div className="so-scroll">
              <table className="table table--compact" aria-label="Suggested prices" aria-busy={candidates.isFetching || undefined}>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="sr-only">Choose</span>
                    </th>
                    <th scope="col">SKU</th>
                    <th scope="col">Name</th>
                    <th scope="col" className="align-right">
                      Cost
                    </th>
                    <th scope="col" className="align-right">
                      Current price
                    </th>
                    <th scope="col" className="align-right">
                      Suggested
                    </th>
                    <th scope="col" className="align-right">
                      Difference
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.candidate.id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Choose ${r.candidate.sku}`}
                          checked={r.suggested !== null && chosen(r.candidate.id)}
                          disabled={r.suggested === null}
                          onChange={() => toggle(r.candidate.id)}
                        />
                      </td>
                      <td className="mono">{r.candidate.sku}</td>
                      <td>{r.candidate.name}</td>
                      <td className="align-right num">{formatMoney(r.candidate.standard_cost)}</td>
                      <td className="align-right num">{formatMoney(r.candidate.current_selling_price)}</td>
                      <td className="align-right num">{formatMoney(r.suggested)}</td>
                      <td className={`align-right num${r.difference !== null && r.difference < 0 ? ' text-warning' : ''}`}>
                        {r.difference === null ? '—' : r.changed ? signed(r.difference) : 'No change'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
