import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, type Path } from 'react-hook-form';
import { z } from 'zod';
import { Plus, Trash2 } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { Button } from '../../components/Button';
import { SelectField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useState } from 'react';
import { bomApi, type Bom, type BomCreate } from './bomApi';
import { queryKeys } from '../../api/queryKeys';

const DECIMAL = /^\d+(\.\d{1,4})?$/;

const lineSchema = z.object({
  component_id: z.string().min(1, 'Choose a component.'),
  quantity: z
    .string()
    .trim()
    .min(1, 'Enter a quantity.')
    .refine((v) => DECIMAL.test(v) && Number(v) > 0, 'Enter a quantity greater than 0 (up to 4 decimals).'),
  unit: z.string().trim(),
  scrap_factor: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number(v) < 100), 'Scrap is a percentage from 0 to under 100.'),
  consume_stage: z.enum(['production', 'shipping']),
});

export const bomFormSchema = z
  .object({
    product_id: z.string().min(1, 'Choose the product this BOM makes.'),
    revision: z.string().trim(),
    process_cost: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d+(\.\d{1,4})?$/.test(v), 'Enter a cost of 0 or more, like 1.50.'),
    lines: z.array(lineSchema),
  })
  .transform(
    (v) =>
      ({
        product_id: Number(v.product_id),
        revision: v.revision || null,
        process_cost: v.process_cost || null,
        lines: v.lines.map((l, i) => ({
          component_id: Number(l.component_id),
          quantity: l.quantity,
          unit: l.unit || null,
          scrap_factor: l.scrap_factor || null,
          consume_stage: l.consume_stage,
          sequence: (i + 1) * 10,
        })),
      }) satisfies BomCreate,
  );

type FormIn = z.input<typeof bomFormSchema>;

const emptyLine: FormIn['lines'][number] = { component_id: '', quantity: '1', unit: '', scrap_factor: '', consume_stage: 'production' };

export function BomFormModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (bom: Bom) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [find, setFind] = useState('');
  const search = useDebouncedValue(find.trim(), 250);
  const items = useQuery({
    queryKey: queryKeys.items.bomPicker(search),
    queryFn: ({ signal }) => itemsApi.list({ limit: 100, offset: 0, search: search || undefined, sort_by: 'sku', sort_order: 'asc' }, signal),
    enabled: open,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  // Items already chosen stay in the lists when a new search leaves them out.
  const [pinned, setPinned] = useState<ReadonlyMap<string, string>>(new Map());
  const found = (items.data?.items ?? []).map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  const options = [...[...pinned].filter(([v]) => !found.some((o) => o.value === v)).map(([value, label]) => ({ value, label })), ...found];
  const pin = (name: Path<FormIn>) => {
    const reg = register(name);
    return {
      ...reg,
      onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
        const opt = e.target.selectedOptions[0];
        if (opt?.value) setPinned((p) => new Map(p).set(opt.value, opt.text));
        return reg.onChange(e);
      },
    };
  };
  const form = useZodForm(bomFormSchema, { defaultValues: { product_id: '', revision: '', process_cost: '', lines: [emptyLine] } });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  const fields: Path<FormIn>[] = ['product_id', 'revision', 'process_cost'];
  lines.fields.forEach((_, i) => {
    fields.push(`lines.${i}.component_id`, `lines.${i}.quantity`, `lines.${i}.unit`, `lines.${i}.scrap_factor`, `lines.${i}.consume_stage`);
  });

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setFind('')}
      size="lg"
      title="New BOM"
      description="The product’s next version; it becomes the active one."
      id="bom-form"
      label="New BOM"
      submitLabel="Create BOM"
      submit={(body) => bomApi.create(body)}
      onSuccess={async (bom) => {
        toast.success('BOM created', `${bom.code} for ${bom.product_sku} has ${bom.line_count} line${bom.line_count === 1 ? '' : 's'}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.bom.all });
        onCreated(bom);
      }}
      fields={fields}
    >
      <TextField
        label="Find items"
        type="search"
        placeholder="SKU or name"
        hint={items.data ? `The product and component lists show ${items.data.items.length} of ${items.data.total} items${search ? ' matching' : ''}.` : 'Narrows the product and component lists.'}
        value={find}
        onChange={(e) => setFind(e.target.value)}
      />
      <div className="form__grid form__grid--3">
        <SelectField label="Product" required placeholder="Choose a product" options={options} error={errors.product_id?.message} {...pin('product_id')} />
        <TextField label="Revision" placeholder="A" error={errors.revision?.message} {...register('revision')} />
        <TextField label="Process cost per unit" inputMode="decimal" placeholder="0.00" error={errors.process_cost?.message} {...register('process_cost')} />
      </div>
      <fieldset className="bom-lines">
        <legend>Lines</legend>
        {lines.fields.map((f, i) => {
          const e = errors.lines?.[i];
          return (
            <div key={f.id} className="bom-line-row" data-testid="bom-line">
              <SelectField label={`Component ${i + 1}`} placeholder="Choose a component" options={options} error={e?.component_id?.message} {...pin(`lines.${i}.component_id`)} />
              <TextField label="Quantity" inputMode="decimal" error={e?.quantity?.message} {...register(`lines.${i}.quantity`)} />
              <TextField label="Unit" placeholder="Item’s unit" error={e?.unit?.message} {...register(`lines.${i}.unit`)} />
              <TextField label="Scrap %" inputMode="decimal" placeholder="0" error={e?.scrap_factor?.message} {...register(`lines.${i}.scrap_factor`)} />
              <SelectField
                label="Stage"
                options={[
                  { value: 'production', label: 'Production' },
                  { value: 'shipping', label: 'Shipping' },
                ]}
                error={e?.consume_stage?.message}
                {...register(`lines.${i}.consume_stage`)}
              />
              <button type="button" className="icon-btn bom-line-row__remove" aria-label={`Remove line ${i + 1}`} onClick={() => lines.remove(i)}>
                <Trash2 size={16} />
              </button>
            </div>
          );
        })}
        <div>
          <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => lines.append(emptyLine)}>
            Add line
          </Button>
        </div>
      </fieldset>
    </FormDialog>
  );
}
