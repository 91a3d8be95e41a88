// The dashboard in the browser against a real Strata server (issue 15, CONTRACT 5.1): orders
// are placed, confirmed, shipped and paid through the API, a work order is completed and a
// purchase order placed; the dashboard's cards, sales chart, trends and recent orders then
// show those figures, for the default period (month to date) and after switching period.
// The server may already hold other tests' data, so the page is compared with what the
// dashboard routes answer, and the routes with the figures this test added.
// Screenshots go to test-results/screenshots (dashboard-*.png).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- dashboard
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { cents, ensureAdmin, needsApi, ok, pageApi, signIn } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();
const money = (n) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(Number(n));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const day = (iso) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}`;

/** What the dashboard routes answer for `period`. */
async function figures(page, period) {
  const [summary, sales, shipping, profit, cash] = await Promise.all([
    ok(page, '/admin/dashboard/summary'),
    ok(page, `/admin/dashboard/sales-trend?period=${period}`),
    ok(page, `/admin/dashboard/shipping-trend?period=${period}`),
    ok(page, `/admin/dashboard/profit-summary?period=${period}`),
    ok(page, '/payments/dashboard'),
  ]);
  return { summary, sales, shipping, profit, cash };
}

/** The text of a `data-testid` element once it reads `expected`. */
async function shows(page, testId, expected) {
  const el = page.getByTestId(testId);
  await el.filter({ hasText: expected }).waitFor({ timeout: 15_000 }).catch(() => undefined);
  assert.equal((await el.textContent())?.trim(), expected, `${testId}`);
}

/** A full-page screenshot from the top (the shell's header and sidebar are sticky). */
async function shoot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

let browser;

describe('dashboard with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('cards, sales chart, trends and recent orders follow orders, shipments and payments', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'dashboard-setup';
    let passed = false;
    try {
      await signIn(page);
      const base = await figures(page, 'MTD');

      // A widget in stock, a customer, three orders: A shipped and paid, B shipped and half
      // paid, C still pending.
      const widget = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `DASH-${RUN}`, name: `Dashboard widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '12.50' },
      });
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: widget.id, transaction_type: 'receipt', quantity: '20', cost_per_unit: '4.00' } });
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: { email: `dash-${RUN.toLowerCase()}@shop.test`, first_name: 'Dana', last_name: `Board ${RUN}` },
      });
      const place = (quantity) =>
        ok(page, '/sales-orders/', {
          method: 'POST',
          json: { customer_id: customer.id, lines: [{ product_id: widget.id, quantity }], shipping_address_line1: '9 Chart Ave', shipping_city: 'Denver' },
        });
      const a = await place(2);
      const b = await place(1);
      const c = await place(3);
      for (const so of [a, b]) {
        await ok(page, `/sales-orders/${so.id}/status`, { method: 'PATCH', json: { status: 'confirmed' } });
        await ok(page, `/sales-orders/${so.id}/ship`, { method: 'POST', json: { carrier: 'UPS', tracking_number: `1Z${RUN}${so.id}` } });
      }
      await ok(page, '/payments', { method: 'POST', json: { sales_order_id: a.id, amount: String(a.grand_total), payment_method: 'cash' } });
      await ok(page, '/payments', { method: 'POST', json: { sales_order_id: b.id, amount: '5.00', payment_method: 'check' } });

      // A work order makes four more; a purchase order buys two at 15.00.
      const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: widget.id, quantity_ordered: '4' } });
      for (const step of ['release', 'start']) await ok(page, `/production-orders/${wo.id}/${step}`, { method: 'POST' });
      await ok(page, `/production-orders/${wo.id}/complete`, { method: 'POST', json: { quantity_completed: '4' } });
      const vendor = await ok(page, '/vendors/', { method: 'POST', json: { name: `Dash Supply ${RUN}` } });
      const po = await ok(page, '/purchase-orders/', {
        method: 'POST',
        json: { vendor_id: vendor.id, lines: [{ product_id: widget.id, quantity_ordered: '2', unit_cost: '15.00' }] },
      });
      await ok(page, `/purchase-orders/${po.id}/status`, { method: 'POST', json: { status: 'ordered' } });

      // The routes count what was added.
      const now = await figures(page, 'MTD');
      const placed = cents(Number(a.grand_total) + Number(b.grand_total) + Number(c.grand_total));
      assert.equal(now.sales.total_orders - base.sales.total_orders, 3, 'three orders more this month');
      assert.equal(cents(now.sales.total_revenue - base.sales.total_revenue), placed, 'their grand totals');
      assert.equal(now.sales.total_payment_count - base.sales.total_payment_count, 2, 'two payments');
      assert.equal(cents(now.sales.total_payments - base.sales.total_payments), cents(Number(a.grand_total) + 5), 'A in full and 5.00 of B');
      assert.equal(now.shipping.total_shipped - base.shipping.total_shipped, 2, 'two shipments');
      assert.equal(now.profit.shipments - base.profit.shipments, 2);
      assert.equal(now.summary.inventory.active_orders - base.summary.inventory.active_orders, 1, 'C is still open');
      const today = now.sales.end_date;
      const todayRow = now.sales.data.find((d) => d.date === today);
      assert.ok(todayRow && todayRow.orders >= 3, JSON.stringify(now.sales.data));

      // The page shows the routes' figures.
      shot = 'dashboard-mtd';
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), / }).waitFor();
      const cards = page.getByRole('region', { name: 'Key figures' });
      const card = (label) => cards.getByRole('link', { name: new RegExp(`^${label}`) });
      await card('Open orders').locator('.kpi__value').filter({ hasText: String(now.summary.inventory.active_orders) }).waitFor();
      assert.equal(await card('Revenue, 30 days').locator('.kpi__value').textContent(), money(now.summary.revenue.last_30_days));
      assert.equal(await card('Pending quotes').locator('.kpi__value').textContent(), String(now.summary.quotes.pending));
      assert.equal(await card('Work orders running').locator('.kpi__value').textContent(), String(now.summary.production.in_progress));
      assert.equal(await card('Low stock').locator('.kpi__value').textContent(), String(now.summary.inventory.low_stock_count));
      assert.equal(await card('Active BOMs').locator('.kpi__value').textContent(), String(now.summary.boms.active));

      await page.getByRole('radio', { name: 'Month', exact: true }).isChecked().then((c) => assert.ok(c, 'month to date by default'));
      await shows(page, 'sales-revenue', money(now.sales.total_revenue));
      await shows(page, 'sales-orders', String(now.sales.total_orders));
      await shows(page, 'sales-payments', money(now.sales.total_payments));
      await shows(page, 'shipping-total', String(now.shipping.total_shipped));
      await shows(page, 'profit-gross', money(now.profit.gross_profit));
      // B still owes 7.50 and C all of it.
      await shows(page, 'receivables-outstanding', money(now.cash.total_outstanding));
      assert.ok(Number(now.cash.total_outstanding) >= cents(Number(b.grand_total) - 5 + Number(c.grand_total)), JSON.stringify(now.cash));

      // The chart: one bar per day, today's figures in its accessible table and its tooltip.
      const sales = page.getByTestId('dash-sales');
      const chart = sales.getByRole('img', { name: /^Sales this month: / });
      await chart.waitFor();
      assert.match((await chart.getAttribute('aria-label')) ?? '', new RegExp(`${money(now.sales.total_revenue).replace('$', '\\$')} from ${now.sales.total_orders} orders`));
      await sales.locator('.recharts-bar-rectangle').first().waitFor();
      const todayLine = sales.getByRole('table', { name: 'Sales per day' }).getByRole('row', { name: new RegExp(`^${day(today)} `) });
      assert.deepEqual(
        (await todayLine.getByRole('cell').allTextContents()).map((t) => t.trim()),
        [day(today), money(todayRow.sales), String(todayRow.orders), money(todayRow.payments)],
      );
      await sales.locator('.recharts-bar').first().locator('.recharts-bar-rectangle').last().hover();
      const tip = sales.locator('.dash-tooltip');
      await tip.filter({ hasText: day(today) }).waitFor();
      assert.match(await tip.innerText(), new RegExp(`Sales \\(${todayRow.orders} orders\\)\\s*${money(todayRow.sales).replace('$', '\\$')}`));
      await screenshot(page, 'dashboard-sales-tooltip');
      await page.mouse.move(5, 5);

      // Open orders by state, the trends, and the latest orders (C on top, linking to its page).
      const states = page.getByTestId('dash-orders-by-state');
      await states.getByRole('link', { name: /^Pending \d+$/ }).waitFor();
      const production = page.getByTestId('production-made');
      assert.ok(Number(await production.textContent()) >= 4, 'four units made this month');
      await page.getByTestId('dash-production').locator('.recharts-bar-rectangle').first().waitFor();
      await page.getByTestId('dash-shipping').locator('.recharts-bar-rectangle').first().waitFor();
      const spend = Number((await page.getByTestId('purchasing-spend').textContent()).replace(/[$,]/g, ''));
      assert.ok(spend >= 30, `30.00 placed with the vendor at least (${spend})`);
      const recent = page.getByRole('table', { name: 'Recent orders' });
      const rowC = recent.getByRole('row', { name: new RegExp(c.order_number) });
      await rowC.waitFor();
      assert.match(await rowC.innerText(), new RegExp(`Dana Board ${RUN}`));
      assert.match(await rowC.innerText(), /Pending/);
      assert.match(await recent.getByRole('row', { name: new RegExp(a.order_number) }).innerText(), /Shipped[\s\S]*Paid/);
      await shoot(page, 'dashboard-mtd');

      await rowC.getByRole('link', { name: c.order_number }).click();
      await page.waitForURL(new RegExp(`/admin/orders/${c.id}$`));
      await page.goBack();
      await page.getByTestId('sales-revenue').waitFor();

      // Switching the period refetches every trend for it and keeps it in the URL.
      for (const [label, period, phrase] of [
        ['Year', 'YTD', 'this year'],
        ['Week', 'WTD', 'this week'],
        ['12 months', 'ALL', 'the last 12 months'],
      ]) {
        shot = `dashboard-${period.toLowerCase()}`;
        const want = await figures(page, period);
        await page.getByRole('radio', { name: label, exact: true }).click();
        await page.waitForURL(new RegExp(`[?&]period=${period}`));
        await sales.getByRole('img', { name: new RegExp(`^Sales ${phrase}: `) }).waitFor();
        await shows(page, 'sales-revenue', money(want.sales.total_revenue));
        await shows(page, 'sales-orders', String(want.sales.total_orders));
        await shows(page, 'sales-payments', money(want.sales.total_payments));
        await shows(page, 'shipping-total', String(want.shipping.total_shipped));
        await shows(page, 'profit-gross', money(want.profit.gross_profit));
        assert.ok(want.sales.total_orders >= now.sales.total_orders - base.sales.total_orders);
        assert.match(await page.getByTestId('dash-range').textContent(), new RegExp(`${day(want.sales.start_date)}.*${day(today)}`));
        await page.waitForTimeout(150);
        await shoot(page, `dashboard-${period.toLowerCase()}`);
      }
      // Long periods are drawn per week.
      assert.match(await sales.locator('.dash-panel__sub').textContent(), /per week/);
      await page.reload();
      await page.getByRole('radio', { name: '12 months', exact: true }).isChecked().then((c) => assert.ok(c, 'the period survives a reload'));

      // A card leads to its page.
      shot = 'dashboard-card-link';
      await page.getByRole('radio', { name: 'Month', exact: true }).click();
      await page.waitForURL((u) => !u.search.includes('period='));
      await card('Pending quotes').click();
      await page.waitForURL(/\/admin\/quotes\?status=pending$/);
      await page.getByRole('heading', { name: 'Quotes', exact: true }).waitFor();

      // Narrow screens stack the cards; nothing scrolls sideways.
      shot = 'dashboard-narrow';
      await page.setViewportSize(TABLET);
      await page.goto('/admin');
      await page.getByTestId('sales-revenue').waitFor();
      await page.getByTestId('dash-sales').locator('.recharts-bar-rectangle').first().waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= TABLET.width, `no horizontal scrolling (${width}px)`);
      await shoot(page, 'dashboard-narrow');

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });

  test('an operator gets the dashboard too', needsApi, async () => {
    const { context: adminContext, page: adminPage } = await newPage(browser, { baseURL: API_URL });
    const email = `dash-op-${RUN.toLowerCase()}@shop.test`;
    const password = 'Operator!2026a';
    try {
      await signIn(adminPage);
      await ok(adminPage, '/admin/users/', { method: 'POST', json: { email, password, first_name: 'Otto', account_type: 'operator' } });
    } finally {
      await adminContext.close();
    }
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let passed = false;
    try {
      await page.goto('/admin/login');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: /, Otto$/ }).waitFor({ timeout: 20_000 });
      await page.getByTestId('dash-recent-orders').waitFor();
      await page.getByTestId('sales-revenue').waitFor();
      assert.equal(await page.locator('.empty-state--error').count(), 0, 'no card failed');
      // Payments are for admins: that card is left out, the others are there.
      assert.equal((await pageApi(page, '/payments/dashboard')).status, 403);
      assert.equal(await page.getByTestId('dash-receivables').count(), 0);
      for (const id of ['dash-sales', 'dash-profit', 'dash-production', 'dash-shipping', 'dash-purchasing', 'dash-orders-by-state']) {
        assert.equal(await page.getByTestId(id).count(), 1, id);
      }
      await shoot(page, 'dashboard-operator');
      // An operator may open only their own orders, and the latest orders do not say whose
      // they are: they are listed without links.
      const recent = page.getByRole('table', { name: 'Recent orders' });
      assert.ok((await recent.getByRole('row').count()) > 1, 'the latest orders are listed');
      assert.equal(await recent.getByRole('link').count(), 0);
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, 'dashboard-operator-failed').catch(() => undefined);
      await context.close();
    }
  });
});
