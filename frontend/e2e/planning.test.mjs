// Planning in the browser against a real Strata server (issue 32): a vendor, a material
// bought from it (its preferred vendor, through the vendor items route), a finished good made
// of it (a BOM) and a sales order for three of them are seeded through the API; then, on the
// Planning page: Run MRP, the planned orders (a make for the product, a buy for the material),
// the material's supply and demand chart, the buy list grouped under the vendor, and the buy
// released: its draft purchase order is linked, and the Purchasing page shows it.
// Screenshots of each step go to test-results/screenshots.
//
// It runs on the same server as api.test.mjs (which creates the administrator first) or on
// a fresh one of its own (it then creates the administrator itself):
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- planning
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** `YYYY-MM-DD`, `days` from today (UTC, as the server counts). */
const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('planning with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('run MRP -> planned orders -> chart and buy list -> release the buy -> the draft PO on Purchasing', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'planning-seed';
    let passed = false;
    try {
      await signIn(page);

      // A vendor; PLA bought from it (preferred, 5 days); a widget of 50 g of PLA sold at 24.99;
      // a sales order for 3 widgets due in 20 days. No stock: everything must be planned.
      const vendor = await ok(page, '/vendors/', { method: 'POST', json: { name: `Filament Co ${RUN}`, code: `FIL-${RUN}` } });
      const pla = await ok(page, '/items', { method: 'POST', json: { sku: `PLA-${RUN}`, name: `Black PLA ${RUN}`, item_type: 'material', unit: 'G', procurement_type: 'buy', standard_cost: '0.0200' } });
      await ok(page, `/vendors/${vendor.id}/items`, { method: 'POST', json: { product_id: pla.id, is_preferred: true, lead_time_days: 5, unit_cost: '0.0200' } });
      const widget = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `WGT-${RUN}`, name: `Planned widget ${RUN}`, item_type: 'finished_good', unit: 'EA', procurement_type: 'make', selling_price: '24.99' },
      });
      await ok(page, '/admin/bom/', { method: 'POST', json: { product_id: widget.id, lines: [{ component_id: pla.id, quantity: '50', unit: 'G' }] } });
      const so = await ok(page, '/sales-orders/', {
        method: 'POST',
        json: { lines: [{ product_id: widget.id, quantity: 3 }], due_date: inDays(20), shipping_address_line1: '1 Elm St', shipping_city: 'Austin' },
      });

      // Planning: Run MRP through its dialog.
      shot = 'planning-run';
      await page.goto('/admin/planning');
      await page.getByRole('heading', { name: 'Planning', exact: true }).waitFor();
      await page.getByRole('region', { name: 'Last MRP run' }).waitFor();
      await page.getByRole('button', { name: 'Run MRP' }).first().click();
      let dialog = page.getByRole('dialog', { name: 'Run MRP' });
      await dialog.getByLabel(/^Planning horizon/).fill('0');
      await dialog.getByRole('button', { name: 'Run MRP' }).click();
      await dialog.getByText('Enter a whole number of days from 1 to 365.').waitFor();
      await dialog.getByLabel(/^Planning horizon/).fill('60');
      await screenshot(page, 'planning-run-dialog');
      await dialog.getByRole('button', { name: 'Run MRP' }).click();
      await toast(page, 'MRP run complete');
      await dialog.waitFor({ state: 'detached' });
      const runs = await ok(page, '/mrp/runs?limit=1');
      const run = runs.runs[0];
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.planning_horizon_days, 60);
      assert.ok(run.planned_orders_created >= 2, `a make and a buy: ${JSON.stringify(run)}`);
      const summary = page.getByRole('region', { name: 'Last MRP run' });
      await summary.getByText(String(run.planned_orders_created), { exact: true }).first().waitFor();

      // The planned orders, through the API: make 3 widgets, buy 150 g of PLA from the vendor.
      const planned = (await ok(page, '/mrp/planned-orders?page_size=200')).items;
      const make = planned.find((p) => p.product_id === widget.id);
      const buy = planned.find((p) => p.product_id === pla.id);
      assert.ok(make && buy, `planned: ${JSON.stringify(planned.filter((p) => p.product_id === widget.id || p.product_id === pla.id))}`);
      assert.equal(make.order_type, 'production');
      assert.equal(Number(make.quantity), 3);
      assert.equal(make.source_demand_type, 'sales_order');
      assert.equal(make.source_demand_id, so.id);
      assert.equal(buy.order_type, 'purchase');
      assert.equal(Number(buy.quantity), 150);
      assert.equal(buy.vendor_id, vendor.id);

      // The table shows both; the buys alone with the type filter (as many rows as a page holds).
      shot = 'planning-planned-orders';
      const table = page.getByRole('region', { name: 'Planned orders' });
      await table.getByRole('combobox', { name: 'Rows per page' }).selectOption('200');
      const makeRow = table.getByRole('row').filter({ hasText: widget.sku });
      await makeRow.getByText('Make', { exact: true }).waitFor();
      const buyRow = table.getByRole('row').filter({ hasText: pla.sku });
      await buyRow.getByText(vendor.name).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'planning-planned-orders');
      await table.getByRole('combobox', { name: 'Type' }).selectOption('buy');
      await buyRow.waitFor();
      await makeRow.waitFor({ state: 'detached' });

      // The material's projected balance, from its row.
      shot = 'planning-supply-demand';
      await buyRow.getByRole('button', { name: `Supply and demand of ${pla.sku}` }).click();
      const sd = page.getByRole('region', { name: 'Supply and demand' });
      await sd.getByRole('heading', { name: new RegExp(pla.sku) }).waitFor();
      await sd.getByRole('img', { name: new RegExp(`Projected balance of ${pla.sku}`) }).waitFor();
      // Attached, not visible: a flat balance draws a line with an empty box.
      await sd.locator('.recharts-line').first().waitFor({ state: 'attached' });
      await screenshot(page, 'planning-supply-demand');
      // The widget's: the sales order's demand against the planned make, picked from the list.
      await sd.getByLabel('Item with planned orders').selectOption(String(widget.id));
      await sd.getByRole('heading', { name: new RegExp(widget.sku) }).waitFor();
      await sd.getByRole('img', { name: new RegExp(`Projected balance of ${widget.sku}`) }).waitFor();
      await sd.locator('.recharts-bar-rectangle').first().waitFor();
      await page.mouse.move(0, 0);
      await screenshot(page, 'planning-supply-demand-product');

      // The buy list: the PLA short under its vendor, with the subtotal.
      shot = 'planning-buy-list';
      await page.getByRole('link', { name: 'Buy list' }).click();
      const buyList = page.getByRole('table', { name: 'Buy list' });
      const group = buyList.getByRole('rowgroup', { name: vendor.name });
      await group.getByText(pla.sku, { exact: true }).waitFor();
      await group.getByRole('row', { name: new RegExp(`Subtotal ${vendor.name}`) }).waitFor();
      await screenshot(page, 'planning-buy-list');

      // Release the buy from its row: its vendor is the planned one; the draft PO is linked.
      shot = 'planning-release';
      await page.getByRole('link', { name: 'Planned orders' }).click();
      await table.getByRole('combobox', { name: 'Type' }).selectOption('buy');
      await buyRow.getByRole('button', { name: `Release PLN-${buy.id}` }).click();
      dialog = page.getByRole('dialog', { name: `Release PLN-${buy.id}` });
      await dialog.getByText(`from ${vendor.name}`).waitFor();
      assert.equal(await dialog.getByLabel('Vendor').inputValue(), String(vendor.id));
      await dialog.getByLabel('Notes').fill(`Released by the planning e2e ${RUN}`);
      await screenshot(page, 'planning-release-dialog');
      await dialog.getByRole('button', { name: 'Release', exact: true }).click();
      await toast(page, 'Planned order released');
      const panel = page.getByRole('region', { name: 'Released as drafts' });
      const poLink = panel.getByRole('link', { name: /^PO-/ });
      await poLink.waitFor();
      const poNumber = (await poLink.textContent()).trim();
      await buyRow.getByText('Released', { exact: true }).waitFor();
      await buyRow.getByRole('link', { name: 'View PO' }).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'planning-released');

      const after = await ok(page, `/mrp/planned-orders/${buy.id}`);
      assert.equal(after.status, 'released');
      const po = await ok(page, `/purchase-orders/${after.converted_to_po_id}`);
      assert.equal(po.po_number, poNumber);
      assert.equal(po.status, 'draft');
      assert.equal(po.vendor_id, vendor.id);
      assert.deepEqual(
        po.lines.map((l) => [l.product_id, Number(l.quantity_ordered)]),
        [[pla.id, 150]],
      );

      // Purchasing: the link opens the draft order, and the list has it.
      shot = 'planning-purchasing';
      await poLink.click();
      await page.waitForURL(/\/admin\/purchasing\?po=\d+$/);
      dialog = page.getByRole('dialog', { name: `Purchase order ${poNumber}` });
      await dialog.getByText('Draft', { exact: true }).first().waitFor();
      await dialog.getByText(pla.sku).first().waitFor();
      await screenshot(page, 'planning-purchase-order');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.goto(`/admin/purchasing?q=${encodeURIComponent(poNumber)}`);
      const poRow = page.getByRole('row').filter({ hasText: poNumber });
      await poRow.getByText('Draft', { exact: true }).waitFor();
      await poRow.getByText(vendor.name).waitFor();
      await screenshot(page, 'planning-purchasing-list');

      // At tablet width the plan still reads (the vendor and source columns step aside).
      shot = 'planning-tablet';
      await page.setViewportSize(TABLET);
      await page.goto('/admin/planning');
      await table.getByRole('row').filter({ hasText: widget.sku }).waitFor();
      await screenshot(page, 'planning-tablet');

      // The next run counts the draft as supply: the PLA is no longer short.
      const buyListAfter = await ok(page, '/buy-list');
      assert.equal(
        buyListAfter.items.some((i) => i.product_id === pla.id),
        false,
        'the released draft covers the material',
      );
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
