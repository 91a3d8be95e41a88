// Order to cash in the browser against a real Strata server (issue 15): a sales order
// through the create dialog -> confirm (stock allocated) -> ship dialog -> payment dialog;
// the Shipping and Payments pages list them; a quote is approved and converted to an order.
// Screenshots of each page go to test-results/screenshots.
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- sales
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';

const RUN = Date.now().toString(36).toUpperCase();
const admin = { email: 'admin@example.com', password: 'Strata!2026a', name: 'Ada Admin' };
const needsApi = { skip: !HAS_API && 'needs STRATA_E2E_BASE_URL (a running Strata server)' };

let browser;

/** A call from inside the page with its session; renews the session once on a 401. */
async function pageApi(page, path, init = {}) {
  return page.evaluate(
    async ([p, i]) => {
      const send = () =>
        fetch(`/api/v1${p}`, {
          method: i.method ?? 'GET',
          headers: { Accept: 'application/json', ...(i.json ? { 'Content-Type': 'application/json' } : {}) },
          credentials: 'include',
          body: i.json ? JSON.stringify(i.json) : undefined,
        });
      let res = await send();
      if (res.status === 401) {
        await fetch('/api/v1/auth/refresh', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        res = await send();
      }
      const text = await res.text();
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, body };
    },
    [path, init],
  );
}

async function ok(page, path, init) {
  const res = await pageApi(page, path, init);
  assert.ok(res.status === 200 || res.status === 201, `${init?.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Debits minus credits of each account of the trial balance. */
async function balances(page) {
  const tb = await ok(page, '/accounting/trial-balance?include_zero_balances=true');
  assert.equal(tb.is_balanced, true, `trial balance: ${JSON.stringify(tb)}`);
  assert.equal(Number(tb.total_debits), Number(tb.total_credits));
  return Object.fromEntries(tb.accounts.map((a) => [a.account_code, Number(a.debit_balance) - Number(a.credit_balance)]));
}

async function onHand(page, productId) {
  const s = await ok(page, `/admin/inventory/transactions/inventory-summary?product_id=${productId}&show_zero=true`);
  return s.items.reduce((n, r) => n + Number(r.on_hand_quantity), 0);
}

const cents = (n) => Math.round(n * 100) / 100;

async function ensureAdmin() {
  const status = await fetch(`${API_URL}/api/v1/setup/status`).then((r) => r.json());
  if (!status.needs_setup) return;
  const res = await fetch(`${API_URL}/api/v1/setup/initial-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(API_URL).origin },
    body: JSON.stringify({ email: admin.email, password: admin.password, full_name: admin.name, company_name: 'Hopper Print Works' }),
  });
  assert.equal(res.status, 200, `initial-admin: ${await res.text()}`);
}

async function signIn(page) {
  await page.goto('/admin/login');
  await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('current-user').waitFor({ timeout: 20_000 });
}

/** Dismisses the toasts so a screenshot shows the page. */
async function dismissToasts(page) {
  const buttons = page.locator('.toast').getByRole('button', { name: 'Dismiss' });
  while ((await buttons.count()) > 0) await buttons.first().click();
}

/** Waits for a success toast whose title is `title`. */
async function toast(page, title) {
  await page.locator('.toast--success').filter({ hasText: title }).last().waitFor();
}


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
