// Customer messages in the browser against a real Strata server: an order for a new customer
// is set up through the API and the customer's e-mail about it is recorded there (unread for
// the team). The sidebar's Messages badge counts it; opening the conversation marks it read
// (the badge goes), a reply shows as our bubble, and the conversation survives a reload. On
// the order's page the Messages card lists it, and "Message customer" starts a second one.
// Screenshots go to test-results/screenshots (messages-*.png).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- messages
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

/** A full-page screenshot from the top (the shell's header and sidebar are sticky). */
async function shoot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The sidebar's unread badge: its number, or 0 when it is not shown. */
async function expectBadge(page, n) {
  const badge = page.getByRole('navigation', { name: 'Main navigation' }).getByTestId('nav-badge-unread-messages');
  if (n === 0) await badge.waitFor({ state: 'detached' });
  else await badge.getByText(String(n), { exact: true }).waitFor();
}

let browser;

describe('customer messages with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test("customer's e-mail -> badge -> read -> reply -> order page -> new message", needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'messages-setup';
    let passed = false;
    try {
      await signIn(page);

      // Set-up through the API: an item, a customer and their order; then the customer's
      // e-mail about it, recorded (unread for the team).
      const item = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `MSG-${RUN}`, name: `MSG-${RUN} (messages)`, item_type: 'component', procurement_type: 'buy', unit: 'EA', selling_price: '12.00' },
      });
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: { email: `msg-${RUN.toLowerCase()}@shop.test`, first_name: 'Mira', last_name: `Message ${RUN}` },
      });
      const order = await ok(page, '/sales-orders/', {
        method: 'POST',
        json: { lines: [{ product_id: item.id, quantity: 1 }], customer_id: customer.id, shipping_address_line1: '3 Letter Row', shipping_city: 'Portland' },
      });
      const unreadBefore = (await ok(page, '/notifications/unread-count')).unread_count;
      const subject = `Where is my order? ${RUN}`;
      const theirs = await ok(page, '/notifications', {
        method: 'POST',
        json: { sales_order_id: order.id, subject, body: 'Hello, when will my order ship? It is a gift.', sender_type: 'customer', source: 'email' },
      });
      assert.equal(theirs.sender_type, 'customer');
      assert.equal(theirs.source, 'email');
      assert.equal(theirs.read_at, null, "the customer's message is unread for the team");
      assert.equal(theirs.sales_order_id, order.id);
      const unread = unreadBefore + 1;
      assert.equal((await ok(page, '/notifications/unread-count')).unread_count, unread);

      // The badge counts it.
      shot = 'messages-badge';
      await page.goto('/admin');
      await expectBadge(page, unread);
      await shoot(page, 'messages-badge');

      // The inbox: the conversation, unread and awaiting a reply.
      shot = 'messages-inbox';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Messages/ }).click();
      await page.waitForURL(/\/admin\/messages$/);
      await page.getByRole('heading', { level: 1, name: 'Messages', exact: true }).waitFor();
      const list = page.getByRole('list', { name: 'Conversations' });
      const item1 = list.getByRole('button', { name: new RegExp(subject.replace(/[?]/g, '\\?')) });
      await item1.waitFor();
      await item1.getByText('1 unread', { exact: true }).waitFor();
      await item1.getByText('Awaiting reply', { exact: true }).waitFor();
      await item1.getByText(order.order_number, { exact: false }).waitFor();
      await shoot(page, 'messages-inbox');

      // Opening it marks it read: the chip and the badge go.
      shot = 'messages-thread';
      await item1.click();
      await page.waitForURL(new RegExp(`[?&]thread=${theirs.thread_id}`));
      await page.getByRole('heading', { level: 2, name: subject }).waitFor();
      const bubbles = page.getByRole('list', { name: 'Messages' }).getByTestId('message');
      await bubbles.first().getByText('It is a gift.', { exact: false }).waitFor();
      await bubbles.first().getByText('by e-mail', { exact: true }).waitFor();
      assert.match((await bubbles.first().getAttribute('class')) ?? '', /msg--theirs/);
      await expectBadge(page, unreadBefore);
      await item1.getByText('1 unread', { exact: true }).waitFor({ state: 'detached' });
      const read = await ok(page, `/notifications/${theirs.thread_id}`);
      assert.ok(read[0].read_at, 'opening the conversation marked it read');
      assert.equal((await ok(page, '/notifications/unread-count')).unread_count, unreadBefore);
      await shoot(page, 'messages-thread-read');

      // A reply: our bubble, on our side; the thread is no longer awaiting one.
      shot = 'messages-reply';
      const reply = page.getByRole('form', { name: 'Reply' });
      await reply.getByRole('checkbox', { name: 'E-mail to customer' }).waitFor();
      assert.equal(await reply.getByRole('checkbox', { name: 'E-mail to customer' }).isChecked(), true, 'e-mailing the customer is the default');
      await reply.getByLabel('Reply').fill(`It ships tomorrow, gift-wrapped. ${RUN}`);
      await screenshot(page, 'messages-reply-typed');
      await reply.getByRole('button', { name: 'Send reply' }).click();
      const ours = bubbles.filter({ hasText: `It ships tomorrow, gift-wrapped. ${RUN}` });
      await ours.waitFor();
      assert.match((await ours.getAttribute('class')) ?? '', /msg--ours/);
      assert.equal(await reply.getByLabel('Reply').inputValue(), '', 'the reply box is emptied');
      await item1.getByText('Awaiting reply', { exact: true }).waitFor({ state: 'detached' });
      const thread = await ok(page, `/notifications/${theirs.thread_id}`);
      assert.equal(thread.length, 2);
      assert.equal(thread[1].sender_type, 'admin');
      assert.equal(thread[1].source, 'admin');
      assert.ok(thread[1].read_at, 'our own message is born read');
      assert.equal(thread[1].emailed_to, null, 'no mail is configured: nothing was e-mailed');
      assert.ok(thread[1].sender_name, 'signed with our name');
      await ours.getByText(thread[1].sender_name, { exact: true }).waitFor();
      await shoot(page, 'messages-replied');

      // The conversation is in the URL: a reload opens it again.
      shot = 'messages-reload';
      await page.reload();
      await page.getByRole('heading', { level: 2, name: subject }).waitFor();
      await page.getByRole('list', { name: 'Messages' }).getByTestId('message').nth(1).waitFor();

      // The order's page: its Messages card lists the conversation and starts another.
      shot = 'messages-order';
      await page.goto(`/admin/orders/${order.id}`);
      await page.getByRole('heading', { level: 1, name: order.order_number }).waitFor();
      const card = page.getByRole('list', { name: 'Conversations about the order' });
      await card.getByRole('link', { name: subject, exact: true }).waitFor();
      await page.getByRole('list', { name: 'Order history' }).getByText('Message', { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Message customer' }).click();
      const dialog = page.getByRole('dialog', { name: `Message customer · ${order.order_number}` });
      await dialog.waitFor();
      // Subject and text are required (checked in the browser, nothing sent).
      await dialog.getByRole('button', { name: 'Send message' }).click();
      await dialog.getByText('Give the conversation a subject.').waitFor();
      const second = `Your tracking number ${RUN}`;
      await dialog.getByLabel(/^Subject/).fill(second);
      await dialog.getByLabel(/^Message/).fill('We will send the tracking number as soon as it ships.');
      await screenshot(page, 'messages-order-dialog');
      await dialog.getByRole('button', { name: 'Send message' }).click();
      await toast(page, 'Message sent');
      await dialog.waitFor({ state: 'detached' });
      await card.getByRole('link', { name: second, exact: true }).waitFor();
      await dismissToasts(page);
      await shoot(page, 'messages-order-card');
      const threads = await ok(page, `/notifications?sales_order_id=${order.id}`);
      assert.deepEqual(threads.map((t) => t.thread_subject).sort(), [second, subject].sort());
      assert.ok(threads.every((t) => t.unread_count === 0 && t.order_number === order.order_number));

      // Through the card's link to the inbox, on that conversation.
      shot = 'messages-from-order';
      await card.getByRole('link', { name: second, exact: true }).click();
      await page.waitForURL(/\/admin\/messages\?thread=/);
      await page.getByRole('heading', { level: 2, name: second }).waitFor();
      await page.getByRole('list', { name: 'Messages' }).getByText('We will send the tracking number as soon as it ships.').waitFor();
      await shoot(page, 'messages-from-order');

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
