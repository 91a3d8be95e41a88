/** The work centers a printer can belong to (production's resources), for the printer pages. */
import { useQuery } from '@tanstack/react-query';
import type { Option } from '../../components/Field';
import { productionApi, type WorkCenter } from '../production/productionApi';
import { queryKeys } from '../../api/queryKeys';

/**
 * Every work center, active or not, so an inactive one a printer still belongs to keeps its
 * name. The key is the Manufacturing page's "active and inactive" list, so saving a work
 * center (which invalidates `queryKeys.production.all`) refreshes it too.
 */
export function useWorkCenters(enabled = true) {
  return useQuery({
    queryKey: queryKeys.production.workCenters(false),
    queryFn: ({ signal }) => productionApi.workCenters(false, signal),
    enabled,
    staleTime: 60_000,
  });
}

/** `FDM · FDM pool`, as the pickers and lists name a work center. */
export function workCenterLabel(w: Pick<WorkCenter, 'code' | 'name'>): string {
  return `${w.code} · ${w.name}`;
}

/**
 * The choices of the printer form's work center picker: the active work centers, plus the
 * printer's current one (`current`, the select's value) even when inactive or not in the
 * list, so editing a printer never silently drops it. The empty choice is the picker's.
 */
export function workCenterOptions(centers: readonly WorkCenter[], current: string): Option[] {
  const options = centers
    .filter((w) => w.active || String(w.id) === current)
    .map((w) => ({ value: String(w.id), label: w.active ? workCenterLabel(w) : `${workCenterLabel(w)} (inactive)` }));
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: `Work center #${current}` });
  return options;
}

/** The work center of `id` by code and name, `—` for none, its number while the list loads. */
export function workCenterName(centers: readonly WorkCenter[] | undefined, id: number | null | undefined): string {
  if (id === null || id === undefined) return '—';
  const w = centers?.find((c) => c.id === id);
  return w ? workCenterLabel(w) : `#${id}`;
}
