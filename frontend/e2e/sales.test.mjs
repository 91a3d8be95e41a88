// Order to cash in the browser against a real Strata server (issue 15): a sales order
// through the create dialog -> confirm (stock allocated) -> ship dialog -> payment dialog;
// the Shipping and Payments pages list them; the order's address is changed before it ships
// (and no longer offered after); the Orders list is filtered by fulfillment and sorted by a
// column on the server; a quote is approved and converted to an order.
// Screenshots of each page go to test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- sales
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { balances, cents, dismissToasts, ensureAdmin, needsApi, ok, onHand, pageApi, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

describe('order to cash with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('order (dialog) -> confirm -> ship -> payment; quote -> approve -> convert', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'sales-flow';
    let passed = false;
    try {
      await signIn(page);
      const widget = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `SOW-${RUN}`, name: `Sales widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '12.50' },
      });
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: widget.id, transaction_type: 'receipt', quantity: '5', cost_per_unit: '4.00' } });

      const before = await balances(page);

      // Orders: the create dialog refuses a bad quantity, then creates the order.
      shot = 'sales-orders';
      await page.goto('/admin/orders');
      await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New order' }).first().click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^Item 1/).selectOption(String(widget.id));
      await dialog.getByLabel('Quantity').fill('0');
      await dialog.getByRole('button', { name: 'Create order' }).click();
      await dialog.getByText('Enter a whole quantity from 1 to 10000.').waitFor();
      await dialog.getByLabel('Quantity').fill('2');
      await dialog.getByLabel('Ship to (street)').fill('1 Main St');
      await dialog.getByLabel('City').fill('Springfield');
      await dialog.getByRole('button', { name: 'Create order' }).click();
      await page.waitForURL(/\/admin\/orders\/\d+$/);
      const orderId = Number(new URL(page.url()).pathname.split('/').pop());
      const badges = page.locator('.wo-badges');
      await badges.getByText('Pending', { exact: true }).waitFor();
      const created = await ok(page, `/sales-orders/${orderId}`);
      assert.equal(Number(created.subtotal), 25);
      await dismissToasts(page);
      await screenshot(page, 'sales-order-pending');

      // Change address: the dialog starts from the order's; a field left as is keeps its value.
      shot = 'sales-order-address';
      await page.getByRole('button', { name: 'Change address' }).click();
      dialog = page.getByRole('dialog');
      assert.equal(await dialog.getByLabel('Street').inputValue(), '1 Main St');
      await dialog.getByLabel('Street').fill('7 Elm St');
      await dialog.getByLabel('Postal code').fill('62701');
      await dialog.getByRole('button', { name: 'Save address' }).click();
      await toast(page, 'Address changed');
      await page.getByTestId('ship-to').getByText(/7 Elm St/).waitFor();
      const moved = await ok(page, `/sales-orders/${orderId}`);
      assert.deepEqual([moved.shipping_address_line1, moved.shipping_city, moved.shipping_zip], ['7 Elm St', 'Springfield', '62701']);
      await dismissToasts(page);

      // Confirm: stock is there, so the line is allocated and the order can ship.
      shot = 'sales-order-confirmed';
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      await toast(page, 'Order updated');
      await page.getByRole('button', { name: 'Ship', exact: true }).waitFor();
      await dismissToasts(page);
      await screenshot(page, 'sales-order-confirmed');

      // Shipping page lists it; ship from the order page.
      shot = 'sales-shipping';
      await page.goto('/admin/shipping');
      await page.getByRole('heading', { name: 'Shipping', exact: true }).waitFor();
      await page.getByRole('cell', { name: created.order_number, exact: true }).waitFor();
      await screenshot(page, 'sales-shipping-queue');
      await page.goto(`/admin/orders/${orderId}`);
      await page.getByRole('button', { name: 'Ship', exact: true }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Tracking number').fill(`TRK${RUN}`);
      await dialog.getByRole('button', { name: 'Ship order' }).click();
      await toast(page, 'Shipped');
      await badges.getByText('Shipped', { exact: true }).first().waitFor();
      await page.getByRole('list', { name: 'Shipments' }).getByText(new RegExp(`TRK${RUN}`)).waitFor();
      // Shipped: the address is no longer offered, and the server refuses it too.
      assert.equal(await page.getByRole('button', { name: 'Change address' }).count(), 0, 'no address change once shipped');
      const late = await pageApi(page, `/sales-orders/${orderId}/address`, { method: 'PATCH', json: { shipping_city: 'Shelbyville' } });
      assert.equal(late.status, 400, JSON.stringify(late.body));
      assert.equal(late.body?.detail, 'Cannot change the address of a shipped order');

      assert.equal(await onHand(page, widget.id), 3, 'two widgets left with the shipment');
      const shipped = await balances(page);
      assert.equal(cents((before['4000'] ?? 0) - shipped['4000']), 25, 'sales revenue 4000 credited with the subtotal');

      // Payment for the grand total.
      shot = 'sales-payment';
      const order = await ok(page, `/sales-orders/${orderId}`);
      await page.getByRole('button', { name: 'Record payment' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Amount').fill(String(Number(order.grand_total).toFixed(2)));
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await toast(page, 'Payment recorded');
      await badges.getByText('Payment paid').waitFor();
      await dismissToasts(page);
      await screenshot(page, 'sales-order-paid');
      await page.goto('/admin/payments');
      await page.getByRole('heading', { name: 'Payments', exact: true }).waitFor();
      await page.getByRole('link', { name: order.order_number }).first().waitFor();
      await screenshot(page, 'sales-payments');

      // Orders list: the fulfillment filter and a column sort are the server's, from the URL up.
      shot = 'sales-orders-list';
      await page.goto('/admin/orders');
      await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
      const listed = (check) =>
        page.waitForResponse((r) => {
          const u = new URL(r.url());
          return u.pathname === '/api/v1/sales-orders/' && check(u.searchParams);
        });
      let answered = listed((q) => q.get('fulfillment_state') === 'shipped');
      await page.getByRole('combobox', { name: 'Fulfillment' }).selectOption('shipped');
      assert.equal((await answered).status(), 200);
      answered = listed((q) => q.get('fulfillment_state') === 'shipped' && q.get('sort_by') === 'customer_name' && q.get('sort_order') === 'asc');
      await page.getByRole('button', { name: /^Customer/ }).click();
      const sorted = await answered;
      assert.equal(sorted.status(), 200, `GET /sales-orders/?fulfillment_state=shipped&sort_by=customer_name: ${await sorted.text()}`);
      await page.getByRole('columnheader', { name: /Customer/ }).and(page.locator('[aria-sort="ascending"]')).waitFor();
      await page.waitForURL((u) => u.searchParams.get('fulfillment') === 'shipped');
      const shippedRows = await sorted.json();
      const limit = Number(new URL(sorted.url()).searchParams.get('limit'));
      assert.ok(shippedRows.some((o) => o.id === orderId) || shippedRows.length === limit, 'the shipped order is listed (or the page is full)');
      assert.ok(shippedRows.every((o) => o.fulfillment_state === 'shipped'), 'only shipped orders');
      const table = page.getByRole('table', { name: 'Sales orders' });
      await table.locator('tbody tr').first().getByText(shippedRows[0].order_number, { exact: true }).waitFor();
      assert.equal(await table.locator('tbody tr').count(), shippedRows.length);
      await screenshot(page, 'sales-orders-shipped-by-customer');

      // Quote -> approved -> converted to an order.
      shot = 'sales-quotes';
      await page.goto('/admin/quotes');
      await page.getByRole('heading', { name: 'Quotes', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New quote' }).first().click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Item').selectOption(String(widget.id));
      await dialog.getByRole('button', { name: 'Create quote' }).click();
      await toast(page, 'Quote created');
      const quotes = await ok(page, `/quotes/?search=${encodeURIComponent(widget.name)}`);
      const quote = quotes[0];
      assert.ok(quote, 'the quote was created');
      await page.getByLabel(`Change status of ${quote.quote_number}`).selectOption('approved');
      await page.getByRole('dialog').getByRole('button', { name: 'Mark approved' }).click();
      await toast(page, 'Quote updated');
      await dismissToasts(page);
      await screenshot(page, 'sales-quotes');
      await page.getByRole('row', { name: new RegExp(quote.quote_number) }).getByRole('button', { name: 'Convert' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Convert' }).click();
      await page.waitForURL(/\/admin\/orders\/\d+$/);
      await badges.getByText('Pending', { exact: true }).waitFor();
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
