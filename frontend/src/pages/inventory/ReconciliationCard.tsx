import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ListChecks } from 'lucide-react';
import { inventoryApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { queryKeys } from '../../api/queryKeys';

/**
 * Today's reconciliation of one location: how many of its balances were counted since
 * midnight (UTC), and a way to take the rest as counted at their stored quantity once the
 * shelves that differ have been counted. Confirming moves no stock; it only dates the count.
 */
export function ReconciliationCard({ locationId, locationName }: { locationId: number; locationName: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const progress = useQuery({
    queryKey: queryKeys.inventory.reconciliation(locationId),
    queryFn: ({ signal }) => inventoryApi.reconciliation({ location_id: locationId, limit: 1 }, signal),
  });
  const confirm = useMutation({
    mutationFn: () => inventoryApi.confirmStored(locationId),
    onSuccess: (res) => {
      setAsking(false);
      toast.success('Count completed', `${res.confirmed} ${res.confirmed === 1 ? 'balance' : 'balances'} at ${locationName} confirmed at their stored quantity.`);
      void queryClient.invalidateQueries({ queryKey: queryKeys.inventory.all });
    },
    onError: (err) => {
      setAsking(false);
      toast.error('The remaining balances were not confirmed', errorMessage(err));
    },
  });

  if (progress.isPending) return <Skeleton height={64} />;
  if (progress.isError) return null;
  const { balances, counted, remaining } = progress.data;
  const pct = balances > 0 ? Math.round((counted / balances) * 100) : 0;
  return (
    <section className="card card--pad reconciliation" aria-label="Reconciliation progress" data-testid="reconciliation">
      <div className="card__row">
        <div className="reconciliation__text">
          <h2 className="card__title">Counted today at {locationName}</h2>
          <p className="muted">
            {balances === 0
              ? 'Nothing is stocked here yet.'
              : remaining === 0
                ? `All ${balances} balances are counted.`
                : `${counted} of ${balances} balances counted; ${remaining} to go.`}
          </p>
          <div
            className="upload-progress__bar"
            role="progressbar"
            aria-label="Balances counted today"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
          >
            <span style={{ width: `${pct}%` }} />
          </div>
        </div>
        <Button icon={<ListChecks size={16} />} disabled={remaining === 0} onClick={() => setAsking(true)}>
          Confirm the rest as stored
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        title="Confirm the remaining balances?"
        message={`The ${remaining} ${remaining === 1 ? 'balance' : 'balances'} at ${locationName} not counted today will be recorded as counted at the quantity on the books. No stock moves and nothing is posted.`}
        confirmLabel={`Confirm ${remaining}`}
        destructive={false}
        busy={confirm.isPending}
        onConfirm={() => confirm.mutate()}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
