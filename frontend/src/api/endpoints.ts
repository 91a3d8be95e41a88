/**
 * One function per REST call the SPA makes. Paths are relative to /api/v1 and
 * follow the spec (section 4) where it names one, the original's otherwise
 * (CONTRACT "Spec paths" table); the server answers both spellings. Each call has one
 * known answer shape (CONTRACT 5, the OpenAPI document): see model.ts.
 */
import { api, buildUrl, type RequestOptions } from './client';
import type {
  AccountingSummary,
  JournalQuery,
  PaymentsJournal,
  ReceivablesAging,
  SalesJournal,
  TaxSummary,
  AccountLedger,
  AdjustmentReason,
  AdjustQuantityRequest,
  AdjustQuantityResult,
  ConfirmStoredResult,
  CycleCountRequest,
  InventoryReconciliation,
  InventoryReconciliationQuery,
  CycleCountResult,
  FiscalPeriod,
  InventoryLocation,
  InventorySummary,
  InventorySummaryQuery,
  InventoryTransaction,
  InventoryTransactionCreate,
  InventoryTransactionList,
  InventoryTransactionQuery,
  InventoryValuation,
  JournalEntry,
  LedgerQuery,
  TrialBalance,
  TrialBalanceQuery,
  AuditLogPage,
  AuditLogQuery,
  AiConnectionTest,
  AiSettings,
  SecurityRemediation,
  SecurityScan,
  CompanySettings,
  CompanySettingsPatch,
  CustomerImportResult,
  CustomerList,
  CustomerOrders,
  CustomerListQuery,
  Customer,
  CustomerCreate,
  CustomerUpdate,
  TaxRate,
  TaxRateCreate,
  TaxRateList,
  TaxRateUpdate,
  PriceLevel,
  PriceLevelCreate,
  PriceLevelItemList,
  PriceLevelList,
  PriceLevelUpdate,
  PriceCandidateList,
  PriceCandidateQuery,
  ApplySuggestedPricesInput,
  ApplySuggestedPricesResult,
  InitialAdminRequest,
  InitialAdminResponse,
  InventoryImportResult,
  Item,
  ItemBulkUpdateInput,
  ItemBulkUpdateResult,
  ItemCategoryList,
  ItemCreateInput,
  ItemDeleteResponse,
  ItemImportResult,
  ItemRecostAllResult,
  ItemRecostResult,
  ItemList,
  ItemListQuery,
  ItemUpdateInput,
  LocationList,
  LocationListQuery,
  LoginResponse,
  LogoutResponse,
  OrderImportResult,
  PasswordResetApprovalResponse,
  PasswordResetCompleteRequest,
  PasswordResetCompleteResponse,
  PasswordResetRequestResponse,
  PasswordResetStatus,
  PrinterList,
  PrinterListQuery,
  PurchaseOrderList,
  PurchaseOrderListQuery,
  ScrapReasonList,
  SeedExampleDataResponse,
  SetupStatus,
  SortParams,
  TeamUserCreate,
  TeamUserCreateResponse,
  TeamUserList,
  TeamUserListQuery,
  UserResponse,
  VendorList,
  VendorListQuery,
} from './model';

type Upload = Pick<RequestOptions, 'onUploadProgress' | 'signal'>;

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
    api.request<LogoutResponse>('/auth/logout', {
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
    api.request<PasswordResetCompleteResponse>('/auth/password-reset/complete', { method: 'POST', json: body, noRefresh: true }),
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
  list: (q: ItemListQuery, signal?: AbortSignal) => api.get<ItemList>('/items', { ...q }, signal),
  get: (id: number) => api.get<Item>(`/items/${id}`),
  bySku: (sku: string) => api.get<Item>(`/items/sku/${encodeURIComponent(sku)}`),
  create: (body: ItemCreateInput) => api.post<Item>('/items', body),
  update: (id: number, body: ItemUpdateInput) => api.patch<Item>(`/items/${id}`, body),
  remove: (id: number) => api.del<ItemDeleteResponse>(`/items/${id}`),
  importCsv: (file: File, opts: Upload = {}) =>
    api.request<ItemImportResult>('/items/import', { method: 'POST', formData: fileForm(file), ...opts }),
  /** Changes up to 500 items at once; any problem refuses the whole change. */
  bulkUpdate: (body: ItemBulkUpdateInput) => api.post<ItemBulkUpdateResult>('/items/bulk-update', body),
  /** Recomputes one item's standard cost from its BOM or latest purchase price (admins). */
  recost: (id: number) => api.post<ItemRecostResult>(`/items/${id}/recost`),
  /** Recomputes every active item's standard cost (admins). */
  recostAll: () => api.post<ItemRecostAllResult>('/items/recost-all'),
  categories: () => api.get<ItemCategoryList>('/items/categories'),
  /** Active items with a suggested price at `margin_percent` (else the company default margin). */
  priceCandidates: (q: PriceCandidateQuery, signal?: AbortSignal) => api.get<PriceCandidateList>('/items/price-candidates', { ...q }, signal),
  /** Sets the chosen items' selling prices (admins). */
  applySuggestedPrices: (body: ApplySuggestedPricesInput) => api.post<ApplySuggestedPricesResult>('/items/apply-suggested-prices', body),
};

// ---------------------------------------------------------------- imports used by onboarding
export const importApi = {
  customers: (file: File, opts: Upload = {}) =>
    api.request<CustomerImportResult>('/admin/customers/import', { method: 'POST', formData: fileForm(file), ...opts }),
  orders: (file: File, opts: Upload = {}) =>
    api.request<OrderImportResult>('/admin/orders/import', {
      method: 'POST',
      // No `source`: the server judges the format from the file's header.
      query: { create_customers: true },
      formData: fileForm(file),
      ...opts,
    }),
  inventory: (file: File, opts: Upload = {}) =>
    api.request<InventoryImportResult>('/admin/import/inventory', { method: 'POST', formData: fileForm(file), ...opts }),
};

// ---------------------------------------------------------------- master data
export const customersApi = {
  /** A bare array (CONTRACT 5.5): the page has no total. */
  list: (q: CustomerListQuery, signal?: AbortSignal) => api.get<CustomerList>('/admin/customers/', { ...q }, signal),
  /** The customer's latest orders, newest first (CONTRACT 5.5). */
  orders: (id: number, limit = 20, signal?: AbortSignal) => api.get<CustomerOrders>(`/admin/customers/${id}/orders`, { limit }, signal),
  get: (id: number, signal?: AbortSignal) => api.get<Customer>(`/admin/customers/${id}`, undefined, signal),
  create: (body: CustomerCreate) => api.post<Customer>('/admin/customers/', body),
  update: (id: number, body: CustomerUpdate) => api.patch<Customer>(`/admin/customers/${id}`, body),
};

/** Named tax rates (admins change them; DELETE deactivates, the row stays). */
export const taxRatesApi = {
  /** A bare array, the default first, then by name; `includeInactive` adds the deactivated. */
  list: (includeInactive: boolean, signal?: AbortSignal) =>
    api.get<TaxRateList>('/tax-rates', includeInactive ? { include_inactive: true } : undefined, signal),
  create: (body: TaxRateCreate) => api.post<TaxRate>('/tax-rates', body),
  update: (id: number, body: TaxRateUpdate) => api.patch<TaxRate>(`/tax-rates/${id}`, body),
  /** Deactivates the rate (204). */
  remove: (id: number) => api.del<void>(`/tax-rates/${id}`),
};

/** Customer price levels: a discount off list prices, beaten by the level's own item prices (admins change them). */
export const priceLevelsApi = {
  /** A bare array by name; `activeOnly` leaves out the deactivated. */
  list: (activeOnly: boolean, signal?: AbortSignal) =>
    api.get<PriceLevelList>('/price-levels', activeOnly ? { active_only: true } : undefined, signal),
  create: (body: PriceLevelCreate) => api.post<PriceLevel>('/price-levels', body),
  update: (id: number, body: PriceLevelUpdate) => api.patch<PriceLevel>(`/price-levels/${id}`, body),
  /** Deactivates the level (answers it with `is_active` false). */
  remove: (id: number) => api.del<PriceLevel>(`/price-levels/${id}`),
  items: (id: number, signal?: AbortSignal) => api.get<PriceLevelItemList>(`/price-levels/${id}/items`, undefined, signal),
  setItemPrice: (id: number, itemId: number, unitPrice: string) =>
    api.put<PriceLevel>(`/price-levels/${id}/items/${itemId}`, { unit_price: unitPrice }),
  /** Removes the level's own price of an item (204): the discount applies again. */
  removeItemPrice: (id: number, itemId: number) => api.del<void>(`/price-levels/${id}/items/${itemId}`),
};

export const vendorsApi = {
  list: (q: VendorListQuery, signal?: AbortSignal) => api.get<VendorList>('/vendors/', { ...q }, signal),
};

export const locationsApi = {
  /** A bare array (CONTRACT 5.9). */
  list: (q: LocationListQuery, signal?: AbortSignal) => api.get<LocationList>('/admin/locations', { ...q }, signal),
};

export const printersApi = {
  list: (q: PrinterListQuery, signal?: AbortSignal) => api.get<PrinterList>('/printers/', { ...q }, signal),
};

export const scrapReasonsApi = {
  /** Every active reason at once (no paging), in the order asked for. */
  list: (sort: SortParams, signal?: AbortSignal) => api.get<ScrapReasonList>('/scrap-reasons/', { ...sort }, signal),
};

export const settingsApi = {
  get: (signal?: AbortSignal) => api.get<CompanySettings>('/settings/', undefined, signal),
  patch: (body: CompanySettingsPatch) => api.patch<CompanySettings>('/settings/', body),
  ai: (signal?: AbortSignal) => api.get<AiSettings>('/settings/ai', undefined, signal),
  /** Tests the stored AI provider configuration (400 when there is nothing to test). */
  testAi: () => api.post<AiConnectionTest>('/settings/ai/test'),
};

export const usersApi = {
  /** A bare array (CONTRACT 5.15). */
  list: (q: TeamUserListQuery, signal?: AbortSignal) => api.get<TeamUserList>('/admin/users/', { ...q }, signal),
  create: (body: TeamUserCreate) => api.post<TeamUserCreateResponse>('/admin/users/', body),
};

export const auditApi = {
  list: (q: AuditLogQuery, signal?: AbortSignal) => api.get<AuditLogPage>('/security/audit-log/', { ...q }, signal),
};

export const securityApi = {
  scan: (signal?: AbortSignal) => api.get<SecurityScan>('/security/audit', undefined, signal),
  remediation: (checkId: string, signal?: AbortSignal) =>
    api.get<SecurityRemediation>(`/security/remediate/${encodeURIComponent(checkId)}`, undefined, signal),
};

export const purchaseOrdersApi = {
  list: (q: PurchaseOrderListQuery, signal?: AbortSignal) => api.get<PurchaseOrderList>('/purchase-orders/', { ...q }, signal),
};

// ---------------------------------------------------------------- inventory (CONTRACT 5.8)
/** The ledger's list route (the spec's spelling; `/admin/inventory/transactions` is its alias). */
export const TRANSACTIONS_PATH = '/admin/inventory-transactions/';

export const inventoryApi = {
  /** A bare array, newest first: the page has no total. */
  transactions: (q: InventoryTransactionQuery, signal?: AbortSignal) =>
    api.get<InventoryTransactionList>(TRANSACTIONS_PATH, { ...q }, signal),
  /** The same filters as CSV (every row, no paging): `/api/v1/…?format=csv`, for `<DownloadLink>`. */
  transactionsCsvUrl: (q: Omit<InventoryTransactionQuery, 'limit' | 'offset'>) =>
    buildUrl('', TRANSACTIONS_PATH, { ...q, format: 'csv' }),
  transaction: (id: number) => api.get<InventoryTransaction>(`/admin/inventory/transactions/${id}`),
  create: (body: InventoryTransactionCreate) => api.post<InventoryTransaction>(TRANSACTIONS_PATH, body),
  approveNegative: (id: number) => api.post<InventoryTransaction>(`/inventory/transactions/${id}/approve-negative`),
  locations: (signal?: AbortSignal) => api.get<InventoryLocation[]>('/admin/inventory/transactions/locations', undefined, signal),
  adjustmentReasons: (signal?: AbortSignal) =>
    api.get<AdjustmentReason[]>('/admin/inventory/transactions/adjustment-reasons', undefined, signal),
  /** Stock per item and location (`{items, total, limit, offset}`). */
  summary: (q: InventorySummaryQuery, signal?: AbortSignal) =>
    api.get<InventorySummary>('/admin/inventory/transactions/inventory-summary', { ...q }, signal),
  /** A cycle count: one adjustment per variance; the key makes a retried post count once. */
  recordCount: (body: CycleCountRequest, idempotencyKey: string) =>
    api.request<CycleCountResult>('/admin/inventory/transactions/batch', {
      method: 'POST',
      json: body,
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  /** How much of a location was counted since `since` (default today), with its sheet. */
  reconciliation: (q: InventoryReconciliationQuery, signal?: AbortSignal) =>
    api.get<InventoryReconciliation>('/admin/inventory/reconciliation', { ...q }, signal),
  /** Takes every balance not counted yet as counted at its stored quantity (moves no stock). */
  confirmStored: (locationId: number) =>
    api.post<ConfirmStoredResult>('/admin/inventory/reconciliation/count/all-to-stored', { location_id: locationId }),
  /** One quantity correction: an adjustment and its journal entry, once per key. */
  adjustQuantity: (body: AdjustQuantityRequest, idempotencyKey: string) =>
    api.request<AdjustQuantityResult>('/inventory/adjust-quantity', {
      method: 'POST',
      json: body,
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
};

// ---------------------------------------------------------------- accounting (CONTRACT 5.18)
export const accountingApi = {
  trialBalance: (q: TrialBalanceQuery, signal?: AbortSignal) => api.get<TrialBalance>('/accounting/trial-balance', { ...q }, signal),
  ledger: (code: string, q: LedgerQuery, signal?: AbortSignal) =>
    api.get<AccountLedger>(`/accounting/ledger/${encodeURIComponent(code)}`, { ...q }, signal),
  inventoryValuation: (signal?: AbortSignal) => api.get<InventoryValuation>('/accounting/inventory-valuation', undefined, signal),
  summary: (asOfDate: string | undefined, signal?: AbortSignal) =>
    api.get<AccountingSummary>('/accounting/summary', { as_of_date: asOfDate }, signal),
  recentEntries: (limit: number, signal?: AbortSignal) => api.get<JournalEntry[]>('/accounting/recent-entries', { limit }, signal),
  journalEntry: (id: number, signal?: AbortSignal) => api.get<JournalEntry>(`/accounting/journal-entries/${id}`, undefined, signal),
  periods: (signal?: AbortSignal) => api.get<FiscalPeriod[]>('/accounting/periods', undefined, signal),
  closePeriod: (id: number) => api.post<FiscalPeriod>(`/accounting/periods/${id}/close`, { confirm: true }),
  reopenPeriod: (id: number) => api.post<FiscalPeriod>(`/accounting/periods/${id}/reopen`, {}),
  /** Invoices (shipped orders) of a window, from the ledger, with the window's totals. */
  salesJournal: (q: JournalQuery, signal?: AbortSignal) => api.get<SalesJournal>('/admin/accounting/sales-journal', { ...q }, signal),
  /** Payments, refunds and voids of a window, signed, with totals by method. */
  paymentsJournal: (q: JournalQuery, signal?: AbortSignal) =>
    api.get<PaymentsJournal>('/admin/accounting/payments-journal', { ...q }, signal),
  /** Sales tax by month of a window. */
  taxSummary: (q: Pick<JournalQuery, 'start_date' | 'end_date'>, signal?: AbortSignal) =>
    api.get<TaxSummary>('/admin/accounting/tax-summary', { ...q }, signal),
  /** What customers owe today by lateness (current, 1-30, 31-60, 61-90, over 90 days), and whether 1100 agrees. */
  receivablesAging: (signal?: AbortSignal) => api.get<ReceivablesAging>('/admin/accounting/ar-aging', undefined, signal),
  /** A report of the window as a CSV file (every row), for `<DownloadLink>`. */
  journalCsvUrl: (report: 'sales-journal' | 'payments-journal' | 'tax-summary', q: Pick<JournalQuery, 'start_date' | 'end_date'>) =>
    buildUrl('', `/admin/accounting/${report}/export`, { ...q }),
};
