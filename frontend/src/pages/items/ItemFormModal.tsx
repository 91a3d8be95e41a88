import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../../api/client';
import { apiBaseUrl } from '../../api/config';
import { itemsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { Item, ItemCreateInput, ItemFile, ItemUpdateInput } from '../../api/model';
import { getAccessToken } from '../../auth/storage';
import { CheckboxField, FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatBytes } from '../../lib/format';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { ItemRecostButton } from './ItemRecost';
import { ItemStock } from './ItemStock';
import { ItemVariants } from './ItemVariants';
import { ITEM_TYPE_VALUES, ITEM_TYPES, ITEM_TYPES_FOR_FORM, PROCUREMENT_TYPES, UNITS } from './itemOptions';
import { queryKeys } from '../../api/queryKeys';

const DECIMAL_MESSAGE = 'Enter a number of 0 or more, like 12.50.';
/** A decimal typed as text: blank is null, anything else must be a plain non-negative number. */
const decimal = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d+(\.\d+)?$/.test(v), DECIMAL_MESSAGE)
  .transform((v) => v || null);
const optionalText = z
  .string()
  .trim()
  .transform((v) => v || null);

/**
 * The item form: what the fields hold (text, as typed) and what the API receives. The
 * output is checked against the generated request bodies of POST /items and PATCH
 * /items/{id}, so a renamed or retyped API field breaks the type-check here.
 */
export const itemFormSchema = z.object({
  sku: z
    .string()
    .trim()
    .min(1, 'Enter a SKU.')
    .max(50, 'Use at most 50 characters.')
    .transform((v) => v.toUpperCase()),
  name: z.string().trim().min(1, 'Enter a name.').max(255, 'Use at most 255 characters.'),
  description: optionalText,
  item_type: z.enum(ITEM_TYPE_VALUES, { error: 'Choose a type.' }),
  procurement_type: z.enum(['', 'make', 'buy', 'make_or_buy']).transform((v) => (v === '' ? null : v)),
  unit: z.string().min(1, 'Choose a unit.'),
  standard_cost: decimal,
  selling_price: decimal,
  reorder_point: decimal,
  reorder_qty: decimal,
  lead_time_days: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d+$/.test(v), 'Enter a whole number of days.')
    .transform((v) => (v ? Number.parseInt(v, 10) : null)),
  upc: optionalText,
  is_active: z.boolean(),
}) satisfies z.ZodType<ItemCreateInput & ItemUpdateInput, unknown>;

export type ItemFormValues = z.input<typeof itemFormSchema>;
const FIELDS = Object.keys(itemFormSchema.shape) as (keyof ItemFormValues)[];

const EMPTY: ItemFormValues = {
  sku: '',
  name: '',
  description: '',
  item_type: 'finished_good',
  procurement_type: 'buy',
  unit: 'EA',
  standard_cost: '',
  selling_price: '',
  reorder_point: '',
  reorder_qty: '',
  lead_time_days: '',
  upc: '',
  is_active: true,
};

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function fromItem(item: Item): ItemFormValues {
  return {
    sku: item.sku,
    name: item.name,
    description: str(item.description),
    item_type: item.item_type,
    procurement_type: item.procurement_type ?? '',
    unit: item.unit || 'EA',
    standard_cost: str(item.standard_cost),
    selling_price: str(item.selling_price),
    reorder_point: str(item.reorder_point),
    reorder_qty: str(item.reorder_qty),
    lead_time_days: str(item.lead_time_days),
    upc: str(item.upc),
    is_active: item.active,
  };
}

export type ItemTab = 'details' | 'variants';
const ITEM_TABS: { id: ItemTab; label: string }[] = [
  { id: 'details', label: 'Details' },
  { id: 'variants', label: 'Variants' },
];

interface ItemFormModalProps {
  open: boolean;
  /** The item to edit, or null to create one. */
  itemId: number | null;
  /** The tab shown for an item being edited (details by default). */
  tab?: ItemTab;
  onTabChange?: (tab: ItemTab) => void;
  onClose: () => void;
}

export function ItemFormModal({ open, itemId, tab = 'details', onTabChange, onClose }: ItemFormModalProps) {
  const editing = itemId !== null;
  const detail = useQuery({
    queryKey: queryKeys.items.detail(itemId),
    queryFn: () => itemsApi.get(itemId!),
    enabled: open && editing,
    staleTime: 0,
  });
  const [ownTab, setOwnTab] = useState<ItemTab>(tab);
  const shown = onTabChange ? tab : ownTab;
  const choose = onTabChange ?? setOwnTab;
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={editing ? 'Edit item' : 'New item'}
      description={editing ? detail.data?.sku : 'Add a product, component, material or consumable.'}
    >
      {editing && detail.isPending ? (
        <div className="form" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={34} />
          ))}
        </div>
      ) : editing && detail.error ? (
        <FormError message={errorMessage(detail.error)} title="The item could not be loaded." />
      ) : editing && detail.data ? (
        <>
          <div className="tabs item-tabs" role="tablist" aria-label="Item views">
            {ITEM_TABS.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`item-tab-${id}`}
                aria-selected={shown === id}
                aria-controls={`item-panel-${id}`}
                className={`tab${shown === id ? ' is-active' : ''}`}
                onClick={() => choose(id)}
              >
                {label}
              </button>
            ))}
          </div>
          {/* The form stays mounted behind the Variants tab, so edits in progress survive a look at it. */}
          <div role="tabpanel" id="item-panel-details" aria-labelledby="item-tab-details" hidden={shown !== 'details'}>
            <ItemForm key={itemId} item={detail.data} onClose={onClose} />
          </div>
          {shown === 'variants' && (
            <div role="tabpanel" id="item-panel-variants" aria-labelledby="item-tab-variants">
              <ItemVariants itemId={detail.data.id} />
            </div>
          )}
        </>
      ) : (
        <ItemForm key="new" item={null} onClose={onClose} />
      )}
    </Modal>
  );
}

function ItemForm({ item, onClose }: { item: Item | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { user } = useAuth();
  const form = useZodForm(itemFormSchema, { defaultValues: item ? fromItem(item) : EMPTY });
  const {
    register,
    setError,
    setValue,
    control,
    formState: { errors },
  } = form;

  const itemType = useWatch({ control, name: 'item_type' });
  const typeOptions = ITEM_TYPES_FOR_FORM.some((t) => t.value === itemType)
    ? ITEM_TYPES_FOR_FORM
    : [...ITEM_TYPES_FOR_FORM, ...ITEM_TYPES.filter((t) => t.value === itemType)];

  return (
    <FormDialog
      embedded
      form={form}
      onClose={onClose}
      label={item ? 'Edit item' : 'New item'}
      submitLabel={item ? 'Save changes' : 'Create item'}
      lockWhilePending
      submit={(input) => (item ? itemsApi.update(item.id, input) : itemsApi.create(input))}
      onSuccess={async (saved) => {
        await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
        toast.success(item ? 'Item saved' : 'Item created', `${saved.sku} · ${saved.name}`);
      }}
      serverError={(err) => {
        // A taken SKU is a 400 with a sentence, not a 422 naming the field: show it on the field.
        if (!(err instanceof ApiError && (err.status === 400 || err.status === 409) && /sku/i.test(err.message) && !err.fieldErrors.sku)) return undefined;
        setError('sku', { type: 'server', message: err.message }, { shouldFocus: true });
        return 'Please correct the highlighted fields.';
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <TextField label="SKU" {...register('sku')} error={errors.sku?.message} required maxLength={50} autoComplete="off" className="field--mono" />
        <TextField label="Name" {...register('name')} error={errors.name?.message} required maxLength={255} autoComplete="off" />
      </div>
      <TextAreaField label="Description" {...register('description')} error={errors.description?.message} />
      {item && <ItemStock item={item} />}
      <div className="form__grid form__grid--3">
        <SelectField label="Type" {...register('item_type')} options={typeOptions} error={errors.item_type?.message} required />
        <SelectField label="Procurement" {...register('procurement_type')} options={PROCUREMENT_TYPES} placeholder="Not set" error={errors.procurement_type?.message} />
        <SelectField label="Unit" {...register('unit')} options={UNITS} error={errors.unit?.message} required />
      </div>
      <fieldset className="fieldset">
        <legend>Cost and price</legend>
        <div className="form__grid">
          <TextField label="Standard cost" inputMode="decimal" {...register('standard_cost')} error={errors.standard_cost?.message} />
          <TextField label="Selling price" inputMode="decimal" {...register('selling_price')} error={errors.selling_price?.message} />
        </div>
        {item && (
          <p className="field__hint">
            Average cost {str(item.average_cost) || '—'} · last cost {str(item.last_cost) || '—'} (kept by the server from receipts).
          </p>
        )}
        {item && isAdmin(user) && (
          <ItemRecostButton
            itemId={item.id}
            sku={item.sku}
            onRecosted={(r) => setValue('standard_cost', str(r.new_cost), { shouldDirty: false })}
          />
        )}
      </fieldset>
      <fieldset className="fieldset">
        <legend>Replenishment</legend>
        <div className="form__grid form__grid--3">
          <TextField label="Reorder point" inputMode="decimal" {...register('reorder_point')} error={errors.reorder_point?.message} />
          <TextField label="Reorder quantity" inputMode="decimal" {...register('reorder_qty')} error={errors.reorder_qty?.message} />
          <TextField label="Lead time (days)" inputMode="numeric" {...register('lead_time_days')} error={errors.lead_time_days?.message} />
        </div>
      </fieldset>
      <div className="form__grid">
        <TextField label="UPC / barcode" {...register('upc')} error={errors.upc?.message} autoComplete="off" />
        <div className="form__checks">
          <CheckboxField label="Active" {...register('is_active')} hint="Inactive items are hidden from lists and can’t be ordered." />
        </div>
      </div>
      {item && <ItemFiles files={item.files ?? []} />}
    </FormDialog>
  );
}

/** Fetches a download with the session's token and hands it to the browser under `filename`. */
async function saveDownload(url: string, filename: string): Promise<void> {
  const data = await api.blob(url);
  const href = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.click();
  // Give the browser a moment to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The item's files, each with a link that downloads it (the server names the file). */
function ItemFiles({ files }: { files: ItemFile[] }) {
  const toast = useToast();
  return (
    <fieldset className="fieldset">
      <legend>Files</legend>
      {files.length === 0 ? (
        <p className="muted">No files attached.</p>
      ) : (
        <ul className="file-list" aria-label="Item files">
          {files.map((f) => (
            <li key={f.id} className="file-list__row">
              <span className="cell-strong">{f.filename}</span>
              <span className="muted">{formatBytes(f.size_bytes)}</span>
              {f.download_url ? (
                <a
                  className="btn btn--sm btn--secondary"
                  href={`${apiBaseUrl()}${f.download_url}`}
                  download={f.filename}
                  aria-label={`Download ${f.filename}`}
                  onClick={(e) => {
                    // Header mode: a plain link would not carry the bearer token, so fetch it.
                    if (!getAccessToken()) return;
                    e.preventDefault();
                    void saveDownload(f.download_url ?? '', f.filename).catch((err: unknown) => toast.error('The file was not downloaded', errorMessage(err)));
                  }}
                >
                  <Download size={14} aria-hidden="true" />
                  <span className="btn__label">Download</span>
                </a>
              ) : (
                <span className="muted">Download not available</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
