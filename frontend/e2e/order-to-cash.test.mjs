// The whole order to cash in the browser against a real Strata server (issue 15): a quote
// for 3 widgets when 1 is in stock -> approved -> converted to a sales order -> confirmed
// (the one in stock is reserved and a production order is created for the 2 short) ->
// that production order, opened from the sales order, is released, started, completed and
// passes QC -> back on the sales order, which is now ready to ship -> shipped -> paid in
// full; the dashboard and the trial balance then show it. Stock, the order's status and the
// books are checked through the API. Screenshots of each page go to
// test-results/screenshots (o2c-*.png).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- order-to-cash
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { balances, cents, dismissToasts, ensureAdmin, needsApi, ok, onHand, signIn, toast } from './lib/flow.mjs';

/** A 1×1 PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const RUN = Date.now().toString(36).toUpperCase();

/** Clicks a PDF link and checks the browser saved a PDF under the expected name. */
async function expectPdf(page, link, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const filename = download.suggestedFilename();
  if (name instanceof RegExp) assert.match(filename, name);
  else assert.equal(filename, name);
  const bytes = await readFile(await download.path());
  assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${filename} is a PDF`);
}
const money = (n) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(Number(n));
const amount = (text) => Number(String(text).replace(/[$,\s]/g, ''));

/** A full-page screenshot from the top (the shell's header and sidebar are sticky). */
async function shoot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The dashboard's month-to-date sales figures, as the page shows them once they match the route. */
async function dashboardFigures(page) {
  const trend = await ok(page, '/admin/dashboard/sales-trend?period=MTD');
  const revenue = page.getByTestId('sales-revenue');
  const payments = page.getByTestId('sales-payments');
  await revenue.filter({ hasText: money(trend.total_revenue) }).waitFor({ timeout: 15_000 });
  await payments.filter({ hasText: money(trend.total_payments) }).waitFor({ timeout: 15_000 });
  return { trend, revenue: amount(await revenue.textContent()), payments: amount(await payments.textContent()) };
}

let browser;

describe('order to cash with production, with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('quote -> approve -> convert -> confirm (short) -> produce -> ready to ship -> ship -> paid -> dashboard and books', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'o2c-setup';
    let passed = false;
    try {
      await signIn(page);

      // Set-up through the API: a widget made from one insert, 1 widget and 10 inserts in
      // stock, its BOM, and a customer with a shipping address (the quote takes it).
      const item = (sku, item_type, extra = {}) => ok(page, '/items', { method: 'POST', json: { sku, name: `${sku} (o2c)`, item_type, unit: 'EA', ...extra } });
      const insert = await item(`O2C-INS-${RUN}`, 'component');
      const widget = await item(`O2C-W-${RUN}`, 'finished_good', { selling_price: '12.50' });
      const receive = (product_id, quantity, cost_per_unit) =>
        ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id, transaction_type: 'receipt', quantity, cost_per_unit } });
      await receive(widget.id, '1', '4.00');
      await receive(insert.id, '10', '0.50');
      await ok(page, '/admin/bom/', { method: 'POST', json: { product_id: widget.id, lines: [{ component_id: insert.id, quantity: '1' }] } });
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: {
          email: `o2c-${RUN.toLowerCase()}@shop.test`,
          first_name: 'Olive',
          last_name: `Cash ${RUN}`,
          shipping_address_line1: '12 Harbor Rd',
          shipping_city: 'Portland',
          shipping_state: 'OR',
          shipping_zip: '97201',
        },
      });

      // The dashboard before: this month's sales and payments.
      shot = 'o2c-dashboard-before';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), / }).waitFor();
      const dashBefore = await dashboardFigures(page);
      await shoot(page, 'o2c-dashboard-before');
      const before = await balances(page);

      // Quotes: a quote for 3 widgets for the customer, through the create dialog.
      shot = 'o2c-quote';
      await page.goto('/admin/quotes');
      await page.getByRole('heading', { name: 'Quotes', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New quote' }).first().click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel('Item').selectOption(String(widget.id));
      await dialog.getByLabel('Quantity').fill('3');
      await dialog.getByLabel('Customer', { exact: true }).selectOption(String(customer.id));
      await screenshot(page, 'o2c-quote-dialog');
      await dialog.getByRole('button', { name: 'Create quote' }).click();
      await toast(page, 'Quote created');
      const [quote] = await ok(page, `/quotes/?search=${encodeURIComponent(widget.name)}`);
      assert.ok(quote, 'the quote was created');
      assert.equal(quote.quantity, 3);
      assert.equal(Number(quote.subtotal), 37.5, '3 × 12.50');

      // Approve it, then convert it to a sales order.
      shot = 'o2c-quote-approved';
      await page.getByLabel(`Change status of ${quote.quote_number}`).selectOption('approved');
      await page.getByRole('dialog').getByRole('button', { name: 'Mark approved' }).click();
      await toast(page, 'Quote updated');
      const row = page.getByRole('row', { name: new RegExp(quote.quote_number) });
      await row.getByRole('button', { name: 'Convert' }).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'o2c-quote-approved');
      // A picture of the part, attached from the row.
      await row.locator('input[type=file]').setInputFiles({ name: 'part.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL_PNG, 'base64') });
      await toast(page, 'Image attached');
      await row.getByRole('link', { name: `Image of ${quote.quote_number}` }).waitFor();
      assert.equal((await ok(page, `/quotes/${quote.id}`)).has_image, true, 'the quote has its picture');
      await dismissToasts(page);
      await screenshot(page, 'o2c-quote-with-image');
      // The quote as a PDF for the customer.
      await expectPdf(page, row.getByRole('link', { name: `PDF of ${quote.quote_number}` }), `${quote.quote_number}.pdf`);
      await row.getByRole('button', { name: 'Convert' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Convert' }).click();
      await page.waitForURL(/\/admin\/orders\/\d+$/);
      const orderId = Number(new URL(page.url()).pathname.split('/').pop());
      const badges = page.locator('.wo-badges');
      await badges.getByText('Pending', { exact: true }).first().waitFor();
      const created = await ok(page, `/sales-orders/${orderId}`);
      assert.equal(created.quote_id, quote.id);
      assert.equal(Number(created.subtotal), 37.5);
      assert.equal(created.shipping_address_line1, '12 Harbor Rd', "the customer's address came with the quote");
      await dismissToasts(page);
      await shoot(page, 'o2c-order-pending');

      // Confirm: the one widget in stock is reserved, a production order covers the other two.
      shot = 'o2c-order-confirmed';
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      await toast(page, 'Order updated');
      await badges.getByText('In production', { exact: true }).waitFor();
      const required = page.getByRole('table', { name: 'Required orders' });
      await required.waitFor();
      const { production_orders: wos } = await ok(page, `/sales-orders/${orderId}/required-orders`);
      assert.equal(wos.length, 1, 'one production order for the shortfall');
      const wo = wos[0];
      assert.equal(wo.product_id, widget.id);
      assert.equal(Number(wo.quantity_ordered), 2, 'the shortfall: 3 ordered, 1 in stock');
      const confirmed = await ok(page, `/sales-orders/${orderId}`);
      assert.equal(confirmed.status, 'in_production');
      assert.equal(Number(confirmed.lines[0].quantity_allocated), 1, 'the widget in stock is reserved');
      // What still blocks the shipment, and the materials the two to make need.
      const issues = page.getByRole('list', { name: 'Blocking issues' });
      await issues.getByText(/: 1 of 3 reserved, 2 short$/).waitFor();
      await issues.getByText(/^Production order WO-.* is not finished$/).waitFor();
      await page.getByRole('table', { name: 'Material requirements' }).getByText(insert.sku, { exact: true }).waitFor();
      await dismissToasts(page);
      await shoot(page, 'o2c-order-in-production');

      // The production order, opened from the sales order: release, start, complete, QC.
      shot = 'o2c-production-draft';
      await required.getByRole('link', { name: wo.code }).click();
      await page.waitForURL(new RegExp(`/admin/production/${wo.id}$`));
      const header = page.locator('.wo-badges');
      await header.getByText('Draft', { exact: true }).waitFor();
      await shoot(page, 'o2c-production-draft');
      shot = 'o2c-production-released';
      await page.getByRole('button', { name: 'Release', exact: true }).click();
      await header.getByText('Released', { exact: true }).waitFor();
      await dismissToasts(page);
      await shoot(page, 'o2c-production-released');
      shot = 'o2c-production-started';
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await header.getByText('In progress', { exact: true }).waitFor();
      await dismissToasts(page);
      await shoot(page, 'o2c-production-started');
      shot = 'o2c-production-complete';
      await page.getByRole('button', { name: 'Complete', exact: true }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Quantity completed').fill('2');
      await dialog.getByRole('button', { name: 'Complete order' }).click();
      await toast(page, 'Order completed');
      await header.getByText('Complete', { exact: true }).waitFor();
      await header.getByText('QC pending').waitFor();
      assert.equal(await onHand(page, widget.id), 3, 'the two made join the one in stock');
      assert.equal(await onHand(page, insert.id), 8, 'one insert issued per widget made');
      shot = 'o2c-production-qc';
      await page.getByRole('button', { name: 'Record QC' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Passed', { exact: true }).check();
      await dialog.getByRole('button', { name: 'Record inspection' }).click();
      await toast(page, 'QC recorded');
      await header.getByText('QC passed').waitFor();
      // Recording offers photos of the inspection in a dialog of its own: none here.
      await page.getByRole('dialog', { name: 'Inspection recorded' }).getByRole('button', { name: 'Done' }).click();
      await dismissToasts(page);
      await shoot(page, 'o2c-production-done');
      const done = await ok(page, `/production-orders/${wo.id}`);
      assert.equal(done.status, 'complete');
      assert.equal(done.qc_status, 'passed');
      assert.equal(Number(done.quantity_completed), 2);
      assert.equal(done.sales_order_id, orderId);
      const ready = await ok(page, `/sales-orders/${orderId}`);
      assert.equal(ready.status, 'ready_to_ship', 'QC passed moves the sales order to ready to ship');
      assert.equal(Number(ready.lines[0].quantity_allocated), 3, 'all three widgets reserved for it');

      // Back to the sales order from the production order: it is ready to ship; ship it.
      shot = 'o2c-order-ready';
      await page.getByRole('link', { name: created.order_number, exact: true }).click();
      await page.waitForURL(new RegExp(`/admin/orders/${orderId}$`));
      await badges.getByText('Ready to ship', { exact: true }).first().waitFor();
      await page.getByRole('table', { name: 'Required orders' }).getByText('Complete', { exact: true }).waitFor();
      await page.getByTestId('ship-readiness').getByText('Nothing blocks it').waitFor();
      await shoot(page, 'o2c-order-ready-to-ship');
      shot = 'o2c-ship';
      await page.getByRole('button', { name: 'Ship', exact: true }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Tracking number').fill(`O2C${RUN}`);
      await screenshot(page, 'o2c-ship-dialog');
      await dialog.getByRole('button', { name: 'Ship order' }).click();
      await toast(page, 'Shipped');
      await badges.getByText('Shipped', { exact: true }).first().waitFor();
      await page.getByRole('list', { name: 'Shipments' }).getByText(new RegExp(`O2C${RUN}`)).waitFor();
      await dismissToasts(page);
      await shoot(page, 'o2c-order-shipped');
      // The packing slip for the box.
      await expectPdf(page, page.getByRole('link', { name: /^Packing slip for / }), /^packing-slip-SO-\d{4}-\d{4}\.pdf$/);

      assert.equal(await onHand(page, widget.id), 0, 'all three widgets left with the shipment');
      const shipped = await balances(page);
      const order = await ok(page, `/sales-orders/${orderId}`);
      assert.equal(order.status, 'shipped');
      assert.equal(cents((before['4000'] ?? 0) - shipped['4000']), 37.5, 'sales revenue 4000 credited with the subtotal');
      assert.equal(cents(shipped['1100'] - (before['1100'] ?? 0)), Number(order.grand_total), 'accounts receivable 1100 debited with the grand total');

      // Payment for the grand total.
      shot = 'o2c-payment';
      await page.getByRole('button', { name: 'Record payment' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Amount').fill(Number(order.grand_total).toFixed(2));
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await toast(page, 'Payment recorded');
      await badges.getByText('Payment paid').waitFor();
      await page.getByRole('table', { name: 'Payments' }).getByText(money(order.grand_total)).waitFor();
      await dismissToasts(page);
      await shoot(page, 'o2c-order-paid');
      const paid = await balances(page);
      assert.equal(cents(paid['1100'] - (before['1100'] ?? 0)), 0, 'accounts receivable 1100 back where it was');
      assert.equal(cents((paid['1000'] ?? 0) - (before['1000'] ?? 0)), Number(order.grand_total), 'cash 1000 received the grand total');

      // The dashboard: this month's sales and payments grew by the order, which is listed
      // among the latest orders as shipped and paid.
      shot = 'o2c-dashboard';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), / }).waitFor();
      const dashAfter = await dashboardFigures(page);
      assert.equal(cents(dashAfter.revenue - dashBefore.revenue), Number(order.grand_total), 'the sales figure grew by the order');
      assert.equal(cents(dashAfter.payments - dashBefore.payments), Number(order.grand_total), 'the payments figure grew by the payment');
      const recent = page.getByRole('table', { name: 'Recent orders' }).getByRole('row', { name: new RegExp(order.order_number) });
      await recent.waitFor();
      assert.match(await recent.innerText(), /Shipped[\s\S]*Paid/);
      await shoot(page, 'o2c-dashboard');

      // The trial balance page: balanced, its totals equal, revenue listed.
      shot = 'o2c-trial-balance';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Accounting', exact: true }).click();
      await page.getByRole('heading', { name: 'Accounting', exact: true }).waitFor();
      const tb = page.getByRole('table', { name: 'Trial balance' });
      await tb.waitFor();
      await page.getByTestId('balance-indicator').getByText('Balanced').waitFor();
      const debits = await page.getByTestId('total-debits').textContent();
      const credits = await page.getByTestId('total-credits').textContent();
      assert.equal(debits, credits, 'total debits equal total credits');
      assert.ok(amount(debits) > 0);
      const api = await ok(page, '/accounting/trial-balance');
      assert.equal(debits, money(api.total_debits));
      await tb.getByRole('row', { name: /^Ledger of 4000 / }).waitFor();
      await shoot(page, 'o2c-trial-balance');

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
