// Material traceability in the browser against a real Strata server (issue 16): a lot is
// bought on a purchase order as two spools (API), a work order prints 3 serial-numbered
// widgets from one spool, two sales orders ship them; then the Material Traceability page
// traces the lot forward (graph, counts, affected customers, CSV export), a unit backward to
// its vendor, and a recall of the lot lists the customers to contact; the Lots and Serial
// numbers tabs (admins) find the lot and the units and open them in the trace view.
// Screenshots go to test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- traceability
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { ensureAdmin, needsApi, ok, signIn } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** Buys `spools` 1 KG spools of `material` as lot `lot` from a new vendor. */
async function buyLot(page, material, lot, spools) {
  const vendor = await ok(page, '/vendors/', { method: 'POST', json: { name: `Filament Co ${RUN}` } });
  const po = await ok(page, '/purchase-orders/', {
    method: 'POST',
    json: { vendor_id: vendor.id, lines: [{ product_id: material.id, quantity_ordered: String(spools.length), unit_cost: '20.00', purchase_unit: 'KG' }] },
  });
  await ok(page, `/purchase-orders/${po.id}/status`, { method: 'POST', json: { status: 'ordered' } });
  await ok(page, `/purchase-orders/${po.id}/receive`, {
    method: 'POST',
    json: {
      lines: [
        {
          line_id: po.lines[0].id,
          quantity_received: String(spools.length),
          lot_number: lot,
          spools: spools.map((n) => ({ weight_g: '1000', spool_number: n })),
        },
      ],
    },
  });
  return { vendor, po };
}

describe('material traceability with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('trace a lot forward to customers, a unit back to its vendor, and a recall', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'traceability';
    let passed = false;
    try {
      await signIn(page);
      const pla = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `TPLA-${RUN}`, name: `Trace PLA ${RUN}`, item_type: 'material', unit: 'G', purchase_uom: 'KG' },
      });
      const widget = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `TW-${RUN}`, name: `Traced widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '30.00', track_serials: true },
      });
      const lot = `LOT-${RUN}`;
      const spoolA = `SP-${RUN}-A`;
      const { vendor } = await buyLot(page, pla, lot, [spoolA, `SP-${RUN}-B`]);
      const spools = await ok(page, `/spools/?product_id=${pla.id}`);
      const spool = spools.items.find((s) => s.spool_number === spoolA);
      assert.ok(spool, JSON.stringify(spools));

      // A work order prints three widgets from spool A.
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: widget.id, quantity_ordered: '3' } });
      for (const step of ['release', 'start']) await ok(page, `/production-orders/${wo.id}/${step}`, { method: 'POST' });
      await ok(page, `/production-orders/${wo.id}/consume-spool`, { method: 'POST', json: { spool_id: spool.id, weight_consumed_g: '120' } });
      await ok(page, `/production-orders/${wo.id}/complete`, { method: 'POST', json: { quantity_completed: '3' } });
      await ok(page, `/production-orders/${wo.id}/qc`, { method: 'POST', json: { result: 'passed' } });
      const units = await ok(page, `/admin/traceability/serials?production_order_id=${wo.id}`);
      assert.equal(units.total, 3);

      // Two customers buy them: 2 units and 1 unit, both shipped.
      const orders = [];
      for (const [i, qty] of [
        [1, 2],
        [2, 1],
      ]) {
        const customer = await ok(page, '/admin/customers/', {
          method: 'POST',
          json: { email: `trace${i}-${RUN.toLowerCase()}@shop.test`, first_name: `Tracy${i}`, last_name: `Buyer ${RUN}` },
        });
        const so = await ok(page, '/sales-orders/', {
          method: 'POST',
          json: { customer_id: customer.id, lines: [{ product_id: widget.id, quantity: qty }], shipping_address_line1: '1 Elm St', shipping_city: 'Austin' },
        });
        await ok(page, `/sales-orders/${so.id}/status`, { method: 'PATCH', json: { status: 'confirmed' } });
        await ok(page, `/sales-orders/${so.id}/ship`, { method: 'POST', json: {} });
        orders.push({ so, customer });
      }

      // Forward from the lot: the graph reaches the work order, the units, both orders and
      // both customers; the counts say so.
      shot = 'traceability-forward';
      await page.goto('/admin/quality/traceability');
      await page.getByRole('heading', { name: 'Material Traceability', level: 1 }).waitFor();
      await page.getByText('Start with a number').waitFor();
      await page.getByLabel('Serial, lot or spool number').fill(lot.toLowerCase());
      await page.getByRole('button', { name: 'Trace', exact: true }).click();
      const counts = page.getByRole('definition');
      await page.getByRole('region', { name: 'Trace graph' }).waitFor();
      const stats = page.locator('dl[aria-label="Downstream counts"] .stat');
      const stat = async (label) => (await stats.filter({ hasText: label }).locator('dd').textContent())?.trim();
      assert.equal(await stat('Work orders'), '1');
      assert.equal(await stat('Units'), '3');
      assert.equal(await stat('Shipped'), '3');
      assert.equal(await stat('Customers'), '2');
      assert.ok((await counts.count()) >= 6);
      const graph = page.getByRole('region', { name: 'Trace graph' });
      await graph.locator(`[data-code="${wo.code}"]`).waitFor();
      for (const { so } of orders) await graph.locator(`[data-code="${so.order_number}"]`).waitFor();
      const customers = page.getByRole('table', { name: 'Affected customers' });
      for (const { customer } of orders) await customers.getByText(customer.email).waitFor();
      await screenshot(page, 'traceability-forward');

      // The customers export as CSV.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export customers CSV' }).click()]);
      const csv = await readFile(await download.path(), 'utf8');
      assert.match(csv, /^Customer,Email,Orders\r\n/);
      for (const { customer, so } of orders) {
        assert.ok(csv.includes(customer.email), csv);
        assert.ok(csv.includes(so.order_number), csv);
      }

      // Backward from a unit: the spool, the lot, the purchase order and the vendor.
      shot = 'traceability-backward';
      await page.getByLabel('Serial, lot or spool number').fill(units.items[0].serial_number);
      await page.getByText('What is it made of?').click();
      await page.getByRole('button', { name: 'Trace', exact: true }).click();
      await page.locator('dl[aria-label="Upstream counts"]').waitFor();
      for (const code of [spoolA, lot, vendor.code]) await graph.locator(`[data-code="${code}"]`).waitFor();
      await screenshot(page, 'traceability-backward');

      // Clicking the work order in the graph traces from it.
      await graph.getByRole('button', { name: new RegExp(`Trace production order ${wo.code}`, 'i') }).click();
      await page.waitForURL(new RegExp(`q=${wo.code}`));

      // Recall impact of the lot (and a number that names nothing).
      shot = 'traceability-recall';
      await page.getByRole('tab', { name: 'Recall impact' }).click();
      await page.getByRole('button', { name: 'Assess impact' }).click();
      await page.getByText('Enter at least one lot or spool number.').waitFor();
      await page.getByLabel('Suspect lots and spools').fill(`${lot}\nNOPE-${RUN}`);
      await page.getByRole('button', { name: 'Assess impact' }).click();
      await page.getByRole('status').filter({ hasText: `NOPE-${RUN}` }).waitFor();
      for (const { customer } of orders) await page.getByRole('table', { name: 'Affected customers' }).getByText(customer.email).waitFor();
      assert.equal(await stat('Customers'), '2');
      await screenshot(page, 'traceability-recall');

      // Admins browse the material lots: the lot of this run, searched and filtered by status,
      // links to its trace.
      shot = 'traceability-lots';
      await page.getByRole('tab', { name: 'Lots' }).click();
      await page.waitForURL(/tab=lots/);
      const lots = page.getByRole('region', { name: 'Material lots' });
      await lots.getByRole('searchbox', { name: 'Search lots' }).fill(lot);
      await page.waitForURL(new RegExp(`q=${lot}`));
      const lotRow = lots.getByRole('row').filter({ hasText: lot });
      await lotRow.waitFor();
      // The other runs' lots leave once the search has answered.
      await lots.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
      assert.equal(await lots.getByRole('row').count(), 2, 'the header and the one lot');
      await lotRow.getByText('Active', { exact: true }).waitFor();
      await lotRow.getByText(pla.sku, { exact: true }).waitFor();
      await lots.getByLabel('Lot status').selectOption('recalled');
      await lots.getByText('No results match').waitFor();
      await lots.getByLabel('Lot status').selectOption('active');
      await lotRow.waitFor();
      await screenshot(page, 'traceability-lots');
      await lotRow.getByRole('link', { name: `Trace ${lot} forward` }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === lot && !u.searchParams.has('tab'));
      await page.getByRole('region', { name: 'Trace graph' }).waitFor();
      assert.equal(await page.getByLabel('Serial, lot or spool number').inputValue(), lot);
      assert.equal(await stat('Units'), '3');

      // And the serial numbers: the three units of the work order (searched by the widget's SKU),
      // all shipped; one of them traced back to its lot.
      shot = 'traceability-serials';
      await page.getByRole('tab', { name: 'Serial numbers' }).click();
      await page.waitForURL(/tab=serials/);
      const serials = page.getByRole('region', { name: 'Serial numbers' });
      await serials.getByRole('searchbox', { name: 'Search serial numbers' }).fill(`TW-${RUN}`);
      for (const u of units.items) await serials.getByRole('row').filter({ hasText: u.serial_number }).waitFor();
      await serials.locator('tbody tr').nth(3).waitFor({ state: 'detached' });
      assert.equal(await serials.getByRole('row').count(), 4, 'the header and three units');
      assert.equal(await serials.getByRole('row').filter({ hasText: widget.sku }).count(), 3);
      await serials.getByLabel('Unit status').selectOption('in_stock');
      await serials.getByText('No results match').waitFor();
      await serials.getByLabel('Unit status').selectOption('shipped');
      await serials.getByRole('row').filter({ hasText: units.items[0].serial_number }).waitFor();
      assert.equal(await serials.getByRole('row').count(), 4);
      await screenshot(page, 'traceability-serials');
      const unit = units.items[1].serial_number;
      await serials.getByRole('link', { name: `Trace ${unit} backward` }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === unit && u.searchParams.get('dir') === 'backward');
      await page.locator('dl[aria-label="Upstream counts"]').waitFor();
      await graph.locator(`[data-code="${lot}"]`).waitFor();

      assert.deepEqual(errors, [], `browser errors: ${errors.join('\n')}`);
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failure`).catch(() => {});
      await context.close();
    }
  });
});
