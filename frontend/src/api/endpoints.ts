/**
 * One function per REST call the SPA makes. Paths are relative to /api/v1 and
 * follow the spec (section 4) where it names one, the original's otherwise
 * (CONTRACT "Spec paths" table); the server answers both spellings.
 */
import { api, type RequestOptions } from './client';
import type {
  AuditLogPage,
  AuditLogQuery,
  CompanySettings,
  CompanySettingsPatch,
  CustomerImportResult,
  CustomerListQuery,
  CustomerListRow,
  DashboardSummary,
  InitialAdminRequest,
  InitialAdminResponse,
  InventoryImportResult,
  Item,
  ItemImportResult,
  ItemInput,
  ItemList,
  ItemListQuery,
  Location,
  LoginResponse,
  MessageResponse,
  OrderImportResult,
  PasswordResetApprovalResponse,
  PasswordResetCompleteRequest,
  PasswordResetRequestResponse,
  PasswordResetStatus,
  PrinterList,
  PrinterListQuery,
  PurchaseOrderList,
  PurchaseOrderListQuery,
  ScrapReasonList,
  SeedExampleDataResponse,
  SetupStatus,
  TeamUser,
  TeamUserCreate,
  TeamUserListQuery,
  UserResponse,
  VendorList,
  VendorListQuery,
} from './types';

type Upload = Pick<RequestOptions, 'onUploadProgress' | 'signal'>;

/** Lists come bare or wrapped (CONTRACT 0 "no uniform envelope"): accept both. */
export function asArray<T>(data: T[] | { items?: T[] } | null | undefined): T[] {
  if (Array.isArray(data)) return data;
  return data?.items ?? [];
}

/** `{total, items}` from `{total, items}`, `{items, pagination:{total}}` or a bare array. */
export function asItemPage<T>(data: unknown): { total: number; items: T[] } {
  if (Array.isArray(data)) return { total: data.length, items: data as T[] };
  const d = (data ?? {}) as { items?: T[]; total?: number; pagination?: { total?: number } };
  const items = d.items ?? [];
  return { total: d.total ?? d.pagination?.total ?? items.length, items };
}

function fileForm(file: File): FormData {
  const fd = new FormData();
  fd.append('file', file, file.name);
  return fd;
}

// ---------------------------------------------------------------- setup
export const setupApi = {
  status: () => api.request<SetupStatus>('/setup/status', { noRefresh: true }),
  initialAdmin: (body: InitialAdminRequest) =>
    api.request<InitialAdminResponse>('/setup/initial-admin', { method: 'POST', json: body, noRefresh: true }),
  seedExampleData: () => api.post<SeedExampleDataResponse>('/setup/seed-example-data'),
};

// ---------------------------------------------------------------- auth
export const authApi = {
  login: (email: string, password: string) =>
    api.request<LoginResponse>('/auth/login', {
      method: 'POST',
      form: { username: email, password },
      noRefresh: true,
    }),
  me: (signal?: AbortSignal) => api.get<UserResponse>('/auth/me', undefined, signal),
  logout: (refreshToken: string | null) =>
    api.request<MessageResponse>('/auth/logout', {
      method: 'POST',
      json: refreshToken ? { refresh_token: refreshToken } : {},
      noRefresh: true,
    }),
  requestPasswordReset: (email: string) =>
    api.request<PasswordResetRequestResponse>('/auth/password-reset/request', {
      method: 'POST',
      json: { email },
      noRefresh: true,
    }),
  passwordResetStatus: (token: string) =>
    api.request<PasswordResetStatus>(`/auth/password-reset/status/${encodeURIComponent(token)}`, { noRefresh: true }),
  completePasswordReset: (body: PasswordResetCompleteRequest) =>
    api.request<MessageResponse>('/auth/password-reset/complete', { method: 'POST', json: body, noRefresh: true }),
  approvePasswordReset: (approvalToken: string) =>
    api.request<PasswordResetApprovalResponse>('/auth/password-reset/approve', {
      method: 'POST',
      json: { approval_token: approvalToken },
      noRefresh: true,
    }),
  denyPasswordReset: (approvalToken: string, reason: string | null) =>
    api.request<PasswordResetApprovalResponse>('/auth/password-reset/deny', {
      method: 'POST',
      json: { approval_token: approvalToken, reason },
      noRefresh: true,
    }),
};

// ---------------------------------------------------------------- items
export const itemsApi = {
  list: async (q: ItemListQuery, signal?: AbortSignal): Promise<ItemList> =>
    asItemPage<ItemList['items'][number]>(await api.get<unknown>('/items', { ...q }, signal)),
  get: (id: number) => api.get<Item>(`/items/${id}`),
  create: (body: ItemInput) => api.post<Item>('/items', body),
  update: (id: number, body: ItemInput) => api.patch<Item>(`/items/${id}`, body),
  remove: (id: number) => api.del<MessageResponse>(`/items/${id}`),
  importCsv: (file: File, opts: Upload = {}) =>
    api.request<ItemImportResult>('/items/import', { method: 'POST', formData: fileForm(file), ...opts }),
};

// ---------------------------------------------------------------- imports used by onboarding
export const importApi = {
  customers: (file: File, opts: Upload = {}) =>
    api.request<CustomerImportResult>('/admin/customers/import', { method: 'POST', formData: fileForm(file), ...opts }),
  orders: (file: File, opts: Upload = {}) =>
    api.request<OrderImportResult>('/admin/orders/import', {
      method: 'POST',
      query: { create_customers: true, source: 'manual' },
      formData: fileForm(file),
      ...opts,
    }),
  inventory: (file: File, opts: Upload = {}) =>
    api.request<InventoryImportResult>('/admin/import/inventory', { method: 'POST', formData: fileForm(file), ...opts }),
};

// ---------------------------------------------------------------- master data
export const customersApi = {
  list: async (q: CustomerListQuery, signal?: AbortSignal) =>
    asArray(await api.get<CustomerListRow[] | { items: CustomerListRow[] }>('/admin/customers/', { ...q }, signal)),
};

export const vendorsApi = {
  list: (q: VendorListQuery, signal?: AbortSignal) => api.get<VendorList>('/vendors/', { ...q }, signal),
};

export const locationsApi = {
  list: (includeInactive = false, signal?: AbortSignal) =>
    api.get<Location[] | { items: Location[] }>('/admin/locations/', { include_inactive: includeInactive }, signal).then(asArray),
};

export const printersApi = {
  list: (q: PrinterListQuery, signal?: AbortSignal) => api.get<PrinterList>('/printers/', { ...q }, signal),
};

export const scrapReasonsApi = {
  list: (signal?: AbortSignal) => api.get<ScrapReasonList>('/scrap-reasons/', undefined, signal),
};

export const settingsApi = {
  get: (signal?: AbortSignal) => api.get<CompanySettings>('/settings/', undefined, signal),
  patch: (body: CompanySettingsPatch) => api.patch<CompanySettings>('/settings/', body),
};

export const usersApi = {
  list: async (q: TeamUserListQuery, signal?: AbortSignal) =>
    asArray(await api.get<TeamUser[] | { items: TeamUser[] }>('/admin/users/', { ...q }, signal)),
  create: (body: TeamUserCreate) => api.post<TeamUser>('/admin/users/', body),
};

export const auditApi = {
  list: (q: AuditLogQuery, signal?: AbortSignal) => api.get<AuditLogPage>('/security/audit-log/', { ...q }, signal),
};

export const dashboardApi = {
  summary: (signal?: AbortSignal) => api.get<DashboardSummary>('/admin/dashboard/summary', undefined, signal),
};

export const purchaseOrdersApi = {
  list: (q: PurchaseOrderListQuery, signal?: AbortSignal) => api.get<PurchaseOrderList>('/purchase-orders/', { ...q }, signal),
};
