// An order's history, tracking and required orders in the browser against a real Strata
// server: a customer, two items and two orders seeded through the API (one shipped from
// stock, one confirmed without stock so it needs a production order); on the order page a
// note is refused empty, then added and shown in the history; an in_transit tracking
// update appears in the timeline and a delivered one moves the order to delivered; the
// other order lists its production order with a link; the orders list is searched by
// order number and by tracking number (server-side, kept in the URL). A route answering
// 404 fails the test (`ok` asserts 200/201, and the page's sections would show an error).
// Screenshots go to test-results/screenshots.
//
// It runs on the same server as api.test.mjs (which creates the administrator first) or on
// a fresh one of its own (it then creates the administrator itself):
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- sales-history
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, DESKTOP, HAS_API, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, pageApi, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

describe('sales order history, tracking and search with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('note -> history; in_transit and delivered -> timeline and status; required orders; list search', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'sales-history';
    let passed = false;
    try {
      await signIn(page);

      // Seed through the API: a customer, a stocked item and a made-to-order item.
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: {
          email: `history-${RUN.toLowerCase()}@example.com`,
          first_name: 'Hedy',
          last_name: `History ${RUN}`,
          shipping_address_line1: '1 Main St',
          shipping_city: 'Springfield',
          shipping_state: 'IL',
          shipping_zip: '62701',
        },
      });
      const stocked = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `HIS-${RUN}`, name: `History widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '12.50' },
      });
      const made = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `HMK-${RUN}`, name: `Made widget ${RUN}`, item_type: 'finished_good', unit: 'EA', selling_price: '9.00', procurement_type: 'make' },
      });
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: stocked.id, transaction_type: 'receipt', quantity: '5', cost_per_unit: '4.00' } });

      // Order 1: from stock, confirmed and shipped with a tracking number of its own.
      const tracking = `TRK${RUN}`;
      const order = await ok(page, '/sales-orders/', { method: 'POST', json: { customer_id: customer.id, lines: [{ product_id: stocked.id, quantity: 2 }] } });
      await ok(page, `/sales-orders/${order.id}/status`, { method: 'PATCH', json: { status: 'confirmed' } });
      await ok(page, `/sales-orders/${order.id}/ship`, { method: 'POST', json: { carrier: 'UPS', service: 'Ground', tracking_number: tracking } });
      // Order 2: nothing in stock, so confirming creates a production order.
      const other = await ok(page, '/sales-orders/', { method: 'POST', json: { customer_id: customer.id, lines: [{ product_id: made.id, quantity: 3 }] } });
      await ok(page, `/sales-orders/${other.id}/status`, { method: 'PATCH', json: { status: 'confirmed' } });

      // The routes this page needs exist (a 404 fails here, not later).
      assert.deepEqual((await ok(page, `/sales-orders/${order.id}/shipping-events`)).items, []);
      assert.deepEqual((await ok(page, `/sales-orders/${order.id}/required-orders`)).production_orders, []);
      const needed = (await ok(page, `/sales-orders/${other.id}/required-orders`)).production_orders;
      assert.equal(needed.length, 1, `one production order for ${other.order_number}: ${JSON.stringify(needed)}`);

      // The order page: shipped, no production orders, no tracking yet.
      shot = 'sales-history-order';
      await page.goto(`/admin/orders/${order.id}`);
      await page.getByRole('heading', { name: order.order_number, exact: true }).waitFor();
      const badges = page.locator('.wo-badges');
      await badges.getByText('Shipped', { exact: true }).first().waitFor();
      await page.getByText('No production orders', { exact: true }).waitFor();
      await page.getByText('No tracking updates yet.').waitFor();

      // Add note: refused empty, then in the history.
      shot = 'sales-history-note';
      const note = `Customer asked for a Friday delivery ${RUN}`;
      await page.getByRole('button', { name: 'Add note' }).click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^Note/).fill('   ');
      await dialog.getByRole('button', { name: 'Add note' }).click();
      await dialog.getByText('Write the note.').waitFor();
      await dialog.getByLabel(/^Note/).fill(`  ${note}  `);
      await dialog.getByLabel('Details').fill('Called at 10:00');
      await screenshot(page, 'sales-history-note-dialog');
      await dialog.getByRole('button', { name: 'Add note' }).click();
      await toast(page, 'Note added');
      await dialog.waitFor({ state: 'detached' });
      const history = page.getByRole('list', { name: 'Order history' });
      await history.getByText(note, { exact: false }).waitFor();
      await history.getByText(/Called at 10:00/).waitFor();
      const events = (await ok(page, `/sales-orders/${order.id}/events`)).items;
      const saved = events.find((e) => e.event_type === 'note');
      assert.ok(saved, `a note event: ${JSON.stringify(events)}`);
      assert.equal(saved.title, note, 'the note is sent trimmed');
      await dismissToasts(page);
      await screenshot(page, 'sales-history-note');

      // Tracking update: in_transit in the timeline.
      shot = 'sales-history-tracking';
      await page.getByRole('button', { name: 'Tracking update' }).click();
      dialog = page.getByRole('dialog');
      const types = await dialog.getByLabel('Event').locator('option').evaluateAll((os) => os.map((o) => o.value));
      assert.deepEqual(types, ['label_created', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_attempted', 'exception', 'returned_to_sender']);
      await dialog.getByLabel('Event').selectOption('in_transit');
      await dialog.getByLabel('Location').fill(`Memphis hub ${RUN}`);
      await dialog.getByLabel('Description').fill('Departed facility');
      await dialog.getByRole('button', { name: 'Record update' }).click();
      await toast(page, 'Tracking updated');
      await dialog.waitFor({ state: 'detached' });
      const timeline = page.getByRole('table', { name: 'Tracking timeline' });
      const transit = timeline.getByRole('row').filter({ hasText: `Memphis hub ${RUN}` });
      await transit.getByText('In transit', { exact: true }).waitFor();
      await transit.getByText('Departed facility').waitFor();
      await transit.getByText('Entered by hand').waitFor();
      const recorded = (await ok(page, `/sales-orders/${order.id}/shipping-events`)).items;
      assert.deepEqual(
        recorded.map((e) => [e.event_type, e.location, e.tracking_number]),
        [['in_transit', `Memphis hub ${RUN}`, tracking]],
      );
      await badges.getByText('Shipped', { exact: true }).first().waitFor();
      await dismissToasts(page);
      await screenshot(page, 'sales-history-in-transit');

      // Delivered, reported by the carrier: the order's status follows without a reload.
      shot = 'sales-history-delivered';
      await page.getByRole('button', { name: 'Tracking update' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Event').selectOption('delivered');
      await dialog.getByLabel('Reported by').selectOption('carrier');
      await dialog.getByRole('button', { name: 'Record update' }).click();
      await toast(page, 'Tracking updated');
      await badges.getByText('Delivered', { exact: true }).first().waitFor();
      await timeline.getByRole('row').filter({ hasText: 'Carrier' }).getByText('Delivered', { exact: true }).waitFor();
      assert.equal((await ok(page, `/sales-orders/${order.id}`)).status, 'delivered');
      await dismissToasts(page);
      await screenshot(page, 'sales-history-delivered');
      // 768 px wide: the page does not scroll sideways.
      await page.setViewportSize(TABLET);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= TABLET.width, `no horizontal scrolling (${width}px)`);
      await screenshot(page, 'sales-history-tablet');
      await page.setViewportSize(DESKTOP);

      // The other order needs a production order: listed with a link to its page.
      shot = 'sales-history-required';
      await page.goto(`/admin/orders/${other.id}`);
      await page.getByRole('heading', { name: other.order_number, exact: true }).waitFor();
      const required = page.getByRole('table', { name: 'Required orders' });
      const wo = needed[0];
      await required.getByRole('row').filter({ hasText: wo.code }).getByText(/Draft|Released|In progress/).waitFor();
      await page.getByText('Tracking updates can be recorded once the order ships.').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Tracking update' }).count(), 0, 'no tracking update before shipping');
      await screenshot(page, 'sales-history-required-orders');
      await required.getByRole('link', { name: wo.code }).click();
      await page.waitForURL(new RegExp(`/admin/production/${wo.id}$`));
      await page.getByRole('heading', { name: wo.code }).first().waitFor();

      // Orders list: the search goes to the server, lands in the URL and finds exactly one order.
      shot = 'sales-history-search';
      const searched = await pageApi(page, `/sales-orders/?search=${encodeURIComponent(order.order_number)}`);
      assert.equal(searched.status, 200, `search: ${searched.status} ${JSON.stringify(searched.body)}`);
      assert.deepEqual(
        searched.body.map((o) => o.order_number),
        [order.order_number],
      );
      await page.goto('/admin/orders');
      await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
      const table = page.getByRole('table', { name: 'Sales orders' });
      await table.getByText(other.order_number, { exact: true }).waitFor();
      const search = page.getByRole('searchbox', { name: 'Search orders' });
      const answered = page.waitForResponse((r) => r.url().includes('/api/v1/sales-orders/') && r.url().includes(`search=${encodeURIComponent(order.order_number)}`));
      await search.fill(order.order_number);
      assert.equal((await answered).status(), 200);
      await page.waitForURL((u) => u.searchParams.get('q') === order.order_number);
      await table.getByText(other.order_number, { exact: true }).waitFor({ state: 'detached' });
      const rows = table.locator('tbody tr');
      await rows.first().getByText(order.order_number, { exact: true }).waitFor();
      assert.equal(await rows.count(), 1, 'exactly the searched order');
      await screenshot(page, 'sales-history-search');

      // By tracking number, from a bookmarked URL.
      await page.goto(`/admin/orders?q=${encodeURIComponent(tracking)}`);
      await table.getByText(order.order_number, { exact: true }).waitFor();
      assert.equal(await search.inputValue(), tracking);
      assert.equal(await rows.count(), 1, 'the tracking number finds its order only');
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
