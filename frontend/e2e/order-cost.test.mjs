// A production order's Cost tab, material availability and printer compatibility in the
// browser against a real Strata server. Seeded through the API: ABS (a material type that
// needs an enclosure) and PA-CF (abrasive) imported as materials, an open A1 and an enclosed
// X1 Carbon in a printer pool, a product printed from ABS and packed in a box, and one from
// PA-CF. Then, in the page: the Cost tab's chart and variance table, a re-estimate after its
// confirmation; the materials' availability; the open printer picked for the ABS print,
// refused inline with the start blocked, the enclosed one accepted and the print run on it
// (its variance then shows on the Cost tab); and the PA-CF order,
// booked on the X1 whose nozzle is unknown, showing that warning in amber. Screenshots go to
// test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- order-cost
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, DESKTOP, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, pageApi, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** Imports material rows (CSV through the import route) and answers the created items by SKU. */
async function importMaterials(page, rows) {
  const csv = ['Category,SKU,Name,Material Type,Material Color Name,HEX Code,Unit,Status,Price,On Hand (g)', ...rows].join('\n');
  const res = await page.evaluate(async (text) => {
    const fd = new FormData();
    fd.append('file', new File([text], 'materials.csv', { type: 'text/csv' }));
    const r = await fetch('/api/v1/materials/import/?update_existing=true', { method: 'POST', body: fd, credentials: 'include' });
    return { status: r.status, body: await r.json() };
  }, csv);
  assert.equal(res.status, 200, `material import: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.errors?.length ?? 0, 0, `material import errors: ${JSON.stringify(res.body)}`);
}

async function itemBySku(page, sku) {
  const found = await ok(page, `/items?search=${encodeURIComponent(sku)}`);
  const list = Array.isArray(found) ? found : (found.items ?? []);
  const item = list.find((i) => i.sku === sku);
  assert.ok(item, `item ${sku}: ${JSON.stringify(found).slice(0, 400)}`);
  return item;
}

describe('a production order: cost, availability and printer compatibility, with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('Cost tab with its chart, a re-estimate, availability, and an open printer refused for ABS', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'order-cost-seed';
    let passed = false;
    try {
      await signIn(page);

      // ABS needs an enclosure and a 250 °C nozzle; PA-CF is abrasive.
      await importMaterials(page, [`ABS,MAT-ABS-${RUN},ABS Black ${RUN},ABS,Black,#111111,kg,Active,20,2000`, `PA-CF,MAT-PACF-${RUN},PA-CF Black ${RUN},PA-CF,Black,#222222,kg,Active,60,1000`]);
      await ok(page, '/materials/types/ABS', { method: 'PATCH', json: { requires_enclosure: true, nozzle_temp_c: 250 } });
      await ok(page, '/materials/types/PA_CF', { method: 'PATCH', json: { is_abrasive: true } });
      const abs = await itemBySku(page, `MAT-ABS-${RUN}`);
      const pacf = await itemBySku(page, `MAT-PACF-${RUN}`);

      const item = (sku, item_type, unit) => ok(page, '/items', { method: 'POST', json: { sku, name: `${sku} (e2e)`, item_type, unit } });
      const box = await item(`BOX-${RUN}`, 'supply', 'EA');
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: box.id, transaction_type: 'receipt', quantity: '1', cost_per_unit: '0.50' } });
      const enclosure = await item(`ENCL-${RUN}`, 'finished_good', 'EA');
      const bracket = await item(`BRKT-${RUN}`, 'finished_good', 'EA');

      const pool = await ok(page, '/work-centers/', { method: 'POST', json: { code: `POOL-${RUN}`, name: `Printer pool ${RUN}`, center_type: 'printer_pool', hourly_rate: '6' } });
      const pack = await ok(page, '/work-centers/', { method: 'POST', json: { code: `PACK-${RUN}`, name: `Packing ${RUN}`, center_type: 'packing', hourly_rate: '20' } });
      const a1 = await ok(page, '/printers/', { method: 'POST', json: { code: `A1-${RUN}`, name: `A1 ${RUN}`, model: 'A1', work_center_id: pool.id, status: 'idle' } });
      const x1 = await ok(page, '/printers/', { method: 'POST', json: { code: `X1-${RUN}`, name: `X1 Carbon ${RUN}`, model: 'X1 Carbon', work_center_id: pool.id, status: 'idle' } });

      const routing = (product, steps) =>
        ok(page, '/routings/', {
          method: 'POST',
          json: { product_id: product.id, operations: steps.map((s) => ({ operation_code: s.code, operation_name: s.name, work_center_id: s.center.id, setup_minutes: s.setup, run_minutes: s.run })) },
        });
      const r1 = await routing(enclosure, [
        { code: 'PRINT', name: 'Print', center: pool, setup: '10', run: '30' },
        { code: 'PACK', name: 'Pack', center: pack, setup: '0', run: '3' },
      ]);
      const stepMaterial = (stepId, component, quantity, unit) =>
        ok(page, `/routings/operations/${stepId}/materials`, { method: 'POST', json: { component_id: component.id, quantity, ...(unit ? { unit } : {}) } });
      await stepMaterial(r1.operations[0].id, abs, 50, 'G');
      await stepMaterial(r1.operations[1].id, box, 1);
      const r2 = await routing(bracket, [{ code: 'PRINT', name: 'Print', center: pool, setup: '5', run: '20' }]);
      await stepMaterial(r2.operations[0].id, pacf, 30, 'G');

      // Four enclosures: 200 g ABS, 4 boxes (1 on hand), print and pack.
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: enclosure.id, quantity_ordered: '4', due_date: '2030-06-01' } });
      await ok(page, `/production-orders/${wo.id}/release`, { method: 'POST' });

      // ---------------------------------------------------------------- the Cost tab
      shot = 'order-cost-tab';
      await page.goto(`/admin/production/${wo.id}`);
      await page.locator('.wo-badges').getByText('Released', { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'Cost' }).click();
      assert.match(page.url(), /[?&]tab=cost/);
      const variance = page.getByRole('table', { name: 'Cost variance' });
      await variance.waitFor();
      const chart = page.getByRole('img', { name: /Estimated against actual cost of/ });
      await chart.waitFor();
      // Two series of three bars each.
      await chart.locator('.recharts-bar-rectangle').nth(5).waitFor();
      assert.equal(await chart.locator('.recharts-bar-rectangle').count(), 6, 'estimated and actual for material, machine & labour, total');
      const cost = await ok(page, `/production-orders/${wo.id}/cost-breakdown`);
      const money = (v) => `$${Number(v).toFixed(2)}`;
      const totalRow = variance.getByRole('row', { name: /^Total/ });
      await totalRow.getByText(money(cost.actual.total), { exact: true }).first().waitFor();
      // Material 4.00 (200 g at 0.02) + 2.00 boxes; print 10 + 4 x 30 min at 6/h = 13, pack 12 min at 20/h = 4.
      assert.ok(Math.abs(Number(cost.actual.material) - 6) < 1e-9, JSON.stringify(cost));
      assert.ok(Math.abs(Number(cost.actual.labor) - 17) < 1e-9, JSON.stringify(cost));
      await page.getByRole('table', { name: 'Material costs' }).getByText(`MAT-ABS-${RUN}`).waitFor();
      await page.getByRole('table', { name: 'Operation costs' }).getByText('$6.00/h').waitFor();
      await screenshot(page, 'order-cost-tab');

      // Re-estimate: asked first, then stored on the order.
      shot = 'order-cost-reestimate';
      await page.getByRole('button', { name: 'Re-estimate' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByText(`Re-estimate ${wo.code}?`).waitFor();
      await screenshot(page, 'order-cost-reestimate-confirm');
      await confirm.getByRole('button', { name: 'Re-estimate' }).click();
      await toast(page, 'Estimate updated');
      await confirm.waitFor({ state: 'detached' });
      const estimated = await ok(page, `/production-orders/${wo.id}`);
      assert.ok(Math.abs(Number(estimated.estimated_material_cost) - 6) < 1e-9, `the estimate is stored: ${estimated.estimated_material_cost}`);
      assert.ok(Math.abs(Number(estimated.estimated_total_cost) - 23) < 1e-9, `the estimate is stored: ${estimated.estimated_total_cost}`);
      await page.locator('.stat', { hasText: 'Estimated cost' }).getByText('$23.00').waitFor();
      await totalRow.getByText('$0.00', { exact: true }).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'order-cost-reestimated');

      // ---------------------------------------------------------------- availability
      shot = 'order-availability';
      await page.getByRole('tab', { name: 'Overview' }).click();
      const avail = page.getByRole('table', { name: 'Material availability' });
      await avail.waitFor();
      await avail.getByRole('row', { name: new RegExp(`MAT-ABS-${RUN}`) }).getByText('Available', { exact: true }).waitFor();
      await avail.getByRole('row', { name: new RegExp(`BOX-${RUN}`) }).getByText('Short', { exact: true }).waitFor();
      await avail.getByRole('rowheader', { name: 'Print' }).waitFor();
      await avail.getByRole('rowheader', { name: 'Pack' }).waitFor();

      // ---------------------------------------------------------------- printers
      shot = 'order-printer-incompatible';
      const picker = page.getByRole('combobox', { name: 'Printer for Print' });
      await picker.selectOption(String(a1.id));
      const why = page.getByRole('list', { name: `Why A1-${RUN} cannot print this` });
      await why.getByText(`A1-${RUN}: ABS needs an enclosed printer`).waitFor();
      const startStep = page.locator('.wo-step', { hasText: 'Print' }).first().getByRole('button', { name: 'Start step' });
      assert.equal(await startStep.isDisabled(), true, 'an incompatible printer blocks the start');
      await why.scrollIntoViewIfNeeded();
      await screenshot(page, 'order-printer-incompatible');
      await picker.selectOption(String(x1.id));
      await page.getByText(`X1-${RUN} can print this order’s materials.`).waitFor();
      assert.equal(await startStep.isDisabled(), false, 'a compatible printer may start');
      await screenshot(page, 'order-printer-compatible');

      // The print runs on the X1 and finishes at once: its machine time comes in under the
      // estimate, which the Cost tab shows in green.
      shot = 'order-cost-variance';
      await startStep.click();
      await toast(page, 'Operation updated');
      const running = await ok(page, `/production-orders/${wo.id}`);
      assert.equal(running.operations[0].status, 'running');
      assert.equal(running.operations[0].resource_id, x1.id, 'the print runs on the printer picked');
      await dismissToasts(page);
      await page.locator('.wo-step', { hasText: 'Print' }).first().getByRole('button', { name: 'Finish step' }).click();
      await toast(page, 'Operation updated');
      await dismissToasts(page);
      await page.getByRole('tab', { name: 'Cost' }).click();
      const after = await ok(page, `/production-orders/${wo.id}/cost-breakdown`);
      assert.ok(Number(after.variance.labor) < 0, `the print took less than planned: ${JSON.stringify(after.variance)}`);
      const labourRow = page.getByRole('table', { name: 'Cost variance' }).getByRole('row', { name: /^Machine & labour/ });
      await labourRow.locator('.cost-variance--under').first().waitFor();
      await screenshot(page, 'order-cost-variance');
      // At tablet width the chart and the table stack.
      await page.setViewportSize(TABLET);
      await labourRow.waitFor();
      await screenshot(page, 'order-cost-variance-tablet');
      await page.setViewportSize(DESKTOP);
      await page.getByRole('tab', { name: 'Overview' }).click();

      // ---------------------------------------------------------------- a warning on a booked printer
      shot = 'order-printer-warning';
      const wo2 = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: bracket.id, quantity_ordered: '2', due_date: '2030-06-01' } });
      const released = await ok(page, `/production-orders/${wo2.id}/release`, { method: 'POST' });
      const start = new Date(Date.UTC(2030, 4, 20, 9, 0)).toISOString();
      const booked = await pageApi(page, `/production-orders/${wo2.id}/operations/${released.operations[0].id}/reschedule`, {
        method: 'POST',
        json: { resource_id: x1.id, is_printer: true, scheduled_start: start },
      });
      assert.equal(booked.status, 200, JSON.stringify(booked.body));
      assert.equal(booked.body.success, true, `booked on the X1: ${JSON.stringify(booked.body)}`);
      await page.goto(`/admin/production/${wo2.id}`);
      const summary = page.getByRole('status', { name: 'Printer compatibility' });
      await summary.getByText('1 warning on the printers chosen').waitFor();
      const finding = page.getByRole('list', { name: 'Compatibility of Print' }).locator('.compat-item--warning').filter({ hasText: 'is abrasive' });
      await finding.waitFor();
      assert.match(await finding.innerText(), /hardened nozzle/);
      await screenshot(page, 'order-printer-warning');

      // A draft has nothing to cost yet: the Cost tab says so and offers no estimate.
      shot = 'order-cost-empty';
      const draft = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: bracket.id, quantity_ordered: '1' } });
      await page.goto(`/admin/production/${draft.id}?tab=cost`);
      await page.getByRole('heading', { name: 'No cost known yet' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Re-estimate' }).count(), 0, 'a draft cannot be estimated');
      await screenshot(page, 'order-cost-empty');

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
