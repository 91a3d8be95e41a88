// Import Orders in the browser against a real Strata server (issue 15, CONTRACT 5.11):
// two priced items, a CSV of three orders (one with an unknown SKU) -> "Check file" shows
// two ready and one invalid with its row error -> import -> two pending orders exist.
// Screenshots: order-import-orders-link.png, order-import-bad-file.png, order-import-preview.png, order-import-done.png (test-results/screenshots).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- order-import
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** The count of an import summary card, by its label. */
async function stat(page, label) {
  const card = page.getByTestId('import-summary').locator('.stat').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
  return Number(await card.locator('dd').textContent());
}

describe('order import with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('check a CSV (2 ready, 1 invalid), import it, orders exist', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'order-import-flow';
    let passed = false;
    try {
      await signIn(page);
      const benchy = `OI-BENCHY-${RUN}`;
      const vase = `OI-VASE-${RUN}`;
      for (const [sku, price] of [
        [benchy, '24.99'],
        [vase, '39.00'],
      ]) {
        await ok(page, '/items', { method: 'POST', json: { sku, name: `${sku} item`, item_type: 'finished_good', unit: 'EA', selling_price: price } });
      }
      const before = await ok(page, '/sales-orders/?limit=100');
      const id = (n) => `W${RUN}-${n}`;
      const csv = [
        'Order ID,Order Date,Customer Email,Customer Name,Product SKU,Quantity,Unit Price,Shipping Cost,Tax Amount',
        `${id(1)},2026-11-20,jane.${RUN.toLowerCase()}@shop.test,Jane Doe,${benchy},2,,5.00,0`,
        `${id(1)},,,,${vase},1,,,`,
        `${id(2)},2026-11-21,kim.${RUN.toLowerCase()}@shop.test,Kim Ko,${vase},3,35.00,,`,
        `${id(3)},2026-11-22,lee.${RUN.toLowerCase()}@shop.test,Lee Li,${benchy},1,,,`,
        `${id(3)},,,,NOPE-${RUN},1,,,`,
        '',
      ].join('\n');

      // The Orders list links here (admins).
      shot = 'order-import-page';
      await page.goto('/admin/orders');
      await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
      await screenshot(page, 'order-import-orders-link');
      await page.getByRole('main').getByRole('link', { name: 'Import orders', exact: true }).click();
      await page.waitForURL('**/admin/orders/import');
      await page.getByRole('heading', { name: 'Import Orders', level: 1 }).waitFor();
      await page.getByText('Nothing checked yet').waitFor();
      assert.equal(await page.getByLabel('Source').inputValue(), '', 'detected from the file by default');
      assert.equal(await page.getByLabel('Create missing customers').isChecked(), true);

      // A file without the required columns: the server's 422 sentence, nothing to import.
      shot = 'order-import-bad-file';
      await page.getByLabel('Orders CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('Order ID,Quantity\n1,2\n') });
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByText('The file could not be checked').waitFor();
      await page.getByText('Missing required columns: Customer Email, Product SKU').waitFor();
      await screenshot(page, 'order-import-bad-file');
      await page.getByRole('button', { name: 'Remove file' }).click();

      // Check the file: nothing written, two ready, one invalid with its row error.
      shot = 'order-import-preview';
      await page.getByLabel('Orders CSV file').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByTestId('csv-preview').waitFor();
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByTestId('import-summary').waitFor();
      assert.equal(await stat(page, 'Orders found'), 3);
      assert.equal(await stat(page, 'Ready'), 2);
      assert.equal(await stat(page, 'Skipped'), 1);
      assert.equal(await stat(page, 'Customers to create'), 2);
      const rowErrors = page.getByRole('table', { name: 'Row errors' });
      const bad = rowErrors.getByRole('row').filter({ hasText: `NOPE-${RUN}` });
      await bad.waitFor();
      assert.equal((await bad.getByRole('cell').first().textContent()).trim(), '6');
      await bad.getByRole('cell', { name: 'Product SKU', exact: true }).waitFor();
      const orders = page.getByRole('table', { name: 'Orders in the file' });
      const invalid = orders.getByRole('row').filter({ hasText: id(3) });
      await invalid.getByText('Invalid', { exact: true }).waitFor();
      assert.equal(await orders.getByRole('row').filter({ hasText: 'Ready' }).count(), 2);
      assert.equal((await ok(page, '/sales-orders/?limit=100')).length, before.length, 'the check wrote nothing');
      await invalid.getByText("Row 6: Product SKU 'NOPE-").waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'order-import-preview');

      // Import (with a confirmation): the result names the new orders.
      shot = 'order-import-done';
      await page.getByRole('button', { name: 'Import 2 orders' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('2 pending orders will be created').waitFor();
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await toast(page, 'Orders imported');
      await page.getByRole('heading', { name: '2 orders imported' }).waitFor();
      const numbers = (await page.getByTestId('created-orders').locator('.mono').allTextContents()).map((s) => s.trim());
      assert.equal(numbers.length, 2);
      assert.equal(await stat(page, 'Created'), 2);
      await dismissToasts(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'order-import-done');

      const after = await ok(page, '/sales-orders/?limit=100');
      assert.equal(after.length, before.length + 2);
      const created = after.filter((o) => numbers.includes(o.order_number));
      assert.equal(created.length, 2, `created ${JSON.stringify(numbers)}`);
      for (const o of created) assert.equal(o.status, 'pending');
      const totals = created.map((o) => Number(o.grand_total)).sort((a, b) => a - b);
      // Kim: 3 x 35.00; Jane: 2 x 24.99 + 39.00 + 5.00 shipping.
      assert.deepEqual(totals, [93.98, 105]);

      // Import another file: back to an empty form. The same file again has nothing left
      // to import (two already imported, one invalid): the button is disabled.
      await page.getByRole('button', { name: 'Import another file' }).click();
      await page.getByText('Nothing checked yet').waitFor();
      await page.getByLabel('Orders CSV file').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByTestId('import-summary').waitFor();
      assert.equal(await stat(page, 'Ready'), 0);
      assert.equal(await page.getByRole('table', { name: 'Orders in the file' }).getByText('Already imported', { exact: true }).count(), 2);
      assert.equal(await page.getByRole('button', { name: 'Import 0 orders' }).isDisabled(), true);
      await page.getByText('No order in this file can be imported.').waitFor();
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failure`).catch(() => undefined);
      await context.close();
    }
  });
});
