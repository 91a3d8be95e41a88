/**
 * The SPA's names for the REST shapes under /api/v1, derived from the generated
 * `schema.gen.ts` (`npm run gen:api` from tests/snapshots/openapi.json).
 *
 * Requests and query parameters come from the document. Responses come from the
 * document as soon as it describes them: `Documented<Path, Method, Fallback>` picks the
 * JSON body of the operation's 200/201 answer and only falls back to the hand-written
 * type while the document has no schema for it. The fallbacks all live in the section
 * "until the OpenAPI document describes this response" below, so they can be deleted
 * once the snapshot is regenerated with response schemas.
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

/** The JSON body of an operation's success answer, or `Fallback` while the document lacks it. */
export type Documented<P extends Path, M extends Method, Fallback> = [JsonContent<SuccessResponse<Operation<P, M>>>] extends [never]
  ? Fallback
  : JsonContent<SuccessResponse<Operation<P, M>>>;

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
export type IsoDateTime = string;
export type IsoDate = string;

// ---------------------------------------------------------------- requests (from the document)

export type InitialAdminRequest = RequestBody<'/setup/initial-admin', 'post'>;
export type PasswordResetCompleteRequest = RequestBody<'/auth/password-reset/complete', 'post'>;
export type ItemCreateInput = RequestBody<'/items', 'post'>;
export type ItemUpdateInput = RequestBody<'/items/{id}', 'patch'>;
export type CompanySettingsPatch = RequestBody<'/settings/', 'patch'>;
export type TeamUserCreate = RequestBody<'/admin/users/', 'post'>;

export type ItemListQuery = ListQuery<'/items'>;
export type CustomerListQuery = ListQuery<'/admin/customers/'>;
export type VendorListQuery = ListQuery<'/vendors/'>;
export type LocationListQuery = ListQuery<'/admin/locations'>;
export type PrinterListQuery = ListQuery<'/printers/'>;
export type TeamUserListQuery = ListQuery<'/admin/users/'>;
export type AuditLogQuery = ListQuery<'/security/audit-log/'>;

export type ItemType = NonNullable<ItemCreateInput['item_type']>;
export type ProcurementType = NonNullable<ItemCreateInput['procurement_type']>;

// ---------------------------------------------------------------- responses

export type SetupStatus = Documented<'/setup/status', 'get', SetupStatusFallback>;
export type InitialAdminResponse = Documented<'/setup/initial-admin', 'post', InitialAdminResponseFallback>;
export type SeedExampleDataResponse = Documented<'/setup/seed-example-data', 'post', SeedExampleDataResponseFallback>;
export type UserResponse = Documented<'/auth/me', 'get', UserResponseFallback>;
export type LoginResponse = Documented<'/auth/login', 'post', TokenPairFallback | CookieLoginResponseFallback>;
export type LogoutResponse = Documented<'/auth/logout', 'post', MessageResponse>;
export type PasswordResetRequestResponse = Documented<'/auth/password-reset/request', 'post', PasswordResetRequestResponseFallback>;
export type PasswordResetStatus = Documented<'/auth/password-reset/status/{token}', 'get', PasswordResetStatusFallback>;
export type PasswordResetCompleteResponse = Documented<'/auth/password-reset/complete', 'post', MessageResponse>;
export type PasswordResetApprovalResponse = Documented<'/auth/password-reset/approve', 'post', PasswordResetApprovalResponseFallback>;

export type ItemList = Documented<'/items', 'get', ItemListFallback>;
export type ItemListRow = ItemList['items'][number];
export type Item = Documented<'/items/{id}', 'get', ItemFallback>;
export type ItemFile = NonNullable<Item['files']>[number];
export type ItemDeleteResponse = Documented<'/items/{id}', 'delete', MessageResponse>;
export type ItemImportResult = Documented<'/items/import', 'post', ImportReportFallback>;
export type CustomerImportResult = Documented<'/admin/customers/import', 'post', CustomerImportResultFallback>;

export type CustomerList = Documented<'/admin/customers/', 'get', CustomerListRowFallback[]>;
export type CustomerListRow = CustomerList[number];
export type VendorList = Documented<'/vendors/', 'get', VendorListFallback>;
export type VendorListRow = VendorList['items'][number];
export type LocationList = Documented<'/admin/locations', 'get', LocationFallback[]>;
export type Location = LocationList[number];
export type PrinterList = Documented<'/printers/', 'get', PrinterListFallback>;
export type Printer = PrinterList['items'][number];
export type ScrapReasonList = Documented<'/scrap-reasons/', 'get', ScrapReasonListFallback>;
export type ScrapReason = ScrapReasonList['details'][number];
export type CompanySettings = Documented<'/settings/', 'get', CompanySettingsFallback>;
export type TeamUserList = Documented<'/admin/users/', 'get', TeamUserFallback[]>;
export type TeamUser = TeamUserList[number];
export type TeamUserCreateResponse = Documented<'/admin/users/', 'post', TeamUserFallback>;
export type AuditLogPage = Documented<'/security/audit-log/', 'get', AuditLogPageFallback>;
export type AuditLogEntry = AuditLogPage['items'][number];

export type AccountType = 'admin' | 'operator' | 'customer';
export type UserStatus = 'active' | 'inactive' | 'suspended';

/** One row error of a CSV import (its shape varies with the importer). */
export type ImportRowError = string | { row?: number; reason?: string; error?: string; message?: string; [k: string]: unknown };

export interface MessageResponse {
  message: string;
}

// ---------------------------------------------------------------- routes the server does not have yet
// Orders, inventory, the dashboard and purchase orders are not in the document at all
// (no path yet); these types follow CONTRACT.md until their areas exist.

/** POST /admin/orders/import (CONTRACT 5.11). */
export interface OrderImportResult {
  total_rows?: number;
  created: number;
  skipped?: number;
  errors?: ImportRowError[];
}

/** POST /admin/import/inventory (same shape as /admin/import/products). */
export interface InventoryImportResult {
  created?: number;
  updated?: number;
  errors?: ImportRowError[];
  total_processed?: number;
}

/** GET /admin/dashboard/summary (CONTRACT 5.1). */
export interface DashboardSummary {
  quotes: { pending: number; this_week: number };
  orders: { confirmed: number; in_production: number; ready_to_ship: number; overdue: number };
  production: { in_progress: number; scheduled: number; ready_to_start: number };
  boms: { needs_review: number; active: number };
  inventory: { low_stock_count: number; active_orders: number };
  revenue: { last_30_days: Decimal; orders_last_30_days: number };
}

/** GET /purchase-orders/ (CONTRACT 5.14). */
export interface PurchaseOrderRow {
  id: number;
  po_number: string;
  vendor_id: number;
  vendor_name: string;
  status: 'draft' | 'ordered' | 'shipped' | 'received' | 'closed' | 'cancelled' | string;
  order_date: IsoDate | null;
  expected_date: IsoDate | null;
  received_date: IsoDate | null;
  total_amount: Decimal;
  line_count: number;
  created_at: IsoDateTime;
}

export interface PurchaseOrderList {
  items: PurchaseOrderRow[];
  pagination: Pagination;
}

export type PurchaseOrderListQuery = SortParams & {
  offset?: number;
  limit?: number;
  status?: string;
  vendor_id?: number;
  search?: string;
};

// ================================================================ until the OpenAPI document describes this response
// Every type below is a fallback for `Documented<…>` above, written from CONTRACT.md and
// the stored operations. Delete each once the regenerated schema.gen.ts describes it.

// until the OpenAPI document describes this response
interface SetupStatusFallback {
  needs_setup: boolean;
  message?: string;
}

// until the OpenAPI document describes this response
/** Header mode returns `access_token`; cookie mode returns `setup_token` and sets the cookie. */
interface InitialAdminResponseFallback {
  message: string;
  email: string;
  access_token?: string;
  refresh_token?: string;
  setup_token?: string;
  token_type: 'bearer' | 'cookie' | string;
}

// until the OpenAPI document describes this response
interface SeedExampleDataResponseFallback {
  message: string;
  items_created?: number;
  items_skipped?: number;
  materials_created?: number;
  colors_created?: number;
  links_created?: number;
  material_products_created?: number;
  uoms_created?: number;
}

// until the OpenAPI document describes this response
interface UserResponseFallback {
  id: number;
  customer_number?: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name?: string | null;
  phone?: string | null;
  status: UserStatus | string;
  account_type: AccountType | string;
  email_verified?: boolean;
  created_at: IsoDateTime;
  last_login_at: IsoDateTime | null;
}

// until the OpenAPI document describes this response
/** AUTH_MODE=header: tokens in the body. */
interface TokenPairFallback {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
}

// until the OpenAPI document describes this response
/** AUTH_MODE=cookie: the user in the body, tokens in httpOnly cookies. */
interface CookieLoginResponseFallback {
  message: string;
  user: UserResponseFallback;
  token_type: 'cookie';
}

// until the OpenAPI document describes this response
interface PasswordResetRequestResponseFallback {
  message: string;
  request_id?: number | null;
  reset_token?: string | null;
  reset_url?: string | null;
}

// until the OpenAPI document describes this response
interface PasswordResetStatusFallback {
  status: 'invalid' | 'pending' | 'denied' | 'completed' | 'expired' | 'approved' | 'unknown' | string;
  message: string;
  can_reset: boolean;
}

// until the OpenAPI document describes this response
interface PasswordResetApprovalResponseFallback {
  message: string;
  user_email: string;
  status: 'approved' | 'denied' | string;
}

// until the OpenAPI document describes this response
interface ItemListRowFallback {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  item_type: ItemType;
  procurement_type: ProcurementType | null;
  category_id: number | null;
  category_name: string | null;
  unit: string;
  purchase_uom: string | null;
  standard_cost: Decimal | null;
  average_cost: Decimal | null;
  selling_price: Decimal | null;
  active: boolean;
  on_hand_qty: Decimal | null;
  available_qty: Decimal | null;
  reorder_point: Decimal | null;
  stocking_policy: string | null;
  needs_reorder: boolean;
  upc: string | null;
}

// until the OpenAPI document describes this response
interface ItemListFallback {
  total: number;
  items: ItemListRowFallback[];
}

// until the OpenAPI document describes this response
interface ItemFileFallback {
  id: number;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: IsoDateTime;
  /** `/api/v1/items/{id}/files/{file_id}/download` (served with Content-Disposition). */
  download_url?: string;
}

// until the OpenAPI document describes this response
interface ItemFallback extends ItemListRowFallback {
  category_path: string | null;
  last_cost: Decimal | null;
  lead_time_days: number | null;
  reorder_qty: Decimal | null;
  is_active: boolean;
  has_bom: boolean;
  files: ItemFileFallback[];
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

// until the OpenAPI document describes this response
/** POST /items/import (CONTRACT 5.11). */
interface ImportReportFallback {
  total_rows?: number;
  created: number;
  updated?: number;
  skipped?: number;
  errors?: ImportRowError[];
  warnings?: unknown[];
}

// until the OpenAPI document describes this response
interface CustomerImportResultFallback {
  imported: number;
  skipped: number;
  errors?: ImportRowError[];
  message?: string;
}

// until the OpenAPI document describes this response
interface CustomerListRowFallback {
  id: number;
  customer_number: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  phone: string | null;
  status: string;
  full_name: string | null;
  shipping_address_line1: string | null;
  shipping_city: string | null;
  shipping_state: string | null;
  shipping_zip: string | null;
  order_count: number;
  total_spent: Decimal;
  last_order_date: IsoDateTime | null;
  created_at: IsoDateTime;
}

// until the OpenAPI document describes this response
interface Pagination {
  total: number;
  offset: number;
  limit: number;
  returned: number;
}

// until the OpenAPI document describes this response
interface VendorListFallback {
  items: {
    id: number;
    code: string;
    name: string;
    contact_name: string | null;
    email: string | null;
    phone: string | null;
    city: string | null;
    state: string | null;
    payment_terms: string | null;
    is_active: boolean;
    po_count: number;
  }[];
  pagination: Pagination;
}

// until the OpenAPI document describes this response
interface LocationFallback {
  id: number;
  code: string;
  name: string;
  type: string;
  parent_id: number | null;
  active: boolean;
}

// until the OpenAPI document describes this response
interface PrinterListFallback {
  items: {
    id: number;
    code: string;
    name: string;
    model: string;
    brand: 'bambulab' | 'klipper' | 'octoprint' | 'prusa' | 'creality' | 'generic' | string;
    serial_number: string | null;
    ip_address: string | null;
    mqtt_topic: string | null;
    location: string | null;
    work_center_id: number | null;
    notes: string | null;
    active: boolean;
    status: 'offline' | 'idle' | 'printing' | 'paused' | 'error' | 'maintenance' | string;
    connection_config: Record<string, unknown>;
    capabilities: Record<string, unknown>;
    last_seen: IsoDateTime | null;
    created_at: IsoDateTime;
    updated_at: IsoDateTime;
    is_online: boolean;
    has_ams: boolean;
    has_camera: boolean;
  }[];
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
}

// until the OpenAPI document describes this response
interface ScrapReasonListFallback {
  reasons: string[];
  details: {
    id: number;
    code: string;
    name: string;
    description: string | null;
    sequence: number;
    active?: boolean;
  }[];
  descriptions: Record<string, string>;
}

// until the OpenAPI document describes this response
interface CompanySettingsFallback {
  id: number;
  company_name: string | null;
  company_address_line1: string | null;
  company_address_line2: string | null;
  company_city: string | null;
  company_state: string | null;
  company_zip: string | null;
  company_country: string | null;
  company_phone: string | null;
  company_email: string | null;
  company_website: string | null;
  has_logo: boolean;
  logo_filename: string | null;
  tax_enabled: boolean;
  tax_rate: Decimal | null;
  tax_rate_percent: number | null;
  tax_name: string | null;
  tax_registration_number: string | null;
  default_quote_validity_days: number;
  quote_terms: string | null;
  quote_footer: string | null;
  timezone: string | null;
  business_hours_start: number | null;
  business_hours_end: number | null;
  business_days_per_week: number | null;
  business_work_days: string | null;
  updated_at: IsoDateTime | null;
}

// until the OpenAPI document describes this response
interface TeamUserFallback {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  account_type: 'admin' | 'operator' | string;
  status: UserStatus | string;
  last_login_at: IsoDateTime | null;
  created_at: IsoDateTime;
  updated_at?: IsoDateTime;
}

// until the OpenAPI document describes this response
interface AuditLogPageFallback {
  items: {
    id: number;
    event_type: string;
    outcome: string;
    user_id: number | null;
    user_email: string | null;
    ip_address: string | null;
    user_agent: string | null;
    request_id: string | null;
    details: unknown;
    created_at: IsoDateTime;
  }[];
  total: number;
  limit: number;
  offset: number;
}
