/** BOM calls (CONTRACT 5.7); the shapes come from the generated document. */
import { api } from '../../api/client';
import type { Api, ListQuery, RequestBody } from '../../api/model';

export type BomListQuery = ListQuery<'/admin/bom/'>;
export type BomList = Api<'/admin/bom/', 'get'>;
export type BomRow = BomList[number];
export type Bom = Api<'/admin/bom/{bom_id}', 'get'>;
export type BomLine = Bom['lines'][number];
export type BomCreate = RequestBody<'/admin/bom/', 'post'>;
export type BomLineCreate = NonNullable<BomCreate['lines']>[number];
export type BomExplosion = Api<'/admin/bom/{bom_id}/explode', 'get'>;
export type ExplosionRow = BomExplosion['lines'][number];
export type WhereUsedRow = Api<'/admin/bom/where-used/{product_id}', 'get'>[number];
export type BomValidation = Api<'/admin/bom/{bom_id}/validate', 'post'>;

export const BOM_SORTS = ['code', 'name', 'version', 'product_sku', 'material_cost', 'created_at', 'updated_at'] as const;

export const bomApi = {
  list: (q: BomListQuery, signal?: AbortSignal) => api.get<BomList>('/admin/bom/', { ...q }, signal),
  get: (id: number, signal?: AbortSignal) => api.get<Bom>(`/admin/bom/${id}`, undefined, signal),
  create: (body: BomCreate) => api.post<Bom>('/admin/bom/', body),
  update: (id: number, body: RequestBody<'/admin/bom/{bom_id}', 'patch'>) => api.patch<Bom>(`/admin/bom/${id}`, body),
  remove: (id: number) => api.del<unknown>(`/admin/bom/${id}`),
  copy: (id: number) => api.post<Bom>(`/admin/bom/${id}/copy`, {}),
  explode: (id: number, signal?: AbortSignal) => api.get<BomExplosion>(`/admin/bom/${id}/explode`, undefined, signal),
  whereUsed: (productId: number, signal?: AbortSignal) =>
    api.get<WhereUsedRow[]>(`/admin/bom/where-used/${productId}`, undefined, signal),
  validate: (id: number) => api.post<BomValidation>(`/admin/bom/${id}/validate`),
};
