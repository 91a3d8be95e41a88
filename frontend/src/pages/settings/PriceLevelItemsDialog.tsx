import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { z } from 'zod';
import { itemsApi, priceLevelsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { PriceLevel, PriceLevelItem } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebounce';

/** The set-a-price form: an item by SKU and its price on the level. */
export const levelItemPriceSchema = z.object({
  sku: z
    .string()
    .trim()
    .min(1, 'Enter the item’s SKU.')
    .transform((v) => v.toUpperCase()),
  unit_price: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v), 'Enter a price, with at most 2 decimals.'),
});
type LevelItemPriceForm = z.input<typeof levelItemPriceSchema>;
const FIELDS = ['sku', 'unit_price'] as const;
const EMPTY: LevelItemPriceForm = { sku: '', unit_price: '' };

class UnknownSku extends Error {}

/** A level's own item prices (they beat its discount): the list, remove, and set one. */
export function PriceLevelItemsDialog({ level, onClose }: { level: PriceLevel | null; onClose: () => void }) {
  return (
    <Modal
      open={level !== null}
      onClose={onClose}
      size="lg"
      title={level ? `Item prices · ${level.name}` : 'Item prices'}
      description="Items priced here ignore the level's discount."
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {level && <LevelItems key={level.id} level={level} />}
    </Modal>
  );
}

function LevelItems({ level }: { level: PriceLevel }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const items = useQuery({ queryKey: queryKeys.priceLevels.items(level.id), queryFn: ({ signal }) => priceLevelsApi.items(level.id, signal) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.priceLevels.items(level.id) });
  const remove = useMutation({
    mutationFn: (i: PriceLevelItem) => priceLevelsApi.removeItemPrice(level.id, i.item_id),
    onSuccess: async (_, i) => {
      toast.success('Item price removed', `${i.sku} gets ${level.name}'s discount again.`);
      await invalidate();
    },
    onError: (err) => toast.error('The item price was not removed', errorMessage(err)),
  });

  const form = useZodForm(levelItemPriceSchema, { defaultValues: EMPTY });
  const {
    register,
    setError,
    control,
    formState: { errors },
  } = form;
  const sku = useWatch({ control, name: 'sku' });
  const term = useDebouncedValue(sku.trim(), 250);
  const suggestions = useQuery({
    queryKey: queryKeys.items.list({ search: term, limit: 10, picker: 'price-level' }),
    queryFn: ({ signal }) => itemsApi.list({ search: term, limit: 10, offset: 0 }, signal),
    enabled: term.length > 0,
    staleTime: 30_000,
  });
  const match = suggestions.data?.items.find((i) => i.sku.toUpperCase() === sku.trim().toUpperCase());
  const listId = `price-level-${level.id}-items`;

  return (
    <div className="form">
      {items.isPending ? (
        <Skeleton height={60} />
      ) : items.error ? (
        <ErrorState error={items.error} onRetry={() => void items.refetch()} compact />
      ) : items.data.length === 0 ? (
        <EmptyState compact title="No item prices" description={`Every item gets ${level.discount_percent}% off its list price.`} />
      ) : (
        <div className="so-scroll">
          <table className="table table--compact" aria-label={`Item prices of ${level.name}`}>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col" className="align-right">
                  List price
                </th>
                <th scope="col" className="align-right">
                  Level price
                </th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.data.map((i) => (
                <tr key={i.item_id}>
                  <td>
                    <span className="cell-stack">
                      <span className="cell-strong mono">{i.sku}</span>
                      <span className="cell-sub">{i.name}</span>
                    </span>
                  </td>
                  <td className="align-right num">{formatMoney(i.selling_price)}</td>
                  <td className="align-right num">{formatMoney(i.unit_price)}</td>
                  <td className="align-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<Trash2 size={14} />}
                      aria-label={`Remove the price of ${i.sku}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(i)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormDialog
        embedded
        form={form}
        // The form stays in the dialog: after a price is set (or Clear) it is only emptied.
        onClose={() => undefined}
        label="Set an item price"
        submitLabel="Set price"
        cancelLabel="Clear"
        errorTitle="The item price was not set"
        submit={async (v) => {
          let item = suggestions.data?.items.find((i) => i.sku.toUpperCase() === v.sku);
          if (!item) {
            try {
              item = await itemsApi.bySku(v.sku);
            } catch (err) {
              if (err instanceof ApiError && err.isNotFound) throw new UnknownSku(`No item has the SKU ${v.sku}.`);
              throw err;
            }
          }
          await priceLevelsApi.setItemPrice(level.id, item.id, v.unit_price);
          return item;
        }}
        onSuccess={async (item, v) => {
          toast.success('Item price set', `${item.sku} costs ${formatMoney(v.unit_price)} on ${level.name}.`);
          await invalidate();
        }}
        serverError={(err) => {
          const skuError = err instanceof UnknownSku ? err.message : err instanceof ApiError ? err.fieldErrors.item_id : undefined;
          if (!skuError) return undefined;
          setError('sku', { type: 'server', message: skuError }, { shouldFocus: true });
          return null;
        }}
        fields={FIELDS}
      >
        <div className="form__grid">
          <TextField
            label="Item SKU"
            required
            autoComplete="off"
            list={listId}
            hint={match ? match.name : 'Type to search by SKU or name.'}
            error={errors.sku?.message}
            {...register('sku')}
          />
          <TextField label="Level price" required inputMode="decimal" placeholder="8.50" error={errors.unit_price?.message} {...register('unit_price')} />
        </div>
        <datalist id={listId}>
          {(suggestions.data?.items ?? []).map((i) => (
            <option key={i.id} value={i.sku}>
              {i.name}
            </option>
          ))}
        </datalist>
      </FormDialog>
    </div>
  );
}
