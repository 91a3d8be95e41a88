/** Spool calls (CONTRACT 5.10). Create takes a JSON body; update takes query parameters. */
import { api } from '../../api/client';
import type { Api, ListQuery } from '../../api/model';
import type { operations } from '../../api/schema.gen';

export type SpoolListQuery = ListQuery<'/spools/'>;
export type SpoolList = Api<'/spools/', 'get'>;
export type Spool = SpoolList['items'][number];
export type SpoolStatus = Spool['status'];
export type SpoolDetail = Api<'/spools/{id}', 'get'>;
export type SpoolUsage = SpoolDetail['usage_history'][number];
export type SpoolCreateQuery = operations['create_spool']['requestBody']['content']['application/json'];
export type SpoolUpdateQuery = NonNullable<operations['update_spool']['parameters']['query']>;
export type SpoolCreated = Api<'/spools/', 'post'>;
export type SpoolUpdated = Api<'/spools/{id}', 'patch'>;

export const SPOOL_STATUSES: readonly SpoolStatus[] = ['active', 'empty', 'expired', 'damaged'];

export const spoolApi = {
  list: (q: SpoolListQuery, signal?: AbortSignal) => api.get<SpoolList>('/spools/', { ...q }, signal),
  get: (id: number, signal?: AbortSignal) => api.get<SpoolDetail>(`/spools/${id}`, undefined, signal),
  create: (q: SpoolCreateQuery) => api.post<SpoolCreated>('/spools/', q),
  update: (id: number, q: SpoolUpdateQuery) => api.request<SpoolUpdated>(`/spools/${id}`, { method: 'PATCH', query: { ...q } }),
};
