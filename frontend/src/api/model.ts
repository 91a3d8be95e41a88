/**
 * The SPA's names for the REST shapes under /api/v1, derived from the generated
 * `schema.gen.ts` (`npm run gen:api` from tests/snapshots/openapi.json).
 *
 * Requests, query parameters and responses all come from the document: `Api<Path,
 * Method>` is the JSON body of the operation's 200/201 answer. Every route the SPA calls is
 * in the document, purchase orders included; none keeps hand-written types.
 *
 * Decimal fields (money, quantities) are JSON strings such as "19.99".
 */
import type { paths } from './schema.gen';

// ---------------------------------------------------------------- helpers over the document

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Path = keyof paths;
type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type SuccessResponse<O> = O extends { responses: infer R }
  ? 200 extends keyof R
    ? R[200]
    : 201 extends keyof R
      ? R[201]
      : never
  : never;

/** The JSON body of an operation's success answer, as the document describes it. */
export type Api<P extends Path, M extends Method> = JsonContent<SuccessResponse<Operation<P, M>>>;

/** The JSON request body of an operation. */
export type RequestBody<P extends Path, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters of an operation, plus the server-side sort every list route takes. */
export type ListQuery<P extends Path> = NonNullable<Operation<P, 'get'> extends { parameters: { query?: infer Q } } ? Q : never> &
  SortParams;

/**
 * Server-side sort of a list (`sort_by` is the REST field name, e.g. `sku`). The back end
 * adds these to every list route; they reach the document with the next snapshot.
 */
export interface SortParams {
  sort_by?: string;
  sort_order?: SortOrder;
}
export type SortOrder = 'asc' | 'desc';

export type Decimal = string | number;

// ---------------------------------------------------------------- requests (from the document)

export type InitialAdminRequest = RequestBody<'/setup/initial-admin', 'post'>;
export type PasswordResetCompleteRequest = RequestBody<'/auth/password-reset/complete', 'post'>;
export type ItemCreateInput = RequestBody<'/items', 'post'>;
export type ItemUpdateInput = RequestBody<'/items/{id}', 'patch'>;
export type CompanySettingsPatch = RequestBody<'/settings/', 'patch'>;
export type TeamUserCreate = RequestBody<'/admin/users/', 'post'>;
export type InventoryTransactionCreate = RequestBody<'/admin/inventory-transactions/', 'post'>;
export type CycleCountRequest = RequestBody<'/inventory/cycle-count/', 'post'>;
export type CycleCountLine = NonNullable<CycleCountRequest['items']>[number];
export type CustomerCreate = RequestBody<'/admin/customers/', 'post'>;
export type CustomerUpdate = RequestBody<'/admin/customers/{id}', 'patch'>;
export type TaxRateCreate = RequestBody<'/tax-rates', 'post'>;
export type TaxRateUpdate = RequestBody<'/tax-rates/{id}', 'patch'>;
export type PriceLevelCreate = RequestBody<'/price-levels', 'post'>;
export type PriceLevelUpdate = RequestBody<'/price-levels/{id}', 'patch'>;
export type PriceLevelItemPriceSet = RequestBody<'/price-levels/{id}/items/{item_id}', 'put'>;
/** POST /items/apply-suggested-prices: the chosen items' new selling prices. */
export type ApplySuggestedPricesInput = RequestBody<'/items/apply-suggested-prices', 'post'>;

/** The fields a list route sorts by (from the document's `sort_by` enum). */
export type SortBy<Q> = Q extends { sort_by?: infer S } ? NonNullable<S> : never;

export type ItemListQuery = ListQuery<'/items'>;
export type CustomerListQuery = ListQuery<'/admin/customers/'>;
export type VendorListQuery = ListQuery<'/vendors/'>;
export type LocationListQuery = ListQuery<'/admin/locations'>;
export type PrinterListQuery = ListQuery<'/printers/'>;
export type TeamUserListQuery = ListQuery<'/admin/users/'>;
export type AuditLogQuery = ListQuery<'/security/audit-log/'>;
export type InventoryTransactionQuery = Omit<ListQuery<'/admin/inventory-transactions/'>, 'format'>;
export type InventorySummaryQuery = ListQuery<'/inventory/cycle-count/'>;
export type TrialBalanceQuery = ListQuery<'/accounting/trial-balance'>;
export type LedgerQuery = ListQuery<'/accounting/ledger/{account_code}'>;

export type ItemType = NonNullable<ItemCreateInput['item_type']>;
export type ProcurementType = NonNullable<ItemCreateInput['procurement_type']>;

// ---------------------------------------------------------------- responses

export type SetupStatus = Api<'/setup/status', 'get'>;
export type InitialAdminResponse = Api<'/setup/initial-admin', 'post'>;
export type SeedExampleDataResponse = Api<'/setup/seed-example-data', 'post'>;
export type UserResponse = Api<'/auth/me', 'get'>;
export type LoginResponse = Api<'/auth/login', 'post'>;
export type LogoutResponse = Api<'/auth/logout', 'post'>;
export type PasswordResetRequestResponse = Api<'/auth/password-reset/request', 'post'>;
export type PasswordResetStatus = Api<'/auth/password-reset/status/{token}', 'get'>;
export type PasswordResetCompleteResponse = Api<'/auth/password-reset/complete', 'post'>;
export type PasswordResetApprovalResponse = Api<'/auth/password-reset/approve', 'post'>;

export type ItemList = Api<'/items', 'get'>;
export type ItemListRow = ItemList['items'][number];
export type Item = Api<'/items/{id}', 'get'>;
export type ItemFile = NonNullable<Item['files']>[number];
export type ItemDeleteResponse = Api<'/items/{id}', 'delete'>;
export type ItemImportResult = Api<'/items/import', 'post'>;
/** POST /items/bulk-update: the same changes for many items, all or none. */
export type ItemBulkUpdateInput = RequestBody<'/items/bulk-update', 'post'>;
export type ItemBulkUpdateResult = Api<'/items/bulk-update', 'post'>;
/** POST /items/{id}/recost (admins): the item's old and new standard cost. */
export type ItemRecostResult = Api<'/items/{id}/recost', 'post'>;
/** POST /items/recost-all (admins): counts and the items whose cost changed. */
export type ItemRecostAllResult = Api<'/items/recost-all', 'post'>;
/** GET /items/categories: every active category, flat, with its path. */
export type ItemCategoryList = Api<'/items/categories', 'get'>;
/** GET /items/price-candidates: active items with their cost, price and a suggested price. */
export type PriceCandidateList = Api<'/items/price-candidates', 'get'>;
export type PriceCandidate = PriceCandidateList[number];
export type PriceCandidateQuery = ListQuery<'/items/price-candidates'>;
export type ApplySuggestedPricesResult = Api<'/items/apply-suggested-prices', 'post'>;
export type CustomerImportResult = Api<'/admin/customers/import', 'post'>;
/** POST /admin/orders/import (CONTRACT 5.11): the import report (`/preview` answers the same, not applied). */
export type OrderImportResult = Api<'/admin/orders/import', 'post'>;
export type InventoryImportResult = Api<'/admin/import/inventory', 'post'>;

export type CustomerList = Api<'/admin/customers/', 'get'>;
export type CustomerListRow = CustomerList[number];
export type CustomerOrders = Api<'/admin/customers/{id}/orders', 'get'>;
export type Customer = Api<'/admin/customers/{id}', 'get'>;
/** GET /tax-rates: a bare array, the default first, then by name (`include_inactive` for all). */
export type TaxRateList = Api<'/tax-rates', 'get'>;
export type TaxRate = TaxRateList[number];
/** GET /price-levels: a bare array by name (`active_only` for the active ones). */
export type PriceLevelList = Api<'/price-levels', 'get'>;
export type PriceLevel = PriceLevelList[number];
/** GET /price-levels/{id}/items: the level's own item prices (they beat its discount). */
export type PriceLevelItemList = Api<'/price-levels/{id}/items', 'get'>;
export type PriceLevelItem = PriceLevelItemList[number];
export type VendorList = Api<'/vendors/', 'get'>;
export type VendorListRow = VendorList['items'][number];
export type LocationList = Api<'/admin/locations', 'get'>;
export type Location = LocationList[number];
export type PrinterList = Api<'/printers/', 'get'>;
export type Printer = PrinterList['items'][number];
export type ScrapReasonList = Api<'/scrap-reasons/', 'get'>;
export type ScrapReason = ScrapReasonList['details'][number];
export type CompanySettings = Api<'/settings/', 'get'>;
export type TeamUserList = Api<'/admin/users/', 'get'>;
export type TeamUser = TeamUserList[number];
export type TeamUserCreateResponse = Api<'/admin/users/', 'post'>;
export type AuditLogPage = Api<'/security/audit-log/', 'get'>;
export type AuditLogEntry = AuditLogPage['items'][number];
/** GET /security/audit (CONTRACT 5.17): the configuration scan. */
export type SecurityScan = Api<'/security/audit', 'get'>;
export type SecurityCheck = SecurityScan['checks'][number];
/** GET /security/remediate/{check_id}: how an operator fixes one check (nothing is applied). */
export type SecurityRemediation = Api<'/security/remediate/{check_id}', 'get'>;
export type AiSettings = Api<'/settings/ai', 'get'>;
/** POST /settings/ai/test: a failed connection is a 200 with `success: false`. */
export type AiConnectionTest = Api<'/settings/ai/test', 'post'>;

// inventory (CONTRACT 5.8)
export type InventoryTransactionList = Api<'/admin/inventory-transactions/', 'get'>;
export type InventoryTransaction = InventoryTransactionList[number];
export type TransactionType = InventoryTransaction['transaction_type'];
export type InventoryLocation = Api<'/admin/inventory/transactions/locations', 'get'>[number];
export type AdjustmentReason = Api<'/admin/inventory/transactions/adjustment-reasons', 'get'>[number];
export type InventorySummary = Api<'/inventory/cycle-count/', 'get'>;
export type StockBalance = InventorySummary['items'][number];
export type CycleCountResult = Api<'/inventory/cycle-count/', 'post'>;
export type CycleCountResultRow = CycleCountResult['results'][number];
/** A location's reconciliation: progress since a moment (default today) and its count sheet. */
export type InventoryReconciliation = Api<'/admin/inventory/reconciliation', 'get'>;
export type InventoryReconciliationQuery = ListQuery<'/admin/inventory/reconciliation'>;
export type ConfirmStoredResult = Api<'/admin/inventory/reconciliation/count/all-to-stored', 'post'>;
export type AdjustQuantityRequest = RequestBody<'/inventory/adjust-quantity', 'post'>;
export type AdjustQuantityResult = Api<'/inventory/adjust-quantity', 'post'>;

// accounting (CONTRACT 5.18, 6.8)
export type TrialBalance = Api<'/accounting/trial-balance', 'get'>;
export type TrialBalanceRow = TrialBalance['accounts'][number];
export type GlAccountType = TrialBalanceRow['account_type'];
export type AccountLedger = Api<'/accounting/ledger/{account_code}', 'get'>;
export type LedgerLine = AccountLedger['lines'][number];
export type InventoryValuation = Api<'/accounting/inventory-valuation', 'get'>;
export type AccountingSummary = Api<'/accounting/summary', 'get'>;
export type JournalEntry = Api<'/accounting/journal-entries/{id}', 'get'>;
export type FiscalPeriod = Api<'/accounting/periods', 'get'>[number];
export type SalesJournal = Api<'/admin/accounting/sales-journal', 'get'>;
export type PaymentsJournal = Api<'/admin/accounting/payments-journal', 'get'>;
export type TaxSummary = Api<'/admin/accounting/tax-summary', 'get'>;
/** GET /admin/accounting/ar-aging: what customers owe by lateness, per customer and in total. */
export type ReceivablesAging = Api<'/admin/accounting/ar-aging', 'get'>;
export type AgingRow = ReceivablesAging['totals'];
/** A journal's window and page (`start_date`, `end_date`, `limit`, `offset`). */
export type JournalQuery = Omit<ListQuery<'/admin/accounting/sales-journal'>, 'format'>;

export type AccountType = 'admin' | 'operator' | 'customer';
export type UserStatus = 'active' | 'inactive' | 'suspended';

/** One row error of a CSV import (its shape varies with the importer). */
export type ImportRowError = string | { row?: number; reason?: string; error?: string; message?: string; [k: string]: unknown };

export interface MessageResponse {
  message: string;
}

// purchasing: purchase orders (CONTRACT 5.14)
/** GET /purchase-orders/: `{items, pagination}`, newest first. */
export type PurchaseOrderList = Api<'/purchase-orders/', 'get'>;
export type PurchaseOrderRow = PurchaseOrderList['items'][number];
export type PurchaseOrderListQuery = ListQuery<'/purchase-orders/'>;
