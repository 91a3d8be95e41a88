// Item variants in the browser against a real Strata server. Seeded through the API: two
// material types of this run (PLA in black, red, white and blue, PETG in black, red and
// white, imported as material items) and a gold PLA colour with no material item; a toy
// whose routing prints its body in PLA black and its cap in PETG black, both marked
// Variable, then packs it in a box. Then, in the page: a plain item's Variants tab explains
// how to get a matrix and links to the routing editor; the toy's matrix (PLA and PETG rows,
// colours as columns, gold disabled with why); a 2 x 3 block picked by its columns and made
// in one request, with its summary; the cells linking to the variants; the routing changed,
// the sync previewed (each variant's change listed) and applied; a variant with stock
// refused deletion (409 shown), another deleted; and a production order whose material is
// the toy, swapped for a variant with its stock shown. Screenshots go to
// test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- variants
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { API_URL, HAS_API, SCREENSHOT_DIR, TABLET, DESKTOP, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, pageApi, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();
const R = RUN.slice(-4);

let browser;

/** A dialog over the items list: the window as seen (the list behind it is pages long). */
async function dialogShot(page, name) {
  await screenshot(page, name); // makes the folder
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

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
  const item = (found.items ?? []).find((i) => i.sku === sku);
  assert.ok(item, `item ${sku}: ${JSON.stringify(found).slice(0, 400)}`);
  return item;
}

describe('item variants: matrix, bulk create, routing sync, delete and an order material swap, with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('a 2 x 3 block of variants made, their routing synced after a preview, one deleted, one used by an order', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'variants-seed';
    let passed = false;
    try {
      await signIn(page);

      // ---------------------------------------------------------------- seed
      const pla = `PLA-${R}`;
      const petg = `PETG-${R}`;
      const colours = { Black: '#1F2328', Red: '#D7263D', White: '#F4F4F0', Blue: '#2563EB' };
      const row = (type, colour) => `${type},MAT-${type}-${colour.toUpperCase()},${type} ${colour},${type},${colour},${colours[colour]},kg,Active,22,1000`;
      await importMaterials(page, [...['Black', 'Red', 'White', 'Blue'].map((c) => row(pla, c)), ...['Black', 'Red', 'White'].map((c) => row(petg, c))]);
      const plaBlack = await itemBySku(page, `MAT-${pla}-BLACK`);
      const petgBlack = await itemBySku(page, `MAT-${petg}-BLACK`);
      const types = await ok(page, '/materials/types');
      const plaType = types.materials.find((t) => t.name === pla || t.code === pla.replace('-', '_'));
      assert.ok(plaType, `the PLA type of this run: ${JSON.stringify(types).slice(0, 400)}`);
      // Gold PLA: a colour of the type, but no material item in it.
      await ok(page, `/materials/types/${plaType.code}/colors`, { method: 'POST', json: { name: 'Gold', code: `GOLD${R}`, hex_code: '#D4A017' } });

      const item = (sku, item_type, unit) => ok(page, '/items', { method: 'POST', json: { sku, name: `${sku} (e2e)`, item_type, unit } });
      const box = await item(`BOX-V${R}`, 'supply', 'EA');
      const toy = await ok(page, '/items', { method: 'POST', json: { sku: `TOY-${R}`, name: `Rocket toy ${R}`, item_type: 'finished_good', unit: 'EA', selling_price: '14.00' } });
      const plain = await item(`PLAIN-${R}`, 'finished_good', 'EA');
      await ok(page, '/admin/bom/', {
        method: 'POST',
        json: { product_id: toy.id, lines: [{ component_id: plaBlack.id, quantity: '40', unit: 'G' }, { component_id: petgBlack.id, quantity: '10', unit: 'G' }, { component_id: box.id, quantity: '1' }] },
      });
      const pool = await ok(page, '/work-centers/', { method: 'POST', json: { code: `VPOOL-${R}`, name: `Pool ${R}`, center_type: 'printer_pool', hourly_rate: '6' } });
      const pack = await ok(page, '/work-centers/', { method: 'POST', json: { code: `VPACK-${R}`, name: `Pack ${R}`, center_type: 'packing', hourly_rate: '20' } });
      const routing = await ok(page, '/routings/', {
        method: 'POST',
        json: {
          product_id: toy.id,
          operations: [
            { operation_code: 'PRINT', operation_name: 'Print body', work_center_id: pool.id, run_time_minutes: 30 },
            { operation_code: 'CAP', operation_name: 'Print cap', work_center_id: pool.id, run_time_minutes: 8 },
            { operation_code: 'PACK', operation_name: 'Pack', work_center_id: pack.id, run_time_minutes: 2 },
          ],
        },
      });
      const [printBody, printCap, packing] = routing.operations;
      const stepMaterial = (step, json) => ok(page, `/routings/operations/${step.id}/materials`, { method: 'POST', json });
      await stepMaterial(printBody, { component_id: plaBlack.id, quantity: 40, unit: 'G', is_variable: true });
      await stepMaterial(printCap, { component_id: petgBlack.id, quantity: 10, unit: 'G', is_variable: true });
      await stepMaterial(packing, { component_id: box.id, quantity: 1 });

      // ---------------------------------------------------------------- no variable material
      shot = 'variants-empty';
      await page.goto(`/admin/items?item=${plain.id}&tab=variants`);
      const dialog = page.getByRole('dialog', { name: 'Edit item' });
      await dialog.getByRole('heading', { name: 'No variable material yet' }).waitFor();
      await dialog.getByText('mark a material of this item’s routing as', { exact: false }).waitFor();
      await dialogShot(page, 'variants-empty');
      await dialog.getByRole('link', { name: 'Open the routing editor' }).click();
      await page.waitForURL(/\/admin\/manufacturing\?tab=routings&product=\d+/);
      await page.getByRole('combobox', { name: 'Product' }).locator(`option[value="${plain.id}"]`).waitFor({ state: 'attached' });
      assert.equal(await page.getByRole('combobox', { name: 'Product' }).inputValue(), String(plain.id), 'the routing editor opens on the item');
      await page.getByRole('button', { name: 'Create routing' }).or(page.getByText('has no routing', { exact: false })).first().waitFor();
      await screenshot(page, 'variants-routing-editor');

      // ---------------------------------------------------------------- the matrix
      shot = 'variants-matrix';
      await page.goto(`/admin/items?item=${toy.id}`);
      await dialog.getByRole('tab', { name: 'Details' }).waitFor();
      await dialog.getByRole('tab', { name: 'Variants' }).click();
      assert.match(page.url(), /[?&]tab=variants/);
      const matrix = dialog.getByRole('table', { name: 'Variant matrix' });
      await matrix.waitFor();
      const plaCode = plaType.code;
      const petgCode = (await ok(page, `/items/${toy.id}/variant-matrix`)).available_combos.find((c) => c.material_type_name === petg || c.material_type_code !== plaCode)?.material_type_code;
      assert.ok(petgCode, 'the PETG type is a row');
      await matrix.getByRole('rowheader', { name: new RegExp(plaCode) }).waitFor();
      await matrix.getByRole('rowheader', { name: new RegExp(petgCode) }).waitFor();
      const gold = matrix.getByRole('checkbox', { name: `${plaCode} Gold: no material item` });
      assert.equal(await gold.isDisabled(), true, 'gold PLA has no material item');
      assert.match(await gold.locator('xpath=..').getAttribute('title'), /No material item is linked/);
      await dialog.getByText('0 variants', { exact: true }).waitFor();
      await dialogShot(page, 'variants-matrix');

      // A 2 x 3 block: the black, red and white columns.
      shot = 'variants-create';
      for (const c of ['Black', 'Red', 'White']) await matrix.getByRole('checkbox', { name: `Select the ${c} column` }).check();
      await dialog.getByText('6 selected').waitFor();
      assert.equal(await matrix.getByRole('checkbox', { name: `${plaCode} Blue` }).isChecked(), false);
      await dialogShot(page, 'variants-selected');
      await dialog.getByRole('button', { name: 'Create 6 variants' }).click();
      const summary = dialog.getByRole('status', { name: 'Variants created' });
      await summary.getByText('6 created, 0 skipped').waitFor();
      await toast(page, '6 variants created');
      for (const t of [plaCode, petgCode]) for (const c of ['Black', 'Red', 'White']) await matrix.getByRole('link', { name: `${t} ${c}: made, open the variant` }).waitFor();
      const list = dialog.getByRole('table', { name: 'Variants' });
      await list.getByRole('link', { name: `TOY-${R}-${plaCode}-RED` }).waitFor();
      assert.equal(await list.locator('tbody tr').count(), 6);
      await dismissToasts(page);
      await dialogShot(page, 'variants-created');
      const made = await ok(page, `/items/${toy.id}/variants`);
      assert.equal(made.length, 6);
      const plaRed = made.find((v) => v.sku === `TOY-${R}-${plaCode}-RED`);
      const petgWhite = made.find((v) => v.sku === `TOY-${R}-${petgCode}-WHITE`);
      assert.ok(plaRed && petgWhite, JSON.stringify(made));

      // A made cell opens its variant.
      await matrix.getByRole('link', { name: `${plaCode} Red: made, open the variant` }).click();
      await page.waitForURL(new RegExp(`item=${plaRed.id}`));
      await page.getByRole('dialog', { name: 'Edit item' }).getByText(plaRed.sku).first().waitFor();
      await page.goBack();
      await page.waitForURL(new RegExp(`item=${toy.id}`));

      // ---------------------------------------------------------------- routing sync
      shot = 'variants-sync';
      await ok(page, `/routings/operations/${printBody.id}`, { method: 'PUT', json: { run_time_minutes: 45 } });
      await dialog.getByRole('tab', { name: 'Variants' }).click();
      await dialog.getByRole('button', { name: 'Sync routing to variants' }).click();
      const sync = page.getByRole('dialog', { name: 'Sync routing to variants' });
      await sync.getByText('6 of 6 variants would change.', { exact: false }).waitFor();
      const changes = sync.getByRole('list', { name: 'Variants that would change' });
      await changes.getByText(plaRed.sku, { exact: true }).waitFor();
      await changes.getByText(/run 30 min becomes .*run 45 min/).first().waitFor();
      await dialogShot(page, 'variants-sync-preview');
      await sync.getByRole('button', { name: 'Apply to 6 variants' }).click();
      await sync.getByText('6 of 6 variants synced.').waitFor();
      await toast(page, 'Routings synced');
      await dismissToasts(page);
      await dialogShot(page, 'variants-sync-applied');
      await sync.getByRole('button', { name: 'Done' }).click();
      const quiet = await ok(page, `/items/${toy.id}/variants/sync-routing?dry_run=true`, { method: 'POST' });
      assert.ok(quiet.variants.every((v) => v.changes.length === 0), JSON.stringify(quiet));
      // Again: nothing left to sync, every variant listed as in step.
      await dialog.getByRole('button', { name: 'Sync routing to variants' }).click();
      await sync.getByText('All 6 variants already follow the template', { exact: false }).waitFor();
      await sync.getByRole('group', { name: 'Variants already in step' }).getByText(petgWhite.sku).waitFor();
      await sync.getByRole('contentinfo').getByRole('button', { name: 'Close' }).click();

      // ---------------------------------------------------------------- delete
      shot = 'variants-delete';
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: plaRed.id, transaction_type: 'receipt', quantity: '5', cost_per_unit: '3.00' } });
      await page.reload();
      await dialog.getByRole('table', { name: 'Variants' }).waitFor();
      await list.getByRole('row', { name: new RegExp(plaRed.sku) }).getByText('5', { exact: true }).waitFor();
      // With stock it is refused, and the page says why.
      await list.getByRole('button', { name: `Delete ${plaRed.sku}` }).click();
      let confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Delete variant' }).click();
      const refusal = dialog.getByRole('alert').filter({ hasText: 'The variant was not deleted' });
      await refusal.waitFor();
      assert.match(await refusal.innerText(), new RegExp(plaRed.sku));
      await dialogShot(page, 'variants-delete-refused');
      await list.getByRole('button', { name: `Delete ${petgWhite.sku}` }).click();
      confirm = page.getByRole('alertdialog');
      await confirm.getByText(`Delete ${petgWhite.sku}?`).waitFor();
      await confirm.getByRole('button', { name: 'Delete variant' }).click();
      await toast(page, 'Variant deleted');
      await confirm.waitFor({ state: 'detached' });
      await list.getByText(petgWhite.sku).waitFor({ state: 'detached' });
      assert.equal(await list.locator('tbody tr').count(), 5);
      // Its cell can be made again.
      await matrix.getByRole('checkbox', { name: `${petgCode} White` }).waitFor();
      await dismissToasts(page);
      await dialogShot(page, 'variants-deleted');
      await page.setViewportSize(TABLET);
      await matrix.waitFor();
      await dialogShot(page, 'variants-tablet');
      await page.setViewportSize(DESKTOP);

      // ---------------------------------------------------------------- an order's material swapped
      shot = 'variants-swap';
      const kit = await item(`KIT-${R}`, 'finished_good', 'EA');
      await ok(page, '/admin/bom/', { method: 'POST', json: { product_id: kit.id, lines: [{ component_id: toy.id, quantity: '1' }] } });
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: kit.id, quantity_ordered: '2' } });
      await ok(page, `/production-orders/${wo.id}/release`, { method: 'POST' });
      await page.goto(`/admin/production/${wo.id}`);
      const materials = page.getByRole('table', { name: 'Materials' });
      await materials.getByText(`TOY-${R}`, { exact: true }).waitFor();
      const offer = materials.getByRole('button', { name: `Use a variant of TOY-${R}` });
      await offer.waitFor();
      await screenshot(page, 'variants-swap-offer');
      await offer.click();
      const swap = page.getByRole('dialog', { name: `Use a variant of TOY-${R}` });
      const pick = swap.getByRole('radio', { name: new RegExp(`^${plaRed.sku}, 5 EA on hand`) });
      await pick.waitFor();
      await dialogShot(page, 'variants-swap-dialog');
      await swap.getByRole('button', { name: 'Use this variant' }).click();
      await swap.getByText('Choose the variant to use.').waitFor();
      await pick.check();
      await swap.getByLabel('Reason').fill('The customer wants it red');
      await swap.getByRole('button', { name: 'Use this variant' }).click();
      await toast(page, 'Material swapped');
      await materials.getByText(plaRed.sku, { exact: true }).waitFor();
      const swapped = await ok(page, `/production-orders/${wo.id}`);
      assert.equal(swapped.materials[0].component_id, plaRed.id);
      assert.equal(Number(swapped.materials[0].quantity_allocated), 2, 'the variant is reserved instead');
      await dismissToasts(page);
      await screenshot(page, 'variants-swapped');

      // A refusal from the server is shown in the dialog (a deleted variant cannot be used).
      const refused = await pageApi(page, `/production-orders/${wo.id}/materials/${swapped.materials[0].id}/component`, { method: 'PATCH', json: { new_component_id: box.id } });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
