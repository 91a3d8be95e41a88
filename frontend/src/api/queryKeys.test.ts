import { describe, expect, it } from 'vitest';
import { listKey, queryKeys } from './queryKeys';

// Sample arguments, named as at the call sites.
const [token, search, term, asOf, accountCode, start, end, code, order, period] = ['t0k', 'pla', 'PLA-1', '2026-11-30', '1000', '2026-11-01', '2026-11-30', 'LOT-7', '12', '30d'];
const [itemId, locationId, limit, entryId, id, shipPage, pid, bomId, spoolId, sid, printerId, page, vendorId, poId, months, days] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
const [RECENT_ORDERS, EXPORT_LIST_LIMIT, includeZero, activeOnly] = [8, 50, true, false];
const stepId = 21;
const request = { page: 1, limit: 25 };
const q = { limit: 100, offset: 0 };
const sort = { key: 'name', dir: 'asc' };
const area = 'items' as const;
const refunding = { sales_order_id: 17 };
const customer = { id: 18 };
const whereUsed = { id: 19 };
const check = { id: 'tls' };
const item = { id: 20 };

describe('queryKeys', () => {
  it('builds the same key arrays the pages wrote by hand', () => {
    const cases: [unknown, unknown][] = [
      [queryKeys.auth.me(), ['auth', 'me']],
      [queryKeys.setup.status(), ['setup', 'status']],
      [queryKeys.passwordReset.status(token), ['password-reset', 'status', token]],
      [queryKeys.items.all, ['items']],
      [queryKeys.items.detail(itemId), ['items', 'detail', itemId]],
      [queryKeys.items.categories(), ['items', 'categories']],
      [queryKeys.items.spoolMaterials(), ['items', 'spool-materials']],
      [queryKeys.items.bomPicker(search), ['items', 'bom-picker', search]],
      [queryKeys.items.options('traceability'), ['items', 'options', 'traceability']],
      [queryKeys.items.variantMatrix(itemId), ['items', 'variant-matrix', itemId]],
      [queryKeys.items.variants(itemId), ['items', 'variants', itemId]],
      [queryKeys.items.variantSyncPreview(itemId), ['items', 'variant-sync-preview', itemId]],
      [queryKeys.items.priceCandidates(request), ['items', 'price-candidates', request]],
      [queryKeys.items.list({ search: term, limit: 10, picker: true }), ['items', 'list', { search: term, limit: 10, picker: true }]],
      [queryKeys.inventory.all, ['inventory']],
      [queryKeys.inventory.locations(), ['inventory', 'locations']],
      [queryKeys.inventory.reasons(), ['inventory', 'reasons']],
      [queryKeys.inventory.pendingApproval(), ['inventory', 'pending-approval']],
      [queryKeys.inventory.summary(request), ['inventory', 'summary', request]],
      [queryKeys.inventory.summary({ product_id: item.id, show_zero: true }), ['inventory', 'summary', { product_id: item.id, show_zero: true }]],
      [queryKeys.inventory.reconciliation(locationId), ['inventory', 'reconciliation', locationId]],
      [queryKeys.locations.spoolPicker(), ['locations', 'spool-picker']],
      [queryKeys.accounting.all, ['accounting']],
      [queryKeys.accounting.valuation(), ['accounting', 'valuation']],
      [queryKeys.accounting.trialBalance(asOf, includeZero), ['accounting', 'trial-balance', asOf, includeZero]],
      [queryKeys.accounting.summary(asOf), ['accounting', 'summary', asOf]],
      [queryKeys.accounting.recent(limit), ['accounting', 'recent', limit]],
      [queryKeys.accounting.periods(), ['accounting', 'periods']],
      [queryKeys.accounting.ledger(accountCode, q), ['accounting', 'ledger', accountCode, q]],
      [queryKeys.accounting.entry(entryId), ['accounting', 'entry', entryId]],
      [queryKeys.accounting.taxSummary(start, end), ['accounting', 'tax-summary', start, end]],
      [queryKeys.accounting.salesJournal(start, end), ['accounting', 'sales-journal', start, end]],
      [queryKeys.accounting.paymentsJournal(start, end), ['accounting', 'payments-journal', start, end]],
      [queryKeys.accounting.receivablesAging(), ['accounting', 'receivables-aging']],
      [queryKeys.invoices.all, ['invoices']],
      [queryKeys.invoices.list({ sales_order_id: id }), ['invoices', 'list', { sales_order_id: id }]],
      [queryKeys.invoices.detail(id), ['invoices', 'detail', id]],
      [queryKeys.invoices.summary(), ['invoices', 'summary']],
      [queryKeys.messages.all, ['messages']],
      [queryKeys.messages.list({ sales_order_id: id }), ['messages', 'list', { sales_order_id: id }]],
      [queryKeys.messages.thread(code), ['messages', 'thread', code]],
      [queryKeys.messages.unreadCount(), ['messages', 'unread-count']],
      [queryKeys.sales.all, ['sales']],
      [queryKeys.sales.itemOptions(), ['sales', 'item-options']],
      [queryKeys.sales.orderOptions(), ['sales', 'order-options']],
      [queryKeys.sales.statusTransitions(), ['sales', 'status-transitions']],
      [queryKeys.sales.shippingEvents(id), ['sales', 'shipping-events', id]],
      [queryKeys.sales.requiredOrders(id), ['sales', 'required-orders', id]],
      [queryKeys.sales.materialRequirements(id), ['sales', 'material-requirements', id]],
      [queryKeys.sales.events(id), ['sales', 'events', id]],
      [queryKeys.sales.detail(id), ['sales', 'detail', id]],
      [queryKeys.sales.blockingIssues(id), ['sales', 'blocking-issues', id]],
      [queryKeys.sales.closeShortPreview(id), ['sales', 'close-short-preview', id]],
      [queryKeys.payments.all, ['payments']],
      [queryKeys.payments.summary(id), ['payments', 'summary', id]],
      [queryKeys.payments.summary(refunding?.sales_order_id), ['payments', 'summary', refunding?.sales_order_id]],
      [queryKeys.payments.dashboard(), ['payments', 'dashboard']],
      [queryKeys.payments.list({ order_id: id }), ['payments', 'list', { order_id: id }]],
      [queryKeys.shipping.all, ['shipping']],
      [queryKeys.shipping.queue(), ['shipping', 'queue']],
      [queryKeys.shipping.list({ page: shipPage }), ['shipping', 'list', { page: shipPage }]],
      [queryKeys.shipping.list({ sales_order_id: id }), ['shipping', 'list', { sales_order_id: id }]],
      [queryKeys.quotes.all, ['quotes']],
      [queryKeys.quotes.stats(), ['quotes', 'stats']],
      [queryKeys.customers.all, ['customers']],
      [queryKeys.customers.options(), ['customers', 'options']],
      [queryKeys.customers.options('traceability'), ['customers', 'options', 'traceability']],
      [queryKeys.customers.orders(customer?.id), ['customers', 'orders', customer?.id]],
      [queryKeys.production.all, ['production']],
      [queryKeys.production.workCentersAll, ['production', 'work-centers']],
      [queryKeys.production.workCenters(true), ['production', 'work-centers', true]],
      [queryKeys.production.workCenters(false), ['production', 'work-centers', false]],
      [queryKeys.production.workCenters(activeOnly), ['production', 'work-centers', activeOnly]],
      [queryKeys.production.detail(id), ['production', 'detail', id]],
      [queryKeys.production.routingsAll, ['production', 'routings']],
      [queryKeys.production.routings(pid), ['production', 'routings', pid]],
      [queryKeys.production.routingTemplates(), ['production', 'routings', 'templates']],
      [queryKeys.production.stepMaterials(stepId), ['production', 'routings', 'step-materials', stepId]],
      [queryKeys.production.operationTypes(), ['production', 'operation-types']],
      [queryKeys.production.productOptions(), ['production', 'product-options']],
      [queryKeys.production.spoolOptions(), ['production', 'spool-options']],
      [queryKeys.production.scrapReasons(), ['production', 'scrap-reasons']],
      [queryKeys.production.options('traceability'), ['production', 'options', 'traceability']],
      [queryKeys.bom.all, ['bom']],
      [queryKeys.bom.whereUsed(whereUsed?.id), ['bom', 'where-used', whereUsed?.id]],
      [queryKeys.bom.explode(bomId), ['bom', 'explode', bomId]],
      [queryKeys.bom.detail(bomId), ['bom', 'detail', bomId]],
      [queryKeys.spools.all, ['spools']],
      [queryKeys.spools.detail(spoolId), ['spools', 'detail', spoolId]],
      [queryKeys.spools.detail(sid), ['spools', 'detail', sid]],
      [queryKeys.printers.all, ['printers']],
      [queryKeys.printers.maintenanceDue(), ['printers', 'maintenance-due']],
      [queryKeys.printers.codeSuggestion(), ['printers', 'code-suggestion']],
      [queryKeys.printers.maintenance(printerId, page), ['printers', 'maintenance', printerId, page]],
      [queryKeys.printers.detail(printerId), ['printers', 'detail', printerId]],
      [queryKeys.printers.activeWork(), ['printers', 'active-work']],
      [queryKeys.commandCenter.all, ['command-center']],
      [queryKeys.commandCenter.summary(), ['command-center', 'summary']],
      [queryKeys.commandCenter.resources(), ['command-center', 'resources']],
      [queryKeys.commandCenter.dispatchSuggestions(), ['command-center', 'dispatch-suggestions']],
      [queryKeys.commandCenter.actionItems(), ['command-center', 'action-items']],
      [queryKeys.purchasing.all, ['purchasing']],
      [queryKeys.purchasing.itemOptions(), ['purchasing', 'item-options']],
      [queryKeys.purchasing.vendorOptions(), ['purchasing', 'vendor-options']],
      [queryKeys.purchasing.vendor(vendorId), ['purchasing', 'vendor', vendorId]],
      [queryKeys.purchasing.vendorMetrics(vendorId), ['purchasing', 'vendor-metrics', vendorId]],
      [queryKeys.purchasing.vendorItems(vendorId), ['purchasing', 'vendor-items', vendorId]],
      [queryKeys.purchasing.lowStock(), ['purchasing', 'low-stock']],
      [queryKeys.purchaseOrders.all, ['purchase-orders']],
      [queryKeys.purchaseOrders.events(poId), ['purchase-orders', 'events', poId]],
      [queryKeys.purchaseOrders.documents(poId), ['purchase-orders', 'documents', poId]],
      [queryKeys.purchaseOrders.detail(poId), ['purchase-orders', 'detail', poId]],
      [queryKeys.planning.all, ['planning']],
      [queryKeys.planning.list({ page: 2 }), ['planning', 'list', { page: 2 }]],
      [queryKeys.planning.runs(limit), ['planning', 'runs', limit]],
      [queryKeys.planning.exceptions(null), ['planning', 'exceptions', null]],
      [queryKeys.planning.exceptions(id), ['planning', 'exceptions', id]],
      [queryKeys.planning.plannedItems(), ['planning', 'planned-items']],
      [queryKeys.planning.supplyDemand(itemId, days), ['planning', 'supply-demand', itemId, days]],
      [queryKeys.planning.buyList(), ['planning', 'buy-list']],
      [queryKeys.vendors.all, ['vendors']],
      [queryKeys.vendors.options('traceability'), ['vendors', 'options', 'traceability']],
      [queryKeys.traceability.graph(code, 'BACKWARD'), ['traceability', 'graph', code, 'BACKWARD']],
      [queryKeys.traceability.forward(code), ['traceability', 'forward', code]],
      [queryKeys.traceabilitySerials.ofOrder(order), ['traceability-serials', 'of-order', order]],
      [queryKeys.traceabilityLots.all, ['traceability-lots']],
      [queryKeys.traceabilitySerials.all, ['traceability-serials']],
      [queryKeys.traceabilityProfiles.all, ['traceability-profiles']],
      [queryKeys.scrapReasons.list(sort), ['scrap-reasons', 'list', sort]],
      [queryKeys.security.scan(), ['security', 'scan']],
      [queryKeys.security.remediation(check.id), ['security', 'remediation', check.id]],
      [queryKeys.dashboard.summary(), ['dashboard', 'summary']],
      [queryKeys.dashboard.shippingTrend(period), ['dashboard', 'shipping-trend', period]],
      [queryKeys.dashboard.salesTrend(period), ['dashboard', 'sales-trend', period]],
      [queryKeys.dashboard.recentOrders(RECENT_ORDERS), ['dashboard', 'recent-orders', RECENT_ORDERS]],
      [queryKeys.dashboard.purchasingTrend(months), ['dashboard', 'purchasing-trend', months]],
      [queryKeys.dashboard.profitSummary(period), ['dashboard', 'profit-summary', period]],
      [queryKeys.dashboard.productionTrend(days), ['dashboard', 'production-trend', days]],
      [queryKeys.settings.all, ['settings']],
      [queryKeys.settings.ai(), ['settings', 'ai']],
      [queryKeys.taxRates.all, ['tax-rates']],
      [queryKeys.taxRates.rates(includeZero), ['tax-rates', includeZero]],
      [queryKeys.priceLevels.all, ['price-levels']],
      [queryKeys.priceLevels.levels(activeOnly), ['price-levels', activeOnly]],
      [queryKeys.priceLevels.items(id), ['price-levels', 'items', id]],
      [queryKeys.users.all, ['users']],
      [queryKeys.users.resetRequests(), ['users', 'password-reset-requests']],
      [queryKeys.bulkExports.all, ['bulk-exports']],
      [queryKeys.bulkExports.recent(EXPORT_LIST_LIMIT), ['bulk-exports', EXPORT_LIST_LIMIT]],
      [queryKeys.quality.policy(), ['quality', 'policy']],
      [queryKeys.quality.plans(includeZero), ['quality', 'plans', includeZero]],
      [queryKeys.quality.activePlan(pid), ['quality', 'active-plan', pid]],
      [queryKeys.quality.inspections(id), ['quality', 'inspections', id]],
      [queryKeys.quality.photos(id), ['quality', 'photos', id]],
      [queryKeys.quality.queue(limit, page), ['quality', 'queue', limit, page]],
      [queryKeys.quality.trend(days), ['quality', 'trend', days]],
      [listKey(area, request), [area, 'list', request]],
    ];
    for (const [built, written] of cases) expect(built).toEqual(written);
  });

  it('starts every key of a resource with its `all` prefix, so invalidating it reaches them', () => {
    expect(queryKeys.items.list({ search: 'x' }).slice(0, 1)).toEqual(queryKeys.items.all);
    expect(queryKeys.production.workCenters(true).slice(0, 2)).toEqual(queryKeys.production.workCentersAll);
    expect(queryKeys.production.routings(3).slice(0, 2)).toEqual(queryKeys.production.routingsAll);
    expect(queryKeys.production.routingTemplates().slice(0, 2)).toEqual(queryKeys.production.routingsAll);
    expect(queryKeys.production.stepMaterials(3).slice(0, 2)).toEqual(queryKeys.production.routingsAll);
    for (const resource of Object.values(queryKeys)) {
      for (const make of Object.values(resource)) {
        if (typeof make !== 'function') continue;
        const key = (make as (...args: unknown[]) => readonly unknown[])(1, 2);
        expect(key[0]).toBe(resource.all[0]);
      }
    }
  });

  it('names a list page [area, "list", request]', () => {
    expect(listKey('traceability-lots', request)).toEqual(['traceability-lots', 'list', request]);
    expect(queryKeys.customers.options()).toEqual(['customers', 'options']);
    expect(queryKeys.customers.options('traceability')).toEqual(['customers', 'options', 'traceability']);
  });
});
