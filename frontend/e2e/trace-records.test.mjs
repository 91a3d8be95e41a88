// Traceability records by hand in the browser against a real Strata server (CONTRACT 5.19):
// an admin records a lot of resin with a generated number (no stock posted), quarantines it,
// sees a consumption refused, reactivates it and records a consumption against a work order;
// numbers 2 units of a serial-tracked item and scraps one; gives a customer a traceability
// profile. Screenshots go to test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- trace-records
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

describe('traceability records with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('record a lot, quarantine it, draw from it; number and scrap units; a customer profile', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'trace-records';
    let passed = false;
    try {
      await signIn(page);
      const resin = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `RRES-${RUN}`, name: `Record resin ${RUN}`, item_type: 'material', unit: 'G', purchase_uom: 'KG' },
      });
      const widget = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `RW-${RUN}`, name: `Record widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '30.00', track_serials: true },
      });
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: widget.id, quantity_ordered: '2' } });
      for (const step of ['release', 'start']) await ok(page, `/production-orders/${wo.id}/${step}`, { method: 'POST' });
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: { email: `records-${RUN.toLowerCase()}@shop.test`, first_name: 'Rita', last_name: `Records ${RUN}`, company_name: `Aero ${RUN}` },
      });
      const stockBefore = await ok(page, `/items/${resin.id}`);

      // Record a lot with a generated number.
      shot = 'trace-records-lot';
      await page.goto('/admin/quality/traceability?tab=lots');
      const lots = page.getByRole('region', { name: 'Material lots' });
      await lots.waitFor();
      await page.getByRole('button', { name: 'Record lot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record lot' });
      await dialog.getByText('posts no stock').first().waitFor();
      // Generating without an item says to pick one first.
      await dialog.getByRole('button', { name: 'Generate number' }).click();
      await dialog.getByText('Pick the item first').waitFor();
      await dialog.getByLabel(/^Item/).selectOption(String(resin.id));
      await dialog.getByRole('button', { name: 'Generate number' }).click();
      const lotField = dialog.getByLabel(/^Lot number/);
      await page.waitForFunction((el) => el.value.length > 0, await lotField.elementHandle());
      const lotNumber = await lotField.inputValue();
      assert.match(lotNumber, new RegExp(`^RRES-${RUN}-`, 'i'));
      await dialog.getByLabel('Quantity received').fill('500');
      await dialog.getByLabel('Unit cost').fill('0.02');
      await dialog.getByLabel('Notes').fill('Hand-recorded in e2e');
      await screenshot(page, 'trace-records-lot-dialog');
      await dialog.getByRole('button', { name: 'Record lot' }).click();
      await toast(page, 'Lot recorded');
      await dialog.waitFor({ state: 'detached' });
      const row = lots.getByRole('row').filter({ hasText: lotNumber });
      await row.waitFor();
      assert.match(await row.textContent(), /500/);
      // No stock was posted.
      const stockAfter = await ok(page, `/items/${resin.id}`);
      assert.equal(String(stockAfter.on_hand ?? stockAfter.quantity_on_hand ?? ''), String(stockBefore.on_hand ?? stockBefore.quantity_on_hand ?? ''));
      await dismissToasts(page);

      // Quarantine it (behind a confirmation).
      shot = 'trace-records-quarantine';
      await row.getByLabel(`Change status of lot ${lotNumber}`).selectOption('quarantine');
      const confirm = page.getByRole('alertdialog');
      await confirm.getByText(`Quarantine lot ${lotNumber}?`).waitFor();
      await confirm.getByRole('button', { name: 'Quarantine' }).click();
      await toast(page, 'Lot updated');
      await row.getByText('Quarantine', { exact: true }).waitFor();
      await dismissToasts(page);

      // A consumption from a quarantined lot is refused.
      shot = 'trace-records-refused';
      await row.getByRole('button', { name: `Record consumption from lot ${lotNumber}` }).click();
      let consume = page.getByRole('dialog', { name: `Record consumption from lot ${lotNumber}` });
      await consume.getByText('500 left in the lot').waitFor();
      await consume.getByLabel(/^Work order/).selectOption(String(wo.id));
      await consume.getByLabel(/^Quantity/).fill('100');
      await consume.getByRole('button', { name: 'Record consumption' }).click();
      await consume.getByText('it cannot be consumed').waitFor();
      await screenshot(page, 'trace-records-consumption-refused');
      await consume.getByRole('button', { name: 'Cancel' }).click();

      // Reactivate and pass inspection, then draw 100.
      shot = 'trace-records-consume';
      await row.getByLabel(`Change status of lot ${lotNumber}`).selectOption('active');
      await toast(page, 'Lot updated');
      await row.getByText('Active', { exact: true }).waitFor();
      await dismissToasts(page);
      await row.getByRole('button', { name: `Edit lot ${lotNumber}` }).click();
      const edit = page.getByRole('dialog', { name: `Edit lot ${lotNumber}` });
      await edit.getByLabel('Inspection').selectOption('passed');
      await edit.getByLabel('Expires on').fill('2030-01-31');
      await edit.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Lot updated');
      await row.getByText('2030-01-31').waitFor();
      await dismissToasts(page);
      await row.getByRole('button', { name: `Record consumption from lot ${lotNumber}` }).click();
      consume = page.getByRole('dialog', { name: `Record consumption from lot ${lotNumber}` });
      await consume.getByLabel(/^Work order/).selectOption(String(wo.id));
      await consume.getByLabel(/^Quantity/).fill('600');
      await consume.getByRole('button', { name: 'Record consumption' }).click();
      await consume.getByText('Only 500 left in this lot').waitFor();
      await consume.getByLabel(/^Quantity/).fill('100');
      await consume.getByRole('button', { name: 'Record consumption' }).click();
      await toast(page, 'Consumption recorded');
      await consume.waitFor({ state: 'detached' });
      await row.locator('td').filter({ hasText: /^400$/ }).waitFor();
      await screenshot(page, 'trace-records-lots');
      await dismissToasts(page);

      // Number 2 units, scrap one.
      shot = 'trace-records-units';
      await page.getByRole('tab', { name: 'Serial numbers' }).click();
      const serials = page.getByRole('region', { name: 'Serial numbers' });
      await serials.waitFor();
      await page.getByRole('button', { name: 'Number units' }).click();
      const number = page.getByRole('dialog', { name: 'Number units' });
      await number.getByLabel(/^Item/).selectOption(String(widget.id));
      await number.getByLabel(/^Work order/).selectOption(String(wo.id));
      await number.getByLabel('How many').fill('2');
      await number.getByRole('button', { name: 'Number units' }).click();
      await toast(page, '2 units numbered');
      await number.waitFor({ state: 'detached' });
      const units = await ok(page, `/admin/traceability/serials?production_order_id=${wo.id}`);
      assert.equal(units.total, 2);
      const [first, second] = units.items.map((u) => u.serial_number).sort();
      await dismissToasts(page);
      const unitRow = serials.getByRole('row').filter({ hasText: first });
      await unitRow.getByRole('button', { name: `Put away ${first}` }).waitFor();
      await unitRow.getByRole('button', { name: `Scrap ${first}` }).click();
      const scrap = page.getByRole('alertdialog');
      await scrap.getByText(`Scrap ${first}?`).waitFor();
      await scrap.getByRole('button', { name: 'Scrap' }).click();
      await toast(page, 'Unit updated');
      await unitRow.getByText('Scrapped', { exact: true }).waitFor();
      // A scrapped unit offers no more moves.
      assert.equal(await unitRow.getByRole('button', { name: `Put away ${first}` }).count(), 0);
      const other = serials.getByRole('row').filter({ hasText: second });
      await other.getByRole('button', { name: `QC pass ${second}` }).click();
      await other.getByText('Passed', { exact: true }).waitFor();
      await screenshot(page, 'trace-records-serials');
      await dismissToasts(page);

      // A customer traceability profile.
      shot = 'trace-records-profile';
      await page.getByRole('tab', { name: 'Customer profiles' }).click();
      await page.getByRole('button', { name: 'New profile' }).click();
      const profile = page.getByRole('dialog', { name: 'New traceability profile' });
      await profile.getByLabel(/^Customer/).selectOption(String(customer.id));
      await profile.getByLabel('Traceability level').selectOption('serial');
      await profile.getByLabel('Certificate of conformance (CoC)').check();
      await profile.getByLabel('Compliance standards').fill('AS9100');
      await profile.getByLabel('Keep records for (days)').fill('0');
      await profile.getByRole('button', { name: 'Create profile' }).click();
      await profile.getByText('Enter whole days from 1 to 36500').waitFor();
      await profile.getByLabel('Keep records for (days)').fill('3650');
      await profile.getByRole('button', { name: 'Create profile' }).click();
      await toast(page, 'Profile created');
      const profiles = page.getByRole('table', { name: 'Traceability profiles' });
      const prow = profiles.getByRole('row').filter({ hasText: customer.email });
      await prow.getByText('Serial', { exact: true }).waitFor();
      assert.match(await prow.textContent(), /CoC/);
      assert.match(await prow.textContent(), /3650/);
      const saved = await ok(page, `/admin/traceability/profiles/${customer.id}`);
      assert.equal(saved.traceability_level, 'serial');
      assert.equal(saved.requires_coc, true);
      await screenshot(page, 'trace-records-profiles');

      assert.deepEqual(errors, [], `browser errors: ${errors.join('\n')}`);
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failure`).catch(() => {});
      await context.close();
    }
  });
});
