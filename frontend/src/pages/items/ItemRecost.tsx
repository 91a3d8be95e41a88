import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Calculator } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { ItemRecostAllResult, ItemRecostResult } from '../../api/model';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/Toast';
import { queryKeys } from '../../api/queryKeys';

/**
 * Recomputes one item's standard cost (admins): from its active BOM's roll-up for made items,
 * its latest purchase price for bought ones. Asks first; hands the new cost back to the form.
 */
export function ItemRecostButton({ itemId, sku, onRecosted }: { itemId: number; sku: string; onRecosted: (r: ItemRecostResult) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const recost = useMutation({
    mutationFn: () => itemsApi.recost(itemId),
    onSuccess: async (r) => {
      setAsking(false);
      onRecosted(r);
      toast.success(r.changed ? 'Standard cost updated' : 'Standard cost unchanged', r.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    onError: (err) => {
      setAsking(false);
      toast.error('The item was not recosted', errorMessage(err));
    },
  });
  return (
    <>
      <Button size="sm" icon={<Calculator size={14} />} onClick={() => setAsking(true)}>
        Recost
      </Button>
      <ConfirmDialog
        open={asking}
        title="Recompute the standard cost?"
        message={
          <>
            The standard cost of <strong>{sku}</strong> is replaced by its bill of materials’ cost roll-up (made items) or its
            latest purchase price (bought items).
          </>
        }
        confirmLabel="Recost"
        destructive={false}
        busy={recost.isPending}
        onConfirm={() => recost.mutate()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/** The summary toast of a recost-all run. */
export function recostAllSummary(r: ItemRecostAllResult): string {
  return `${r.updated} changed, ${r.unchanged} already right, ${r.skipped} skipped (no BOM or purchase history).`;
}

/** Recomputes the standard cost of every active item (admins), after asking. */
export function RecostAllButton() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const recost = useMutation({
    mutationFn: () => itemsApi.recostAll(),
    onSuccess: async (r) => {
      setAsking(false);
      toast.success(`Recosted ${r.updated} ${r.updated === 1 ? 'item' : 'items'}`, recostAllSummary(r));
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    onError: (err) => {
      setAsking(false);
      toast.error('Items were not recosted', errorMessage(err));
    },
  });
  return (
    <>
      <Button icon={<Calculator size={16} />} onClick={() => setAsking(true)}>
        Recost all
      </Button>
      <ConfirmDialog
        open={asking}
        title="Recost every active item?"
        message="Standard costs are recomputed from bills of materials (made items) and the latest purchase prices (bought items). Items with neither keep their cost."
        confirmLabel="Recost all"
        destructive={false}
        busy={recost.isPending}
        onConfirm={() => recost.mutate()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
