// Printers and their maintenance in the browser against a real Strata server: a printer is
// added from the Printers page (an empty name is refused in the form; the code is suggested
// by the server), opened, and maintenance is logged on it with a next due time already
// past, so the page warns that it is overdue; the log is then deleted after a confirmation
// and the warning goes away. A route answering 404 fails the test. Screenshots go to
// test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- printers
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

/** A `datetime-local` value `days` days from now, in the browser's zone. */
function localInput(days) {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

let browser;

describe('printers and maintenance with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('add a printer -> log overdue maintenance -> warned -> delete the log', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'printers';
    let passed = false;
    try {
      await signIn(page);
      const suggested = (await ok(page, '/printers/generate-code')).code;
      assert.match(suggested, /^PRT-\d+$/);

      // Add a printer: the name is required, the code comes suggested.
      shot = 'printers-add';
      await page.goto('/admin/printers');
      await page.getByRole('heading', { name: 'Printers', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add printer' }).first().click();
      let dialog = page.getByRole('dialog');
      const code = dialog.getByLabel(/^Code/);
      await page.waitForFunction(() => (document.querySelector('#printer-form input[name="code"]')?.value ?? '') !== '');
      assert.equal(await code.inputValue(), suggested);
      const myCode = `E2E-${RUN}`;
      await code.fill(myCode);
      await dialog.getByLabel(/^Model/).fill('X1 Carbon');
      await dialog.getByRole('button', { name: 'Add printer' }).click();
      await dialog.getByText('Enter a name people recognise').waitFor();
      await dialog.getByLabel(/^Name/).fill(`Bay ${RUN}`);
      await dialog.getByLabel(/^IP address/).fill('192.168.50.23');
      await screenshot(page, 'printers-add-dialog');
      await dialog.getByRole('button', { name: 'Add printer' }).click();
      await toast(page, 'Printer added');
      await dialog.waitFor({ state: 'detached' });
      const table = page.getByRole('table', { name: 'Printers' });
      const row = table.getByRole('row').filter({ hasText: myCode });
      await row.getByText(`Bay ${RUN}`).waitFor();
      const created = (await ok(page, `/printers/?search=${encodeURIComponent(myCode)}`)).items;
      assert.equal(created.length, 1);
      assert.equal(created[0].ip_address, '192.168.50.23');
      await dismissToasts(page);

      // Open it and log maintenance done ten days ago that was due again two days ago.
      shot = 'printers-maintenance';
      await row.click();
      dialog = page.getByRole('dialog');
      await dialog.getByText('No maintenance logged').waitFor();
      await dialog.getByRole('button', { name: 'Log maintenance' }).click();
      const form = dialog.getByRole('form', { name: 'Log maintenance' });
      await form.getByLabel('Kind').selectOption('nozzle_change');
      await form.getByLabel(/^Done at/).fill(localInput(-10));
      await form.getByLabel(/^Next due/).fill(localInput(-12));
      await form.getByLabel(/^What was done/).fill('Swapped the 0.4 mm nozzle');
      await form.getByRole('button', { name: 'Log maintenance' }).click();
      await form.getByText('The next due time must come after the maintenance.').waitFor();
      await form.getByLabel(/^Next due/).fill(localInput(-2));
      await form.getByLabel('Cost').fill('18.50');
      await form.getByRole('button', { name: 'Log maintenance' }).click();
      await toast(page, 'Maintenance logged');
      const history = dialog.getByRole('table', { name: 'Maintenance history' });
      await history.getByText('Swapped the 0.4 mm nozzle').waitFor();
      await history.getByText('Nozzle change').waitFor();
      await dismissToasts(page);
      await screenshot(page, 'printers-maintenance-history');

      const due = await ok(page, '/maintenance/due');
      const mine = due.printers.find((p) => p.printer_code === myCode);
      assert.ok(mine && mine.overdue, `overdue: ${JSON.stringify(due)}`);
      assert.equal(mine.days_overdue, 2);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      const warning = page.getByRole('status', { name: 'Maintenance due' });
      await warning.getByText(`${myCode} · 2 d overdue`).waitFor();
      await screenshot(page, 'printers-overdue');

      // The warning opens the printer; deleting its only log (confirmed) clears the warning.
      shot = 'printers-delete';
      await warning.getByRole('button', { name: new RegExp(myCode) }).click();
      dialog = page.getByRole('dialog').first();
      await dialog.getByRole('table', { name: 'Maintenance history' }).waitFor();
      await dialog.getByRole('button', { name: /^Delete the log of/ }).click();
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete this maintenance log?' }));
      await confirm.getByRole('button', { name: 'Delete log' }).click();
      await toast(page, 'Maintenance log deleted');
      await dialog.getByText('No maintenance logged').waitFor();
      const after = await ok(page, '/maintenance/due');
      assert.equal(
        after.printers.some((p) => p.printer_code === myCode),
        false,
      );
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
