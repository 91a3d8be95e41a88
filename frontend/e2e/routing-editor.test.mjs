// The routing editor in the browser against a real Strata server: a product, a material,
// a work center and a one-step routing are seeded through the API; then, on the
// Manufacturing page's Routings tab, a step is added through its form, a material is put
// on a step (and the same component again is refused with the server's 409 sentence), the
// steps are reordered with the arrow buttons and by dragging a row, the standard templates
// are seeded (first refused with the server's 400 while their work centers are missing,
// when they are) and one is applied with a print time. What the page shows is checked
// against the API. Screenshots go to test-results/screenshots.
//
// It runs on the same server as api.test.mjs (which creates the administrator first) or on
// a fresh one of its own:
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- routing-editor
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();
/** The work centers the standard templates need (POST /routings/seed-templates). */
const TEMPLATE_CENTERS = [
  ['FDM-POOL', 'FDM printer pool', 'printer_pool'],
  ['QC', 'Quality control', 'qc'],
  ['ASSEMBLY', 'Assembly bench', 'assembly'],
  ['SHIPPING', 'Shipping', 'packing'],
];
/** Reads until it gives `expected` (10 s at most), then asserts the last reading. */
async function eventually(read, expected, what) {
  const until = Date.now() + 10_000;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 200));
    last = await read();
  }
  assert.deepEqual(last, expected, what);
}
const money = (v) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(Number(v));

let browser;

describe('routing editor with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('steps one by one, a material, reorder by buttons and drag, templates seeded and applied', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'routing-editor-seed';
    let passed = false;
    try {
      await signIn(page);

      // Seeded through the API: a product, a material with a cost, a work center, a routing with one step.
      const product = await ok(page, '/items', { method: 'POST', json: { sku: `RTE-${RUN}`, name: `Routed widget ${RUN}`, item_type: 'finished_good', unit: 'EA' } });
      const pla = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `RTE-PLA-${RUN}`, name: `PLA for routing ${RUN}`, item_type: 'material', unit: 'G', standard_cost: '0.02' },
      });
      const center = await ok(page, '/work-centers/', { method: 'POST', json: { code: `RTE-${RUN}`, name: `Print bay ${RUN}`, center_type: 'printer_pool', hourly_rate: '30.00' } });
      const seeded = await ok(page, '/routings/', {
        method: 'POST',
        json: {
          product_id: product.id,
          operations: [{ operation_code: 'PRINT', operation_type: 'FDM_PRINT', operation_name: 'Print', work_center_id: center.id, setup_minutes: '5', run_minutes: '30' }],
        },
      });
      const steps = async () => (await ok(page, `/routings/${seeded.id}/operations`)).map((s) => [s.operation_code, s.sequence]);
      assert.deepEqual(await steps(), [['PRINT', 10]]);

      // The editor shows the seeded step and the routing's totals.
      shot = 'routing-editor-open';
      await page.goto('/admin/manufacturing?tab=routings');
      await page.getByRole('heading', { name: 'Routings', exact: true }).waitFor();
      await page.getByLabel('Product', { exact: true }).selectOption(String(product.id));
      const table = page.getByRole('table', { name: 'Steps' });
      const row = (code) => page.getByTestId('routing-step').filter({ has: page.getByRole('cell', { name: code, exact: true }) });
      await row('PRINT').waitFor();
      const codes = () => table.getByTestId('routing-step').locator('td.mono').allTextContents();
      await page.getByTestId('routing-total-time').getByText('35 min').waitFor();

      // A step added through its form: a QC inspection.
      shot = 'routing-editor-add-step';
      await page.getByRole('button', { name: 'Add step' }).click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel('Operation type').selectOption('QUALITY_CONTROL');
      assert.equal(await dialog.getByLabel('Name', { exact: true }).inputValue(), 'Quality Control', 'the name follows the type');
      await dialog.getByLabel('Code', { exact: true }).fill('QC');
      await dialog.getByLabel(/^Work center/).selectOption(String(center.id));
      await dialog.getByLabel('Run minutes').fill('3');
      await screenshot(page, 'routing-editor-add-step');
      await dialog.getByRole('button', { name: 'Add step' }).click();
      await toast(page, 'Step added');
      await row('QC').waitFor();
      assert.deepEqual(await steps(), [
        ['PRINT', 10],
        ['QC', 20],
      ]);
      await page.getByTestId('routing-total-time').getByText('38 min').waitFor();

      // A material on the print step; the same component again is a 409 shown in the form.
      shot = 'routing-editor-material';
      await row('PRINT').getByRole('button', { name: 'Materials of PRINT' }).click();
      const panel = page.getByRole('region', { name: 'Materials of PRINT' });
      await panel.getByText('No materials on this step').waitFor();
      const addPla = async () => {
        await panel.getByRole('button', { name: 'Add material' }).click();
        dialog = page.getByRole('dialog');
        await dialog.getByLabel('Find components').fill(pla.sku);
        await dialog.locator(`option[value="${pla.id}"]`).waitFor({ state: 'attached' });
        await dialog.getByLabel(/^Component/).selectOption(String(pla.id));
        await dialog.getByLabel(/^Quantity/).fill('50');
        await dialog.getByRole('button', { name: 'Add material' }).click();
      };
      await addPla();
      await toast(page, 'Material added');
      const lines = panel.getByRole('table', { name: 'Materials of PRINT' });
      await lines.getByText(pla.sku, { exact: true }).waitFor();
      const [line] = await ok(page, `/routings/operations/${seeded.operations[0].id}/materials`);
      assert.equal(line.component_id, pla.id);
      assert.equal(Number(line.quantity), 50);
      assert.equal(line.unit, 'G', "the component's stocking unit");
      await panel.getByTestId('material-cost').getByText(money(line.extended_cost)).waitFor();
      await addPla();
      await dialog.getByText('This material is already on this operation; change the quantity of that line instead').waitFor();
      await screenshot(page, 'routing-editor-material-duplicate');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const routingNow = await ok(page, `/routings/${seeded.id}`);
      await page.getByTestId('routing-total-cost').getByText(money(routingNow.total_cost)).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'routing-editor-materials');

      // Reorder: QC up with its button, then PRINT back to the top by dragging its row.
      shot = 'routing-editor-reorder';
      await row('QC').getByRole('button', { name: 'Move QC up' }).click();
      await eventually(steps, [
        ['QC', 10],
        ['PRINT', 20],
      ], 'the arrow PUTs the new sequence numbers');
      await eventually(codes, ['QC', 'PRINT'], 'the table shows the new order');
      await row('PRINT').getByRole('button', { name: 'Move PRINT up' }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"] table[aria-label="Steps"]'));
      await row('PRINT').dragTo(row('QC'));
      await eventually(steps, [
        ['PRINT', 10],
        ['QC', 20],
      ], 'dropping PRINT on QC puts it first');
      await eventually(codes, ['PRINT', 'QC'], 'the table shows the dragged order');
      await screenshot(page, 'routing-editor-reordered');

      // Templates: seeded from the page (refused first while their work centers are missing),
      // then the standard flow applied with the product's print time.
      shot = 'routing-editor-templates';
      const templates = await ok(page, '/routings/?templates_only=true');
      if (templates.length === 0) {
        const seed = page.getByRole('button', { name: 'Seed standard templates' });
        const centers = await ok(page, '/work-centers/?active_only=false');
        const missing = TEMPLATE_CENTERS.filter(([code]) => !centers.some((w) => w.code === code));
        if (missing.length > 0) {
          await seed.click();
          await page.getByText(`Missing required work centers: ${missing.map(([code]) => code).join(', ')}. Please create them first.`).waitFor();
          await screenshot(page, 'routing-editor-seed-refused');
          for (const [code, name, center_type] of missing)
            await ok(page, '/work-centers/', { method: 'POST', json: { code, name, center_type, hourly_rate: '20.00' } });
        }
        await seed.click();
        await toast(page, 'Templates seeded');
        await seed.waitFor({ state: 'detached' });
      } else {
        console.log(`# ${templates.length} templates exist already: seeding is not exercised`);
      }
      const apply = page.getByRole('button', { name: 'Apply template' });
      await page.waitForFunction(() => {
        const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === 'Apply template');
        return b && !b.disabled;
      });
      await apply.click();
      dialog = page.getByRole('dialog');
      await dialog.getByText('The 2 steps of').waitFor();
      await dialog.getByLabel(/^Template/).selectOption({ label: 'TPL-STANDARD · Standard Flow' });
      await dialog.getByLabel('Print time (minutes per unit)').fill('42');
      await screenshot(page, 'routing-editor-apply-template');
      await dialog.getByRole('button', { name: 'Apply template' }).click();
      await toast(page, 'Template applied');
      await row('SHIP').waitFor();
      await eventually(codes, ['PRINT', 'QC', 'PACK', 'SHIP'], "the template's steps replace the routing's");
      const applied = await ok(page, `/routings/${seeded.id}/operations`);
      assert.deepEqual(
        applied.map((s) => [s.operation_code, Number(s.run_time_minutes), s.runtime_source]),
        [
          ['PRINT', 42, 'slicer'],
          ['QC', 2, 'manual'],
          ['PACK', 2, 'manual'],
          ['SHIP', 3, 'manual'],
        ],
      );
      await row('PRINT').getByText('slicer').waitFor();
      const after = await ok(page, `/routings/${seeded.id}`);
      const minutes = Number(after.total_setup_time_minutes) + Number(after.total_run_time_minutes);
      await page.getByTestId('routing-total-time').getByText(`${minutes} min`).waitFor();
      await page.getByTestId('routing-total-cost').getByText(money(after.total_cost)).waitFor();
      await dismissToasts(page);
      shot = 'routing-editor';
      await screenshot(page, 'routing-editor');

      // The same editor at tablet width.
      await page.setViewportSize(TABLET);
      await row('PRINT').getByRole('button', { name: 'Materials of PRINT' }).click();
      await screenshot(page, 'routing-editor-tablet');
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
