/**
 * Types of the REST contract under /api/v1, written by hand from CONTRACT.md.
 * Decimal fields (money, quantities) arrive as JSON strings such as "19.99"
 * (sometimes numbers), so they are typed `Decimal` and parsed where shown.
 */

export type Decimal = string | number;
export type IsoDateTime = string;
export type IsoDate = string;

// ---------------------------------------------------------------- setup (CONTRACT 2)

export interface SetupStatus {
  needs_setup: boolean;
  message?: string;
}

export interface InitialAdminRequest {
  email: string;
  password: string;
  full_name: string;
  company_name: string;
}

/** Header mode returns `access_token`; cookie mode returns `setup_token` and sets the cookie. */
export interface InitialAdminResponse {
  message: string;
  email: string;
  access_token?: string;
  refresh_token?: string;
  setup_token?: string;
  token_type: 'bearer' | 'cookie' | string;
}

export interface SeedExampleDataResponse {
  message: string;
  items_created?: number;
  items_skipped?: number;
  materials_created?: number;
  colors_created?: number;
  links_created?: number;
  material_products_created?: number;
  uoms_created?: number;
}

// ---------------------------------------------------------------- auth (CONTRACT 1)

export type AccountType = 'admin' | 'operator' | 'customer';
export type UserStatus = 'active' | 'inactive' | 'suspended';

export interface UserResponse {
  id: number;
  customer_number: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  phone: string | null;
  status: UserStatus | string;
  account_type: AccountType | string;
  email_verified: boolean;
  created_at: IsoDateTime;
  last_login_at: IsoDateTime | null;
  billing_address_line1?: string | null;
  billing_address_line2?: string | null;
  billing_city?: string | null;
  billing_state?: string | null;
  billing_zip?: string | null;
  billing_country?: string | null;
  shipping_address_line1?: string | null;
  shipping_address_line2?: string | null;
  shipping_city?: string | null;
  shipping_state?: string | null;
  shipping_zip?: string | null;
  shipping_country?: string | null;
}

/** AUTH_MODE=header: tokens in the body. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
}

/** AUTH_MODE=cookie: the user in the body, tokens in httpOnly cookies. */
export interface CookieLoginResponse {
  message: string;
  user: UserResponse;
  token_type: 'cookie';
}

export type LoginResponse = TokenPair | CookieLoginResponse;

export interface CookieRefreshResponse {
  message: string;
  token_type: 'cookie';
}

export type RefreshResponse = TokenPair | CookieRefreshResponse;

export interface MessageResponse {
  message: string;
}

// ---------------------------------------------------------------- password reset (CONTRACT 3)

export interface PasswordResetRequestResponse {
  message: string;
  request_id?: number | null;
  reset_token?: string | null;
  reset_url?: string | null;
}

export type PasswordResetState =
  | 'invalid'
  | 'pending'
  | 'denied'
  | 'completed'
  | 'expired'
  | 'approved'
  | 'unknown';

export interface PasswordResetStatus {
  status: PasswordResetState | string;
  message: string;
  can_reset: boolean;
}

export interface PasswordResetCompleteRequest {
  token: string;
  new_password: string;
}

export interface PasswordResetApprovalResponse {
  message: string;
  user_email: string;
  status: 'approved' | 'denied' | string;
}

// ---------------------------------------------------------------- items (CONTRACT 5.6)

export type ItemType =
  | 'finished_good'
  | 'component'
  | 'material'
  | 'consumable'
  | 'supply'
  | 'service'
  | 'packaging';

export type ProcurementType = 'make' | 'buy' | 'make_or_buy';

export interface ItemListRow {
  id: number;
  sku: string;
  name: string;
  item_type: ItemType | string;
  procurement_type: ProcurementType | string | null;
  category_id: number | null;
  category_name: string | null;
  unit: string;
  purchase_uom?: string | null;
  standard_cost: Decimal | null;
  average_cost: Decimal | null;
  selling_price: Decimal | null;
  suggested_price?: Decimal | null;
  active: boolean;
  on_hand_qty: Decimal | null;
  available_qty: Decimal | null;
  reorder_point: Decimal | null;
  stocking_policy?: string | null;
  needs_reorder?: boolean;
  material_type_id?: number | null;
  color_id?: number | null;
  material_type_code?: string | null;
  color_code?: string | null;
  upc?: string | null;
}

export interface ItemList {
  total: number;
  items: ItemListRow[];
}

export interface ItemListQuery {
  limit?: number;
  offset?: number;
  search?: string;
  item_type?: string;
  active_only?: boolean;
  procurement_type?: string;
  category_id?: number;
  needs_reorder?: boolean;
}

export interface Item extends ItemListRow {
  description: string | null;
  last_cost: Decimal | null;
  reorder_qty?: Decimal | null;
  lead_time_days: number | null;
  has_bom: boolean;
  upc: string | null;
  created_at?: IsoDateTime;
  updated_at?: IsoDateTime;
}

/** Body of POST /items and PATCH /items/{id} (spec 2.4 fields). */
export interface ItemInput {
  sku?: string;
  name?: string;
  description?: string | null;
  category_id?: number | null;
  item_type?: string;
  procurement_type?: string | null;
  unit?: string;
  standard_cost?: string | null;
  average_cost?: string | null;
  last_cost?: string | null;
  selling_price?: string | null;
  reorder_point?: string | null;
  reorder_qty?: string | null;
  lead_time_days?: number | null;
  is_active?: boolean;
  has_bom?: boolean;
  upc?: string | null;
}

/** POST /items/import (CONTRACT 5.11). */
export interface ItemImportResult {
  total_rows?: number;
  created: number;
  updated?: number;
  skipped?: number;
  errors?: ImportRowError[];
  warnings?: unknown[];
}

export type ImportRowError = string | { row?: number; reason?: string; error?: string; message?: string; [k: string]: unknown };

/** POST /admin/customers/import. */
export interface CustomerImportResult {
  imported: number;
  skipped: number;
  errors?: ImportRowError[];
  message?: string;
}

/** POST /admin/orders/import. */
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

// ---------------------------------------------------------------- customers (CONTRACT 5.5)

export interface CustomerListRow {
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

export interface CustomerListQuery {
  skip?: number;
  limit?: number;
  search?: string;
  status?: string;
  include_inactive?: boolean;
}

// ---------------------------------------------------------------- vendors (CONTRACT 5.14)

export interface Pagination {
  total: number;
  offset: number;
  limit: number;
  returned: number;
}

export interface VendorListRow {
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
}

export interface VendorList {
  items: VendorListRow[];
  pagination: Pagination;
}

export interface VendorListQuery {
  offset?: number;
  limit?: number;
  search?: string;
  active_only?: boolean;
}

// ---------------------------------------------------------------- locations (CONTRACT 5.9)

export interface Location {
  id: number;
  code: string;
  name: string;
  type: string;
  parent_id: number | null;
  active: boolean;
}

// ---------------------------------------------------------------- printers (CONTRACT 5.13)

export type PrinterBrand = 'bambulab' | 'klipper' | 'octoprint' | 'prusa' | 'creality' | 'generic';
export type PrinterStatus = 'offline' | 'idle' | 'printing' | 'paused' | 'error' | 'maintenance';

export interface Printer {
  id: number;
  code: string;
  name: string;
  model: string;
  brand: PrinterBrand | string;
  serial_number: string | null;
  ip_address: string | null;
  mqtt_topic: string | null;
  location: string | null;
  work_center_id: number | null;
  notes: string | null;
  active: boolean;
  status: PrinterStatus | string;
  connection_config: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  last_seen: IsoDateTime | null;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
  is_online: boolean;
  has_ams: boolean;
  has_camera: boolean;
}

export interface PrinterList {
  items: Printer[];
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
}

export interface PrinterListQuery {
  search?: string;
  brand?: string;
  status?: string;
  active_only?: boolean;
  page?: number;
  page_size?: number;
}

// ---------------------------------------------------------------- scrap reasons (CONTRACT 5.12)

export interface ScrapReason {
  id: number;
  code: string;
  name: string;
  description: string | null;
  sequence: number;
  active?: boolean;
}

export interface ScrapReasonList {
  reasons: string[];
  details: ScrapReason[];
  descriptions: Record<string, string>;
}

// ---------------------------------------------------------------- settings (CONTRACT 5.16)

export interface CompanySettings {
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

export type CompanySettingsPatch = Partial<Omit<CompanySettings, 'id' | 'has_logo' | 'logo_filename' | 'updated_at' | 'tax_rate'>>;

// ---------------------------------------------------------------- team users (CONTRACT 5.15)

export interface TeamUser {
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

/** POST /admin/users/ (CONTRACT 5.15). */
export interface TeamUserCreate {
  email: string;
  password: string;
  first_name?: string | null;
  last_name?: string | null;
  account_type: 'admin' | 'operator';
}

export interface TeamUserListQuery {
  skip?: number;
  limit?: number;
  account_type?: 'admin' | 'operator';
  include_inactive?: boolean;
}

// ---------------------------------------------------------------- security audit log (CONTRACT table)

export interface AuditLogEntry {
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
}

export interface AuditLogPage {
  items: AuditLogEntry[];
  total: number;
  limit: number;
  offset: number;
}

export interface AuditLogQuery {
  limit?: number;
  offset?: number;
  event_type?: string;
  user_id?: number;
  since?: string;
  until?: string;
}

// ---------------------------------------------------------------- errors (CONTRACT 8)

export interface ValidationErrorBody {
  error: 'VALIDATION_ERROR';
  message: string;
  details: { errors: { field: string; message: string; type?: string }[] };
  timestamp?: string;
}

// ---------------------------------------------------------------- dashboard (CONTRACT 5.1)

export interface DashboardSummary {
  quotes: { pending: number; this_week: number };
  orders: { confirmed: number; in_production: number; ready_to_ship: number; overdue: number };
  production: { in_progress: number; scheduled: number; ready_to_start: number };
  boms: { needs_review: number; active: number };
  inventory: { low_stock_count: number; active_orders: number };
  revenue: { last_30_days: Decimal; orders_last_30_days: number };
}

// ---------------------------------------------------------------- purchase orders (CONTRACT 5.14)

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

export interface PurchaseOrderListQuery {
  offset?: number;
  limit?: number;
  status?: string;
  vendor_id?: number;
  search?: string;
}
