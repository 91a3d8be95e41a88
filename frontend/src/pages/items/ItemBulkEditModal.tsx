import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { ItemBulkUpdateInput } from '../../api/model';
import { Button } from '../../components/Button';
import { FormError, SelectField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { queryKeys } from '../../api/queryKeys';

/** `''` keeps the value, `none` clears the category, a number sets it. */
type CategoryChoice = '' | 'none' | `${number}`;
type ActiveChoice = '' | 'active' | 'inactive';

/**
 * The bulk-update body for the choices made: only the fields the user changed, so the server
 * keeps everything else (`category_id: null` clears the category).
 */
export function bulkEditBody(itemIds: number[], category: CategoryChoice, active: ActiveChoice): ItemBulkUpdateInput | null {
  const body: ItemBulkUpdateInput = { item_ids: itemIds };
  if (category === 'none') body.category_id = null;
  else if (category !== '') body.category_id = Number(category);
  if (active !== '') body.is_active = active === 'active';
  return body.category_id === undefined && body.is_active === undefined ? null : body;
}

/** Sets the category and/or the active flag of the selected items in one all-or-nothing call. */
export function ItemBulkEditModal({ itemIds, onClose, onDone }: { itemIds: number[]; onClose: () => void; onDone: () => void }) {
  const open = itemIds.length > 0;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [category, setCategory] = useState<CategoryChoice>('');
  const [active, setActive] = useState<ActiveChoice>('');
  const categories = useQuery({ queryKey: queryKeys.items.categories(), queryFn: () => itemsApi.categories(), enabled: open });
  const body = bulkEditBody(itemIds, category, active);

  const close = () => {
    setCategory('');
    setActive('');
    save.reset();
    onClose();
  };
  const save = useMutation({
    mutationFn: (b: ItemBulkUpdateInput) => itemsApi.bulkUpdate(b),
    onSuccess: async (res) => {
      toast.success('Items updated', res.message);
      setCategory('');
      setActive('');
      onDone();
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
  });

  return (
    <Modal
      open={open}
      title={`Edit ${itemIds.length} ${itemIds.length === 1 ? 'item' : 'items'}`}
      description="Only what you change here is changed; everything else stays as it is. All the items change, or none do."
      onClose={save.isPending ? () => undefined : close}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" loading={save.isPending} disabled={body === null} onClick={() => body && save.mutate(body)}>
            Apply to {itemIds.length} {itemIds.length === 1 ? 'item' : 'items'}
          </Button>
        </>
      }
    >
      <div className="form">
        <FormError title="Nothing was changed" message={save.isError ? errorMessage(save.error) : null} />
        <SelectField
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value as CategoryChoice)}
          options={[
            { value: '', label: 'Keep as is' },
            { value: 'none', label: 'No category' },
            ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.path })),
          ]}
        />
        <SelectField
          label="Status"
          value={active}
          onChange={(e) => setActive(e.target.value as ActiveChoice)}
          options={[
            { value: '', label: 'Keep as is' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
      </div>
    </Modal>
  );
}
