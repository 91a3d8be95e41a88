/**
 * Every TanStack Query key of the SPA, one factory per resource. A key starts with its
 * resource (`['items', ...]`), so invalidating `queryKeys.items.all` refetches every
 * items query; live updates (`live.ts`) invalidate the same prefixes. A list page's key is
 * `[resource, 'list', request]` (`useServerList`).
 */

/** `[resource, 'list', request]`: a page of a list, as `useServerList` asks for it. */
const list =
  <R extends string>(resource: R) =>
  <Q>(request: Q) =>
    [resource, 'list', request] as const;

export const queryKeys = {
  auth: {
    all: ['auth'] as const,
    me: () => ['auth', 'me'] as const,
  },
  setup: {
    all: ['setup'] as const,
    status: () => ['setup', 'status'] as const,
  },
  passwordReset: {
    all: ['password-reset'] as const,
    status: (token: string) => ['password-reset', 'status', token] as const,
  },
  items: {
    all: ['items'] as const,
    list: list('items'),
    detail: (id: number | null) => ['items', 'detail', id] as const,
    categories: () => ['items', 'categories'] as const,
    spoolMaterials: () => ['items', 'spool-materials'] as const,
    bomPicker: (search: string) => ['items', 'bom-picker', search] as const,
    options: (purpose: string) => ['items', 'options', purpose] as const,
    /** A template's material x colour matrix (its variants, what can still be made). */
    variantMatrix: (id: number) => ['items', 'variant-matrix', id] as const,
    /** A template's variants with their stock (under `items`: a new variant or a receipt refetches them). */
    variants: (id: number) => ['items', 'variants', id] as const,
    /** What syncing a template's routing would change on each variant (a dry run). */
    variantSyncPreview: (id: number) => ['items', 'variant-sync-preview', id] as const,
    /** The suggest-prices candidates of a filter (under `items`: applied prices refetch them). */
    priceCandidates: <Q>(request: Q) => ['items', 'price-candidates', request] as const,
  },
  inventory: {
    all: ['inventory'] as const,
    list: list('inventory'),
    locations: () => ['inventory', 'locations'] as const,
    reasons: () => ['inventory', 'reasons'] as const,
    pendingApproval: () => ['inventory', 'pending-approval'] as const,
    summary: <Q>(request: Q) => ['inventory', 'summary', request] as const,
    reconciliation: (locationId: number | null) => ['inventory', 'reconciliation', locationId] as const,
  },
  locations: {
    all: ['locations'] as const,
    list: list('locations'),
    spoolPicker: () => ['locations', 'spool-picker'] as const,
  },
  accounting: {
    all: ['accounting'] as const,
    summary: (asOf: string) => ['accounting', 'summary', asOf] as const,
    trialBalance: (asOf: string, includeZero: boolean) => ['accounting', 'trial-balance', asOf, includeZero] as const,
    valuation: () => ['accounting', 'valuation'] as const,
    recent: (limit: number) => ['accounting', 'recent', limit] as const,
    periods: () => ['accounting', 'periods'] as const,
    ledger: <Q>(accountCode: string | null, request: Q) => ['accounting', 'ledger', accountCode, request] as const,
    entry: (id: number | null) => ['accounting', 'entry', id] as const,
    salesJournal: (start: string, end: string) => ['accounting', 'sales-journal', start, end] as const,
    paymentsJournal: (start: string, end: string) => ['accounting', 'payments-journal', start, end] as const,
    taxSummary: (start: string, end: string) => ['accounting', 'tax-summary', start, end] as const,
    /** What customers owe by lateness, with the 1100 balance it should agree with. */
    receivablesAging: () => ['accounting', 'receivables-aging'] as const,
  },
  sales: {
    all: ['sales'] as const,
    list: list('sales'),
    detail: (id: number) => ['sales', 'detail', id] as const,
    events: (id: number) => ['sales', 'events', id] as const,
    shippingEvents: (id: number) => ['sales', 'shipping-events', id] as const,
    requiredOrders: (id: number) => ['sales', 'required-orders', id] as const,
    materialRequirements: (id: number) => ['sales', 'material-requirements', id] as const,
    blockingIssues: (id: number) => ['sales', 'blocking-issues', id] as const,
    closeShortPreview: (id: number) => ['sales', 'close-short-preview', id] as const,
    statusTransitions: () => ['sales', 'status-transitions'] as const,
    itemOptions: () => ['sales', 'item-options'] as const,
    orderOptions: () => ['sales', 'order-options'] as const,
  },
  payments: {
    all: ['payments'] as const,
    list: list('payments'),
    summary: (orderId: number | undefined) => ['payments', 'summary', orderId] as const,
    dashboard: () => ['payments', 'dashboard'] as const,
  },
  invoices: {
    all: ['invoices'] as const,
    /** A page of invoices (`useServerList({ area: 'invoices' })`), or an order's (`{ sales_order_id }`). */
    list: list('invoices'),
    detail: (id: number) => ['invoices', 'detail', id] as const,
    summary: () => ['invoices', 'summary'] as const,
  },
  messages: {
    all: ['messages'] as const,
    /** A page of the inbox (`{ unread_only, search, limit }`), or an order's threads (`{ sales_order_id }`). */
    list: list('messages'),
    /** A thread's messages, oldest first. */
    thread: (threadId: string) => ['messages', 'thread', threadId] as const,
    /** Messages nobody on the team has read (the sidebar's badge). */
    unreadCount: () => ['messages', 'unread-count'] as const,
  },
  shipping: {
    all: ['shipping'] as const,
    list: list('shipping'),
    queue: () => ['shipping', 'queue'] as const,
  },
  quotes: {
    all: ['quotes'] as const,
    list: list('quotes'),
    stats: () => ['quotes', 'stats'] as const,
  },
  customers: {
    all: ['customers'] as const,
    list: list('customers'),
    /** Customers as select options; `purpose` keeps a differently sized list apart. */
    options: (purpose?: string) => (purpose === undefined ? (['customers', 'options'] as const) : (['customers', 'options', purpose] as const)),
    orders: (customerId: number | undefined) => ['customers', 'orders', customerId] as const,
  },
  production: {
    all: ['production'] as const,
    list: list('production'),
    detail: (id: number) => ['production', 'detail', id] as const,
    /** Every work-center list (both `workCenters(activeOnly)`). */
    workCentersAll: ['production', 'work-centers'] as const,
    workCenters: (activeOnly: boolean) => ['production', 'work-centers', activeOnly] as const,
    /** Every routing (both `routings(productId)`). */
    routingsAll: ['production', 'routings'] as const,
    routings: (productId: number | undefined) => ['production', 'routings', productId] as const,
    /** The routing templates (under `routingsAll`: seeding or applying one refetches them). */
    routingTemplates: () => ['production', 'routings', 'templates'] as const,
    /** A routing step's materials (under `routingsAll`, with the totals they change). */
    stepMaterials: (stepId: number) => ['production', 'routings', 'step-materials', stepId] as const,
    operationTypes: () => ['production', 'operation-types'] as const,
    scrapReasons: () => ['production', 'scrap-reasons'] as const,
    spoolOptions: () => ['production', 'spool-options'] as const,
    productOptions: () => ['production', 'product-options'] as const,
    options: (purpose: string) => ['production', 'options', purpose] as const,
    /** The scheduler's Gantt board of a window (under `production`, so moved bookings refetch it live). */
    board: (start: string, end: string) => ['production', 'schedule-board', start, end] as const,
    /** An order's cost breakdown (estimate, actual, variance). */
    cost: (id: number) => ['production', 'cost', id] as const,
    /** An order's material availability (stock, reservations, open purchase orders). */
    availability: (id: number) => ['production', 'availability', id] as const,
    /** Whether each of an order's operations fits the printer it is on. */
    compatibility: (id: number) => ['production', 'compatibility', id] as const,
    /** Whether an order's materials can print on one printer (asked when a printer is picked). */
    printerCheck: (id: number, printerId: number) => ['production', 'printer-check', id, printerId] as const,
  },
  bom: {
    all: ['bom'] as const,
    list: list('bom'),
    detail: (id: number | null) => ['bom', 'detail', id] as const,
    explode: (id: number | null) => ['bom', 'explode', id] as const,
    whereUsed: (itemId: number | undefined) => ['bom', 'where-used', itemId] as const,
  },
  spools: {
    all: ['spools'] as const,
    list: list('spools'),
    detail: (id: number | null) => ['spools', 'detail', id] as const,
  },
  printers: {
    all: ['printers'] as const,
    list: list('printers'),
    detail: (id: number | null) => ['printers', 'detail', id] as const,
    maintenance: (id: number | null, page: number) => ['printers', 'maintenance', id, page] as const,
    maintenanceDue: () => ['printers', 'maintenance-due'] as const,
    codeSuggestion: () => ['printers', 'code-suggestion'] as const,
    activeWork: () => ['printers', 'active-work'] as const,
  },
  commandCenter: {
    all: ['command-center'] as const,
    summary: () => ['command-center', 'summary'] as const,
    resources: () => ['command-center', 'resources'] as const,
    dispatchSuggestions: () => ['command-center', 'dispatch-suggestions'] as const,
    actionItems: () => ['command-center', 'action-items'] as const,
  },
  purchasing: {
    all: ['purchasing'] as const,
    vendor: (id: number | null) => ['purchasing', 'vendor', id] as const,
    vendorItems: (id: number | null) => ['purchasing', 'vendor-items', id] as const,
    vendorMetrics: (id: number | null) => ['purchasing', 'vendor-metrics', id] as const,
    vendorOptions: () => ['purchasing', 'vendor-options'] as const,
    itemOptions: () => ['purchasing', 'item-options'] as const,
    lowStock: () => ['purchasing', 'low-stock'] as const,
  },
  purchaseOrders: {
    all: ['purchase-orders'] as const,
    list: list('purchase-orders'),
    detail: (id: number | null) => ['purchase-orders', 'detail', id] as const,
    events: (id: number | null) => ['purchase-orders', 'events', id] as const,
    documents: (id: number | null) => ['purchase-orders', 'documents', id] as const,
  },
  planning: {
    all: ['planning'] as const,
    /** A page of planned orders (`useServerList({ area: 'planning' })`). */
    list: list('planning'),
    runs: (limit: number) => ['planning', 'runs', limit] as const,
    /** A run's exceptions (null: the latest run's). */
    exceptions: (runId: number | null) => ['planning', 'exceptions', runId] as const,
    /** The items that have planned orders (the supply and demand picker). */
    plannedItems: () => ['planning', 'planned-items'] as const,
    supplyDemand: (productId: number | null, daysAhead: number) => ['planning', 'supply-demand', productId, daysAhead] as const,
    buyList: () => ['planning', 'buy-list'] as const,
  },
  vendors: {
    all: ['vendors'] as const,
    list: list('vendors'),
    options: (purpose: string) => ['vendors', 'options', purpose] as const,
  },
  traceability: {
    all: ['traceability'] as const,
    graph: (code: string, direction: 'BACKWARD') => ['traceability', 'graph', code, direction] as const,
    forward: (code: string) => ['traceability', 'forward', code] as const,
  },
  traceabilityLots: {
    all: ['traceability-lots'] as const,
    list: list('traceability-lots'),
  },
  traceabilitySerials: {
    all: ['traceability-serials'] as const,
    list: list('traceability-serials'),
    ofOrder: (orderId: string) => ['traceability-serials', 'of-order', orderId] as const,
  },
  traceabilityProfiles: {
    all: ['traceability-profiles'] as const,
  },
  quality: {
    all: ['quality'] as const,
    /** The quality policy (mode and inspection gate). */
    policy: () => ['quality', 'policy'] as const,
    plans: (includeInactive: boolean) => ['quality', 'plans', includeInactive] as const,
    /** A product's active plan (null when it has none). */
    activePlan: (productId: number) => ['quality', 'active-plan', productId] as const,
    defectReasons: () => ['quality', 'defect-reasons'] as const,
    /** Every defect reason, inactive ones too (naming the defects of old inspections). */
    defectReasonsAll: () => ['quality', 'defect-reasons', 'all'] as const,
    /** An order's inspections, oldest first. */
    inspections: (orderId: number) => ['quality', 'inspections', orderId] as const,
    photos: (inspectionId: number) => ['quality', 'photos', inspectionId] as const,
    metrics: (days: number) => ['quality', 'metrics', days] as const,
    queue: (limit: number, offset: number) => ['quality', 'queue', limit, offset] as const,
    recent: (limit: number) => ['quality', 'recent', limit] as const,
    scrapSummary: (days: number) => ['quality', 'scrap-summary', days] as const,
    trend: (days: number) => ['quality', 'trend', days] as const,
  },
  scrapReasons: {
    all: ['scrap-reasons'] as const,
    list: list('scrap-reasons'),
  },
  dashboard: {
    all: ['dashboard'] as const,
    summary: () => ['dashboard', 'summary'] as const,
    recentOrders: (limit: number) => ['dashboard', 'recent-orders', limit] as const,
    salesTrend: (period: string) => ['dashboard', 'sales-trend', period] as const,
    shippingTrend: (period: string) => ['dashboard', 'shipping-trend', period] as const,
    profitSummary: (period: string) => ['dashboard', 'profit-summary', period] as const,
    productionTrend: (days: number) => ['dashboard', 'production-trend', days] as const,
    purchasingTrend: (months: number) => ['dashboard', 'purchasing-trend', months] as const,
  },
  settings: {
    all: ['settings'] as const,
    ai: () => ['settings', 'ai'] as const,
  },
  taxRates: {
    all: ['tax-rates'] as const,
    /** The rates, active only or all (`includeInactive`); not a server-side list page. */
    rates: (includeInactive: boolean) => ['tax-rates', includeInactive] as const,
  },
  priceLevels: {
    all: ['price-levels'] as const,
    /** The levels, active only or all (`activeOnly`); not a server-side list page. */
    levels: (activeOnly: boolean) => ['price-levels', activeOnly] as const,
    /** A level's own item prices. */
    items: (id: number) => ['price-levels', 'items', id] as const,
  },
  security: {
    all: ['security'] as const,
    list: list('security'),
    scan: () => ['security', 'scan'] as const,
    remediation: (checkId: string) => ['security', 'remediation', checkId] as const,
  },
  users: {
    all: ['users'] as const,
    list: list('users'),
    /** Password reset requests waiting for an admin (the Team Members page). */
    resetRequests: () => ['users', 'password-reset-requests'] as const,
  },
  bulkExports: {
    all: ['bulk-exports'] as const,
    recent: (limit: number) => ['bulk-exports', limit] as const,
  },
} as const;

/** The resources whose pages are server-side lists (`useServerList({ area })`). */
export type ListArea = {
  [K in keyof typeof queryKeys]: 'list' extends keyof (typeof queryKeys)[K] ? (typeof queryKeys)[K]['all'][0] : never;
}[keyof typeof queryKeys];

/** The key of a page of `area`'s list: `[area, 'list', request]`. */
export function listKey<Q>(area: ListArea, request: Q) {
  return list(area)(request);
}
