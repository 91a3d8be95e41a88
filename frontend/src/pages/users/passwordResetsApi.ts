/**
 * Password reset requests waiting for an administrator (mail not configured), reviewed on
 * the Team Members page. Admins only; the shapes come from the generated document.
 */
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';

/** Pending and unexpired, oldest first (an empty array when none). */
export type ResetRequestList = Api<'/admin/password-reset-requests', 'get'>;
export type ResetRequest = ResetRequestList[number];
/** `reset_url`: without mail, the link (valid 1 hour) to hand to the user; null when they were e-mailed. */
export type ResetApproval = Api<'/admin/password-reset-requests/{id}/approve', 'post'>;
export type ResetDenialBody = RequestBody<'/admin/password-reset-requests/{id}/deny', 'post'>;
export type ResetDenial = Api<'/admin/password-reset-requests/{id}/deny', 'post'>;

const PATH = '/admin/password-reset-requests';

export const passwordResetsApi = {
  list: (signal?: AbortSignal) => api.get<ResetRequestList>(PATH, undefined, signal),
  /** No body. */
  approve: (id: number) => api.post<ResetApproval>(`${PATH}/${id}/approve`),
  deny: (id: number, body: ResetDenialBody) => api.post<ResetDenial>(`${PATH}/${id}/deny`, body),
};
