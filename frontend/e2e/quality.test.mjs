// Quality management in the browser against a real Strata server. Seeded through the API: a
// bracket printed in a printer pool and checked at a QC bench (its routing). Then, in the
// page: the quality policy set to full mode with the gate blocking (Settings → Quality); a
// quality plan with a measured wall thickness and a judged surface, first refused by the
// form (limits upside down, a code used twice); an order completed through the API; its
// inspection with the wall out of spec, refused in red by the gate, then fixed and passed;
// a photo refused (not an image) and then uploaded and shown; the inspection in the order's
// history; and the quality dashboard with its key figures, trend and scrap charts and its
// queue. Screenshots go to test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- quality
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, DESKTOP, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** A PNG drawn in the page (a test print with a caliper reading), as bytes. */
async function testImage(page) {
  const dataUrl = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 360;
    const g = c.getContext('2d');
    const grad = g.createLinearGradient(0, 0, 480, 360);
    grad.addColorStop(0, '#dbeafe');
    grad.addColorStop(1, '#c7d2fe');
    g.fillStyle = grad;
    g.fillRect(0, 0, 480, 360);
    g.fillStyle = '#334155';
    g.fillRect(120, 110, 240, 140);
    g.fillStyle = '#f8fafc';
    g.font = 'bold 28px sans-serif';
    g.fillText('WALL 2.05 mm', 150, 190);
    return c.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

describe('quality: policy, plans, inspections with the gate, photos and the dashboard, with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('full mode with a blocking gate, a plan, a refused and a passed inspection, a photo, the dashboard', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'quality-seed';
    let passed = false;
    try {
      await signIn(page);
      // The default policy (the server may have run other flows first).
      await ok(page, '/system/settings/quality_mode', { method: 'PUT', json: { value: 'basic' } });
      await ok(page, '/system/settings/quality_gate_action', { method: 'PUT', json: { value: 'warn' } });
      const product = await ok(page, '/items', { method: 'POST', json: { sku: `BRKT-Q-${RUN}`, name: `Bracket ${RUN}`, item_type: 'finished_good', unit: 'EA' } });
      const pool = await ok(page, '/work-centers/', { method: 'POST', json: { code: `QPOOL-${RUN}`, name: `Pool ${RUN}`, center_type: 'printer_pool', hourly_rate: '6' } });
      const bench = await ok(page, '/work-centers/', { method: 'POST', json: { code: `QC-${RUN}`, name: `QC bench ${RUN}`, center_type: 'qc', hourly_rate: '20' } });
      // A clip per bracket, so work in progress (and scrap) has a cost.
      const clip = await ok(page, '/items', { method: 'POST', json: { sku: `CLIP-Q-${RUN}`, name: `Clip ${RUN}`, item_type: 'component', unit: 'EA' } });
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: clip.id, transaction_type: 'receipt', quantity: '100', cost_per_unit: '1.25' } });
      const routing = await ok(page, '/routings/', {
        method: 'POST',
        json: {
          product_id: product.id,
          operations: [
            { operation_code: 'PRINT', operation_name: 'Print', work_center_id: pool.id, run_time_minutes: 30 },
            { operation_code: 'QC', operation_name: 'Inspect', work_center_id: bench.id, run_time_minutes: 2 },
          ],
        },
      });

      await ok(page, `/routings/operations/${routing.operations[0].id}/materials`, { method: 'POST', json: { component_id: clip.id, quantity: 1 } });

      // ---------------------------------------------------------------- the policy
      shot = 'quality-settings';
      await page.goto('/admin/settings');
      const card = page.getByRole('region', { name: 'Quality' });
      await card.getByRole('radio', { name: /^Basic/ }).waitFor();
      assert.equal(await card.getByRole('radio', { name: /^Block/ }).isDisabled(), true, 'the gate is for full mode only');
      await card.getByRole('radio', { name: /^Full/ }).check();
      await card.getByRole('radio', { name: /^Block/ }).check();
      await card.getByRole('button', { name: 'Save quality policy' }).click();
      await toast(page, 'Quality policy saved');
      const policy = await ok(page, '/quality/policy');
      assert.equal(policy.mode, 'full');
      assert.equal(policy.gate_action, 'block');
      assert.equal(policy.plan_driven, true);
      await dismissToasts(page);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'quality-settings');

      // ---------------------------------------------------------------- a plan
      shot = 'quality-plan';
      await page.goto('/admin/quality/plans');
      await page.getByRole('heading', { name: 'Quality Plans', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New plan' }).first().click();
      const editor = page.getByRole('dialog', { name: 'New quality plan' });
      await editor.getByRole('textbox', { name: 'Code', exact: true }).fill(`QP-${RUN}`);
      await editor.getByRole('textbox', { name: 'Name', exact: true }).fill('Bracket inspection');
      await editor.getByLabel('Product').selectOption(String(product.id));
      const add = editor.getByRole('button', { name: 'Add characteristic' });
      await add.click();
      await add.click();
      const chars = editor.getByRole('table', { name: 'Characteristics' });
      await chars.getByLabel('Code of row 1').fill('WALL');
      await chars.getByLabel('Characteristic of row 1').fill('Wall thickness');
      await chars.getByLabel('Nominal of row 1').fill('2.0');
      await chars.getByLabel('Lower limit of row 1').fill('2.2');
      await chars.getByLabel('Upper limit of row 1').fill('1.8');
      await chars.getByLabel('Unit of row 1').fill('mm');
      await chars.getByLabel('Code of row 2').fill('WALL');
      await chars.getByLabel('Characteristic of row 2').fill('Surface');
      await chars.getByLabel('Type of row 2').selectOption('attribute');
      await chars.getByLabel('Acceptance criteria of row 2').fill('No stringing or blobs');
      await chars.getByLabel('Severity of row 2').selectOption('minor');
      await chars.getByLabel('Routing step of row 1').selectOption({ label: 'PRINT · Print' });
      await editor.getByRole('button', { name: 'Create plan' }).click();
      await chars.getByText('The lower limit cannot be above the upper.').waitFor();
      assert.equal(await chars.getByText('Code WALL is used twice.').count(), 2, 'both rows with the code are marked');
      await screenshot(page, 'quality-plan-refused');
      await chars.getByLabel('Lower limit of row 1').fill('1.8');
      await chars.getByLabel('Upper limit of row 1').fill('2.2');
      await chars.getByLabel('Code of row 2').fill('SURF');
      // Reorder and back: the surface first, then the wall again.
      await chars.getByRole('button', { name: 'Move row 2 up' }).click();
      assert.equal(await chars.getByLabel('Code of row 1').inputValue(), 'SURF');
      await chars.getByRole('button', { name: 'Move row 1 down' }).click();
      assert.equal(await chars.getByLabel('Code of row 1').inputValue(), 'WALL');
      await screenshot(page, 'quality-plan-editor');
      await editor.getByRole('button', { name: 'Create plan' }).click();
      await toast(page, 'Plan created');
      await editor.waitFor({ state: 'detached' });
      const plans = page.getByRole('table', { name: 'Quality plans' });
      const row = plans.getByRole('row', { name: new RegExp(`QP-${RUN}`) });
      await row.getByText(`BRKT-Q-${RUN}`).waitFor();
      await row.getByText('Active', { exact: true }).waitFor();
      assert.match(await row.innerText(), /\b2\b/, 'two characteristics');
      const plan = await ok(page, `/quality-plans/active?product_id=${product.id}`);
      assert.deepEqual(
        plan.characteristics.map((c) => [c.code, c.characteristic_type, c.lower_limit === null ? null : Number(c.lower_limit), c.upper_limit === null ? null : Number(c.upper_limit)]),
        [
          ['WALL', 'variable', 1.8, 2.2],
          ['SURF', 'attribute', null, null],
        ],
      );
      await dismissToasts(page);
      await screenshot(page, 'quality-plans');

      // ---------------------------------------------------------------- an order to inspect
      shot = 'quality-order';
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: product.id, quantity_ordered: '4' } });
      await ok(page, `/production-orders/${wo.id}/release`, { method: 'POST' });
      await ok(page, `/production-orders/${wo.id}/start`, { method: 'POST' });
      await ok(page, `/production-orders/${wo.id}/complete`, { method: 'POST', json: { quantity_completed: '4' } });

      shot = 'quality-inspection-refused';
      await page.goto(`/admin/production/${wo.id}`);
      await page.getByRole('heading', { name: 'No inspections yet' }).waitFor();
      await page.getByRole('button', { name: 'Record QC' }).click();
      const qc = page.getByRole('dialog', { name: `Quality check of ${wo.code}` });
      const measures = qc.getByRole('table', { name: 'Measurements' });
      const wall = measures.getByLabel('Measured WALL Wall thickness');
      await wall.fill('2.6');
      await measures.getByRole('row', { name: /WALL/ }).getByText('Out of spec', { exact: true }).waitFor();
      await measures.getByRole('radiogroup', { name: 'SURF Surface conforms' }).getByLabel('Yes').check();
      await measures.getByRole('row', { name: /SURF/ }).getByText('Conforms', { exact: true }).waitFor();
      await qc.getByRole('button', { name: 'Record inspection' }).click();
      const refusal = qc.locator('.alert--error');
      await refusal.getByText(`Inspection does not satisfy plan QP-${RUN}: 1 out of spec/nonconforming (WALL)`).waitFor();
      const history = await ok(page, `/production-orders/${wo.id}/qc-inspections`);
      assert.equal(history.total, 0, 'a refused inspection records nothing');
      await screenshot(page, 'quality-inspection-refused');

      shot = 'quality-inspection-passed';
      await wall.fill('2.05');
      await measures.getByRole('row', { name: /WALL/ }).getByText('In spec', { exact: true }).waitFor();
      await qc.getByLabel('Notes').fill('Caliper at three points');
      await screenshot(page, 'quality-inspection-in-spec');
      await qc.getByRole('button', { name: 'Record inspection' }).click();
      await toast(page, 'QC recorded');
      const photos = page.getByRole('dialog', { name: 'Inspection recorded' });
      await photos.getByText('No photos yet').waitFor();

      // ---------------------------------------------------------------- a photo
      shot = 'quality-photo';
      const file = photos.getByLabel('Photo', { exact: true });
      await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
      await photos.getByText('notes.txt is not a PNG, JPEG, WebP or GIF image.').waitFor();
      await file.setInputFiles({ name: 'wall.png', mimeType: 'image/png', buffer: await testImage(page) });
      await photos.getByLabel('Caption').fill('Wall at the bracket foot');
      await photos.getByRole('button', { name: 'Upload' }).click();
      await toast(page, 'Photo added');
      const img = photos.getByRole('list', { name: 'Photos' }).getByRole('img', { name: 'Wall at the bracket foot' });
      await img.waitFor();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
      await dismissToasts(page);
      await screenshot(page, 'quality-photo');
      await photos.getByRole('button', { name: 'Done' }).click();

      // The order's history: passed, with its measurements judged.
      shot = 'quality-history';
      const list = page.getByRole('list', { name: 'Inspections' });
      const item = list.getByRole('listitem', { name: 'Inspection 1: passed' });
      await item.getByText('Passed', { exact: true }).waitFor();
      await item.getByRole('row', { name: /WALL/ }).getByText('In spec', { exact: true }).waitFor();
      await item.getByText('Caliper at three points').waitFor();
      await page.locator('.wo-badges').getByText('QC passed').waitFor();
      await item.scrollIntoViewIfNeeded();
      await screenshot(page, 'quality-history');

      // ---------------------------------------------------------------- the dashboard
      // A second order waits for QC, with one unit scrapped for a layer shift.
      shot = 'quality-dashboard';
      // Priority 1 and long overdue: first in the queue whatever else waits there.
      const wo2 = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: product.id, quantity_ordered: '2', priority: 1, due_date: '2020-01-02' } });
      await ok(page, `/production-orders/${wo2.id}/release`, { method: 'POST' });
      await ok(page, `/production-orders/${wo2.id}/start`, { method: 'POST' });
      await ok(page, `/production-orders/${wo2.id}/complete`, {
        method: 'POST',
        json: { quantity_completed: '1', quantity_scrapped: '1', scrap_reason: 'layer_shift', force_close_short: true },
      });
      const metrics = await ok(page, '/quality/metrics?days=30');
      assert.ok(metrics.passed >= 1 && metrics.pending_inspections >= 1 && metrics.total_scrapped_cost > 0, JSON.stringify(metrics));
      await page.goto('/admin/quality');
      await page.getByTestId('kpi-fpy').getByText(`${Number(metrics.first_pass_yield.toFixed(1))}%`).waitFor();
      await page.getByTestId('kpi-pending').getByText(String(metrics.pending_inspections), { exact: true }).waitFor();
      const trend = page.getByRole('img', { name: /^Quality trend in the last 30 days/ });
      await trend.locator('.recharts-line-dot').first().waitFor();
      const scrap = page.getByRole('img', { name: /^Scrap by reason/ });
      await scrap.locator('.recharts-bar-rectangle').first().waitFor();
      const queue = page.getByRole('table', { name: 'Inspection queue' });
      await queue.getByText(wo2.code).waitFor();
      await page.getByRole('list', { name: 'Recent verdicts' }).getByText(wo.code).waitFor();
      await screenshot(page, 'quality-dashboard');
      await page.getByRole('radio', { name: '7 days' }).click();
      await page.waitForURL(/[?&]days=7/);
      await page.getByRole('img', { name: /^Quality trend in the last 7 days/ }).waitFor();
      await page.setViewportSize(TABLET);
      await screenshot(page, 'quality-dashboard-tablet');
      await page.setViewportSize(DESKTOP);
      // A queued order opens its page.
      await queue.getByText(wo2.code).click();
      await page.waitForURL(new RegExp(`/admin/production/${wo2.id}$`));
      await page.getByRole('button', { name: 'Record QC' }).waitFor();

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
