// Bulk Exports in the browser against a real Strata server: two items are created through
// the API; the Items report is queued as CSV from the page, the table polls until it is
// completed, the Download link serves the CSV (checked line by line); a CSV export of a
// nested selection is refused (422) with the server's sentence under the Query field; a
// double submit with one Idempotency-Key queues one export.
// Screenshots: bulk-exports-empty.png, bulk-exports-completed.png, bulk-exports-422.png (test-results/screenshots).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- bulk-exports
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, pageApi, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** A full-page screenshot from the top. */
async function shoot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('bulk exports with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('queue a CSV of items, it completes, download it; a nested CSV query is refused at the Query field', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'bulk-exports-setup';
    let passed = false;
    try {
      await signIn(page);
      const skuA = `BX-A-${RUN}`;
      const skuB = `BX-B-${RUN}`;
      await ok(page, '/items', { method: 'POST', json: { sku: skuA, name: `Bulk "quoted", item ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '12.50' } });
      await ok(page, '/items', { method: 'POST', json: { sku: skuB, name: `Plain item ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '3.00' } });
      const before = await ok(page, '/bulk-exports?limit=100');

      // The sidebar's Reports section leads to the page.
      shot = 'bulk-exports-page';
      await page.goto('/admin');
      await page.getByRole('navigation').getByRole('link', { name: 'Bulk Exports', exact: true }).click();
      await page.waitForURL('**/admin/reports/exports');
      await page.getByRole('heading', { name: 'Bulk Exports', level: 1 }).waitFor();
      const table = page.getByRole('region', { name: 'Bulk exports' });
      if (before.length === 0) await page.getByText('No exports yet').waitFor();
      assert.equal(await page.getByLabel('Report').inputValue(), 'inventory-ledger', 'the first preset is chosen');
      assert.match(await page.getByLabel('Query').inputValue(), /inventoryTransactions/);
      await shoot(page, 'bulk-exports-empty');

      // The Items preset as CSV, narrowed to a flat selection of two columns plus the SKU filter.
      shot = 'bulk-exports-queue';
      await page.getByLabel('Report').selectOption('items');
      assert.match(await page.getByLabel('Query').inputValue(), /items \{/);
      assert.equal(await page.getByRole('radio', { name: 'CSV' }).isChecked(), true);
      const query = `{ items(search: "${RUN}") { nodes { sku name sellingPrice } } }`;
      await page.getByLabel('Query').fill(query);
      assert.equal(await page.getByLabel('Report').inputValue(), '', 'an edited query is a custom one');
      // A double click: one Idempotency-Key, one export.
      await page.getByRole('button', { name: 'Queue export' }).dblclick();
      await toast(page, 'Export queued');
      await dismissToasts(page);

      const mine = async () => (await ok(page, '/bulk-exports?limit=100')).filter((e) => !before.some((b) => b.id === e.id));
      const queued = await mine();
      assert.equal(queued.length, 1, `one export queued: ${JSON.stringify(queued)}`);
      const exp = queued[0];
      assert.equal(exp.format, 'csv');
      assert.equal(exp.query, query);

      // The table polls until the export is completed, then offers the file.
      shot = 'bulk-exports-completed';
      const row = table.getByRole('row').filter({ hasText: `#${exp.id}` });
      await page.getByTestId('export-polling').filter({ hasText: 'in progress' }).waitFor().catch(() => undefined);
      await row.getByText('Completed', { exact: true }).waitFor({ timeout: 30_000 });
      await row.getByText('2 rows', { exact: true }).waitFor();
      const link = row.getByRole('link', { name: `Download export ${exp.id}` });
      await link.waitFor();
      assert.equal(await link.getAttribute('href'), `/api/v1/bulk-exports/${exp.id}/download`);
      // Nothing queued or running: the table stops polling.
      await page.getByTestId('export-polling').filter({ hasText: 'All exports finished' }).waitFor();
      const polls = [];
      const onRequest = (r) => {
        if (r.method() === 'GET' && /\/api\/v1\/bulk-exports\?/.test(r.url())) polls.push(r.url());
      };
      page.on('request', onRequest);
      await page.waitForTimeout(4000);
      page.off('request', onRequest);
      assert.deepEqual(polls, [], 'no polling once every export is finished');
      await shoot(page, 'bulk-exports-completed');

      // The download: the browser saves the CSV with its header and both items.
      shot = 'bulk-exports-download';
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      assert.equal(download.suggestedFilename(), `bulk-export-${exp.id}.csv`);
      const csv = await readFile(await download.path(), 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      assert.equal(lines[0], 'sku,name,sellingPrice');
      assert.deepEqual(lines.slice(1).sort(), [`${skuA},"Bulk ""quoted"", item ${RUN}",12.50`, `${skuB},Plain item ${RUN},3.00`].sort());
      const done = await ok(page, `/bulk-exports/${exp.id}`);
      assert.equal(done.status, 'completed');
      assert.equal(done.row_count, 2);
      assert.equal(done.size_bytes, Buffer.byteLength(csv));

      // A nested selection as CSV: the server's 422 sentence under the Query field, nothing queued.
      shot = 'bulk-exports-422';
      await page.getByLabel('Query').fill(`{ items(search: "${RUN}") { nodes { sku stock { locationName onHandQuantity } } } }`);
      await page.getByRole('radio', { name: 'CSV' }).check();
      await page.getByRole('button', { name: 'Queue export' }).click();
      const fieldError = page.locator('.field', { has: page.getByLabel('Query') }).locator('.field__error');
      await fieldError.filter({ hasText: 'CSV needs a flat selection' }).waitFor();
      assert.equal(await page.getByLabel('Query').getAttribute('aria-invalid'), 'true');
      await page.getByText('The export was not queued').waitFor();
      assert.equal((await mine()).length, 1, 'the refused export was not queued');
      await shoot(page, 'bulk-exports-422');

      // The same query as JSON Lines is fine.
      shot = 'bulk-exports-jsonl';
      await page.getByRole('radio', { name: 'JSON Lines' }).check();
      await page.getByRole('button', { name: 'Queue export' }).click();
      await toast(page, 'Export queued');
      const both = await mine();
      assert.equal(both.length, 2);
      const jsonl = both.find((e) => e.format === 'jsonl');
      await table.getByRole('row').filter({ hasText: `#${jsonl.id}` }).getByText('Completed', { exact: true }).waitFor({ timeout: 30_000 });
      const file = await pageApi(page, `/bulk-exports/${jsonl.id}/download`);
      assert.equal(file.status, 200);
      assert.equal(String(file.body).trim().split('\n').length, 2);
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failure`).catch(() => undefined);
      await context.close();
    }
  });
});
