import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Shuffle } from 'lucide-react';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { TextAreaField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatQty } from '../../lib/format';
import { Swatch } from '../items/ItemVariants';
import { variantsApi, type Variant } from '../items/variantsApi';
import { useDone } from './OrderDialogs';
import type { OrderStatus, ProductionMaterial, ProductionOrder } from './productionApi';

/** The order statuses whose materials may still be swapped (the server's rule). */
const SWAPPABLE: readonly OrderStatus[] = ['draft', 'released', 'in_progress', 'on_hold'];

/** Whether a material line may be swapped at all: an open order, nothing of it consumed yet. */
export function canSwap(order: Pick<ProductionOrder, 'status'>, m: Pick<ProductionMaterial, 'quantity_consumed'>): boolean {
  return SWAPPABLE.includes(order.status) && Number(m.quantity_consumed) === 0;
}

/**
 * The active variants of each material's component, for the lines that could be swapped
 * (a component without variants is no template: nothing to offer).
 */
export function useMaterialVariants(order: ProductionOrder | undefined): Map<number, Variant[]> {
  const ids = order ? [...new Set(order.materials.filter((m) => canSwap(order, m)).map((m) => m.component_id))] : [];
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: queryKeys.items.variants(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => variantsApi.list(id, signal),
      staleTime: 30_000,
    })),
  });
  const out = new Map<number, Variant[]>();
  ids.forEach((id, i) => {
    const active = (results[i]?.data ?? []).filter((v) => v.active);
    if (active.length > 0) out.set(id, active);
  });
  return out;
}

const swapSchema = z.object({
  variant_id: z.string().min(1, 'Choose the variant to use.'),
  reason: z.string().trim().max(500, 'Keep the reason under 500 characters.'),
});
type SwapForm = z.input<typeof swapSchema>;

/** "Use a variant" on a material line whose component is a template. */
export function SwapMaterialButton({ order, material, variants }: { order: ProductionOrder; material: ProductionMaterial; variants: Variant[] }) {
  const [open, setOpen] = useState(false);
  const sku = material.component_sku ?? `#${material.component_id}`;
  return (
    <>
      <Button size="sm" variant="ghost" className="wo-swap" icon={<Shuffle size={14} />} aria-label={`Use a variant of ${sku}`} onClick={() => setOpen(true)}>
        Use a variant
      </Button>
      <SwapMaterialDialog order={order} material={material} variants={variants} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export function SwapMaterialDialog({
  order,
  material,
  variants,
  open,
  onClose,
}: {
  order: ProductionOrder;
  material: ProductionMaterial;
  variants: Variant[];
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const done = useDone();
  const form = useZodForm(swapSchema, { defaultValues: { variant_id: '', reason: '' } satisfies SwapForm });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const picked = useWatch({ control, name: 'variant_id' });
  const required = Number(material.quantity_required);
  const sku = material.component_sku ?? `#${material.component_id}`;
  const reserves = order.status === 'released' || order.status === 'in_progress';
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      size="md"
      title={`Use a variant of ${sku}`}
      description={`${formatQty(material.quantity_required, material.unit)} for ${order.code}. ${
        reserves ? 'The reservation moves to the variant.' : 'It is reserved when the order is released.'
      }`}
      id={`swap-material-${material.id}`}
      label={`Use a variant of ${sku}`}
      submitLabel="Use this variant"
      lockWhilePending
      errorTitle="The material was not swapped"
      submit={(v) => variantsApi.swapMaterial(order.id, material.id, { new_component_id: Number(v.variant_id), reason: v.reason.trim() || null })}
      onSuccess={async (m) => {
        toast.success('Material swapped', `${order.code} now uses ${m.component_sku ?? `#${m.component_id}`} instead of ${sku}.`);
        await done();
      }}
      fields={['variant_id', 'reason']}
    >
      <fieldset className="fieldset swap-variants" aria-describedby={errors.variant_id ? `swap-${material.id}-error` : undefined}>
        <legend>Variant</legend>
        <ul className="swap-variants__list" role="radiogroup" aria-label="Variants">
          {variants.map((v) => {
            const short = v.on_hand_qty < required;
            return (
              <li key={v.id}>
                <label className={`swap-variants__row${picked === String(v.id) ? ' is-picked' : ''}`}>
                  <input type="radio" value={String(v.id)} {...register('variant_id')} aria-label={`${v.sku}, ${formatQty(v.on_hand_qty, material.unit)} on hand`} />
                  <Swatch hex={v.color_hex} />
                  <span className="cell-stack swap-variants__name">
                    <span className="mono">{v.sku}</span>
                    <span className="cell-sub">{v.name}</span>
                  </span>
                  <span className="swap-variants__stock">
                    <span className="num">{formatQty(v.on_hand_qty, material.unit)}</span>
                    <Badge tone={short ? 'warning' : 'success'}>{short ? 'Short' : 'Enough'}</Badge>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
        {errors.variant_id?.message && (
          <p className="field__error" id={`swap-${material.id}-error`}>
            {errors.variant_id.message}
          </p>
        )}
      </fieldset>
      <TextAreaField label="Reason" hint="Kept with the change, e.g. the customer asked for red." error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}
