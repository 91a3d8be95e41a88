/**
 * Item variants (issue 33): a template's material x colour matrix, variants made many at a
 * time (one transaction on the server), its routing synced to them (previewed first), a
 * variant deleted, and an order's material swapped for a variant. Types come from the
 * OpenAPI document; the pure helpers below lay out the matrix and its selection.
 */
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';

export type VariantMatrix = Api<'/items/{id}/variant-matrix', 'get'>;
export type VariantCombo = VariantMatrix['available_combos'][number];
export type Variant = Api<'/items/{id}/variants', 'get'>[number];
export type VariantCreated = Api<'/items/{id}/variants/bulk', 'post'>[number];
export type VariantSelection = RequestBody<'/items/{id}/variants/bulk', 'post'>['selections'][number];
export type VariantSync = Api<'/items/{id}/variants/sync-routing', 'post'>;
export type VariantSyncChange = VariantSync['variants'][number];
export type VariantDeleted = Api<'/items/{id}/variants/{variant_id}', 'delete'>;
export type MaterialSwapBody = RequestBody<'/production-orders/{id}/materials/{material_id}/component', 'patch'>;
export type SwappedMaterial = Api<'/production-orders/{id}/materials/{material_id}/component', 'patch'>;

export const variantsApi = {
  matrix: (itemId: number, signal?: AbortSignal) => api.get<VariantMatrix>(`/items/${itemId}/variant-matrix`, undefined, signal),
  /** A template's variants by SKU; an item that is no template has none. */
  list: (itemId: number, signal?: AbortSignal) => api.get<Variant[]>(`/items/${itemId}/variants`, undefined, signal),
  /** One transaction: an existing variant is skipped, one that cannot be made refuses them all. */
  createMany: (itemId: number, selections: VariantSelection[]) => api.post<VariantCreated[]>(`/items/${itemId}/variants/bulk`, { selections }),
  /** `dryRun`: what each variant's routing would change, nothing written. */
  syncRouting: (itemId: number, dryRun: boolean) =>
    api.request<VariantSync>(`/items/${itemId}/variants/sync-routing`, { method: 'POST', query: dryRun ? { dry_run: true } : undefined }),
  remove: (itemId: number, variantId: number) => api.del<VariantDeleted>(`/items/${itemId}/variants/${variantId}`),
  swapMaterial: (orderId: number, materialId: number, body: MaterialSwapBody) =>
    api.patch<SwappedMaterial>(`/production-orders/${orderId}/materials/${materialId}/component`, body),
};

// ---------------------------------------------------------------- the matrix

export interface MatrixType {
  id: number;
  code: string;
  name: string;
}
export interface MatrixColor {
  id: number;
  code: string;
  name: string;
  hex: string | null;
}
export interface MatrixLayout {
  /** Material types, the rows, in the server's order. */
  types: MatrixType[];
  /** Colours, the columns, in the server's order (every colour any type comes in). */
  colors: MatrixColor[];
  /** The combination of a row and a column, when that type comes in that colour. */
  cell: (typeId: number, colorId: number) => VariantCombo | undefined;
}

/** `typeId:colorId`: a cell's key in a selection. */
export const comboKey = (typeId: number, colorId: number) => `${typeId}:${colorId}`;

/** Rows and columns of the matrix from the server's flat list of combinations. */
export function matrixLayout(combos: readonly VariantCombo[]): MatrixLayout {
  const types = new Map<number, MatrixType>();
  const colors = new Map<number, MatrixColor>();
  const cells = new Map<string, VariantCombo>();
  for (const c of combos) {
    if (!types.has(c.material_type_id)) types.set(c.material_type_id, { id: c.material_type_id, code: c.material_type_code, name: c.material_type_name });
    if (!colors.has(c.color_id)) colors.set(c.color_id, { id: c.color_id, code: c.color_code, name: c.color_name, hex: c.color_hex });
    cells.set(comboKey(c.material_type_id, c.color_id), c);
  }
  return { types: [...types.values()], colors: [...colors.values()], cell: (t, k) => cells.get(comboKey(t, k)) };
}

export type CellState = 'exists' | 'available' | 'unavailable';

/** Made already (a link), to make (a checkbox), or not possible (no material item linked). */
export function cellState(c: VariantCombo): CellState {
  if (c.already_exists) return 'exists';
  return c.has_material ? 'available' : 'unavailable';
}

/** The keys of the cells that can be picked among `combos`. */
export function selectableKeys(combos: readonly (VariantCombo | undefined)[]): string[] {
  return combos.filter((c): c is VariantCombo => c !== undefined && cellState(c) === 'available').map((c) => comboKey(c.material_type_id, c.color_id));
}

/**
 * Ticks every key of a group (a row, a column, everything) or, when all are ticked
 * already, unticks them: what the "select row" checkboxes do.
 */
export function toggleGroup(selected: ReadonlySet<string>, keys: readonly string[]): Set<string> {
  const next = new Set(selected);
  const all = keys.length > 0 && keys.every((k) => next.has(k));
  for (const k of keys) {
    if (all) next.delete(k);
    else next.add(k);
  }
  return next;
}

/** Whether none, some or all of a group is ticked (drives a checkbox's indeterminate look). */
export function groupState(selected: ReadonlySet<string>, keys: readonly string[]): 'none' | 'some' | 'all' {
  const n = keys.filter((k) => selected.has(k)).length;
  if (n === 0) return 'none';
  return n === keys.length ? 'all' : 'some';
}

/** The request's selections, in the matrix's order (rows, then columns). */
export function selectionsOf(selected: ReadonlySet<string>, layout: MatrixLayout): VariantSelection[] {
  const out: VariantSelection[] = [];
  for (const t of layout.types) {
    for (const c of layout.colors) {
      if (selected.has(comboKey(t.id, c.id))) out.push({ material_type_id: t.id, color_id: c.id });
    }
  }
  return out;
}

/** What a bulk create did: the variants made and those skipped (they existed), with why. */
export function createdSummary(rows: readonly VariantCreated[]) {
  const created = rows.filter((r) => r.status === 'created');
  const skipped = rows.filter((r) => r.status !== 'created');
  return { created, skipped, text: `${created.length} created, ${skipped.length} skipped` };
}

/** "1 variant", "3 variants". */
export const variantsWord = (n: number) => `${n} ${n === 1 ? 'variant' : 'variants'}`;

/** A colour as CSS: the server's `#RRGGBB`, or nothing (the swatch then shows a pattern). */
export function swatchColor(hex: string | null | undefined): string | undefined {
  return hex && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(hex) ? hex : undefined;
}
