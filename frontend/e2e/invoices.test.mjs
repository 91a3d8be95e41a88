// An invoice from shipping to paid in the browser against a real Strata server: an order of
// 3 bought components (10.00 each) for a net30 customer is confirmed and shipped through the
// API, which writes its invoice (a draft of 30.00). On the order's page the Invoices card
// lists it; its page downloads the PDF, marks it sent, refuses a payment above what is due,
// records 10.00 by check (partially paid, 20.00 due) and then the 20.00 left (paid). The
// invoices list shows it under Paid, the AR ageing agrees with the ledger, and the API and
// the trial balance are checked. Screenshots go to test-results/screenshots (inv-*.png).
//
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- invoices
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { balances, cents, dismissToasts, ensureAdmin, needsApi, ok, signIn, toast } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

/** Clicks a PDF link and checks the browser saved a PDF under the expected name. */
async function expectPdf(page, link, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.equal(download.suggestedFilename(), name);
  const bytes = await readFile(await download.path());
  assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${name} is a PDF`);
}

/** A full-page screenshot from the top (the shell's header and sidebar are sticky). */
async function shoot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

let browser;

describe('invoices with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('shipped order -> invoice -> PDF -> sent -> partly paid -> paid -> list, AR ageing and books', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'inv-setup';
    let passed = false;
    try {
      await signIn(page);

      // Set-up through the API: a bought component with stock, a net30 customer, and an
      // order of 3 confirmed and shipped (shipping writes the invoice).
      const item = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `INV-C-${RUN}`, name: `INV-C-${RUN} (inv)`, item_type: 'component', procurement_type: 'buy', unit: 'EA', selling_price: '10.00' },
      });
      await ok(page, '/admin/inventory/transactions', { method: 'POST', json: { product_id: item.id, transaction_type: 'receipt', quantity: '5', cost_per_unit: '4.00' } });
      const customer = await ok(page, '/admin/customers/', {
        method: 'POST',
        json: {
          email: `inv-${RUN.toLowerCase()}@shop.test`,
          first_name: 'Ivy',
          last_name: `Voice ${RUN}`,
          company_name: `Invoice Works ${RUN}`,
          payment_terms: 'net30',
          approved_for_terms: true,
        },
      });
      const created = await ok(page, '/sales-orders/', {
        method: 'POST',
        json: { lines: [{ product_id: item.id, quantity: 3 }], customer_id: customer.id, shipping_address_line1: '7 Ledger Lane', shipping_city: 'Portland' },
      });
      await ok(page, `/sales-orders/${created.id}/status`, { method: 'PATCH', json: { status: 'confirmed' } });
      await ok(page, `/sales-orders/${created.id}/ship`, { method: 'POST', json: {} });
      const order = await ok(page, `/sales-orders/${created.id}`);
      assert.equal(order.status, 'shipped');
      const listed = await ok(page, `/invoices?sales_order_id=${order.id}`);
      assert.equal(listed.length, 1, `shipping wrote one invoice: ${JSON.stringify(listed)}`);
      const inv = await ok(page, `/invoices/${listed[0].id}`);
      assert.equal(inv.status, 'draft');
      assert.equal(inv.sales_order_id, order.id);
      assert.equal(inv.customer_id, customer.id);
      assert.equal(inv.payment_terms, 'net30');
      assert.equal(Number(inv.subtotal), 30, '3 × 10.00');
      assert.equal(Number(inv.total), Number(order.grand_total), "the invoice bills the order's grand total");
      assert.equal(Number(inv.amount_due), Number(inv.total));
      const total = Number(inv.total);
      assert.equal(total, 30, 'no tax or shipping on the order');

      // The order's page: the Invoices card lists the invoice; through to its page.
      shot = 'inv-order';
      await page.goto(`/admin/orders/${order.id}`);
      const card = page.getByRole('table', { name: 'Invoices of the order' });
      const row = card.getByRole('row', { name: new RegExp(inv.invoice_number) });
      await row.waitFor();
      await row.getByText('Draft', { exact: true }).waitFor();
      await row.getByText('$30.00').first().waitFor();
      await shoot(page, 'inv-order-card');
      await row.getByRole('link', { name: inv.invoice_number, exact: true }).click();
      await page.waitForURL(new RegExp(`/admin/invoices/${inv.id}$`));
      await page.getByRole('heading', { level: 1, name: inv.invoice_number }).waitFor();
      const badges = page.locator('.wo-badges');
      await badges.getByText('Draft', { exact: true }).waitFor();
      await badges.getByText('Net 30', { exact: true }).waitFor();
      await page.getByRole('table', { name: 'Invoice lines' }).getByText(item.name).waitFor();
      await page.getByTestId('total').getByText('$30.00').waitFor();
      await page.getByTestId('amount-due').getByText('$30.00').waitFor();
      await page.getByRole('link', { name: order.order_number, exact: true }).waitFor();
      await shoot(page, 'inv-detail-draft');

      // The PDF, under the invoice's number.
      shot = 'inv-pdf';
      await expectPdf(page, page.getByRole('link', { name: `PDF of ${inv.invoice_number}` }), `${inv.invoice_number}.pdf`);

      // Mark it sent (no mail is configured): the chip shows Sent, "Mark sent" goes away.
      shot = 'inv-sent';
      await page.getByRole('button', { name: 'Mark sent' }).click();
      await toast(page, 'Marked sent');
      await badges.getByText('Sent', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Mark sent' }).waitFor({ state: 'detached' });
      const sent = await ok(page, `/invoices/${inv.id}`);
      assert.equal(sent.status, 'sent');
      assert.ok(sent.sent_at, 'the sending is recorded');
      await dismissToasts(page);
      await shoot(page, 'inv-detail-sent');

      // A payment above what is due is refused in the dialog; 10.00 by check is recorded.
      shot = 'inv-payment-dialog';
      await page.getByRole('button', { name: 'Record payment' }).click();
      let dialog = page.getByRole('dialog', { name: `Record a payment · ${inv.invoice_number}` });
      const amountField = dialog.getByLabel(/^Amount/);
      assert.equal(await amountField.inputValue(), '30.00', 'the amount starts at what is due');
      await amountField.fill('30.01');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await dialog.getByText('At most $30.00 is due on this invoice.').waitFor();
      await amountField.fill('10.00');
      await dialog.getByLabel(/^Method/).selectOption('check');
      await dialog.getByLabel(/^Reference/).fill(`CHK-${RUN}`);
      await screenshot(page, 'inv-payment-dialog');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await toast(page, 'Payment recorded');
      await dialog.waitFor({ state: 'detached' });
      await badges.getByText('Partially paid', { exact: true }).waitFor();
      await page.getByTestId('amount-due').getByText('$20.00').waitFor();
      await page.getByTestId('paid').getByText('$10.00').waitFor();
      await page.getByTestId('payment-details').getByText(`Check · ref. CHK-${RUN}`).waitFor();
      const partly = await ok(page, `/invoices/${inv.id}`);
      assert.equal(partly.status, 'partially_paid');
      assert.equal(Number(partly.amount_paid), 10);
      assert.equal(Number(partly.amount_due), 20);
      await dismissToasts(page);
      await shoot(page, 'inv-detail-partly-paid');

      // The 20.00 left: paid in full; nothing more can be recorded.
      shot = 'inv-paid';
      await page.getByRole('button', { name: 'Record payment' }).click();
      dialog = page.getByRole('dialog', { name: `Record a payment · ${inv.invoice_number}` });
      assert.equal(await dialog.getByLabel(/^Amount/).inputValue(), '20.00', 'the amount starts at what is still due');
      await dialog.getByLabel(/^Method/).selectOption('check');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await toast(page, 'Payment recorded');
      await dialog.waitFor({ state: 'detached' });
      await badges.getByText('Paid', { exact: true }).waitFor();
      await page.getByTestId('amount-due').getByText('$0.00').waitFor();
      await page.getByTestId('paid').getByText('$30.00').waitFor();
      await page.getByRole('button', { name: 'Record payment' }).waitFor({ state: 'detached' });
      await dismissToasts(page);
      await shoot(page, 'inv-paid');

      // The invoices list, Paid tab: the invoice is there, paid, nothing due.
      shot = 'inv-list';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Invoices', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Invoices', exact: true }).waitFor();
      await page.getByRole('tablist', { name: 'Invoice status' }).getByRole('tab', { name: 'Paid', exact: true }).click();
      await page.waitForURL(/[?&]status=paid\b/);
      // The list has loaded the Paid tab (not still showing All while it fetches).
      await page.locator('section.datatable[aria-label="Invoices"]:not([aria-busy])').waitFor();
      const table = page.getByRole('table', { name: 'Invoices' });
      const listRow = table.getByRole('row', { name: `Open ${inv.invoice_number}` });
      await listRow.waitFor();
      await listRow.getByText('Paid', { exact: true }).waitFor();
      await listRow.getByText(order.order_number, { exact: true }).waitFor();
      assert.match(await listRow.innerText(), /\$30\.00[\s\S]*\$0\.00/);
      // Every row on the Paid tab is paid.
      for (const r of await table.locator('tbody tr').all()) assert.match(await r.innerText(), /\bPaid\b/);
      await shoot(page, 'inv-list');

      // Accounting -> AR ageing: 1100 agrees with the open invoices.
      shot = 'inv-aging';
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Accounting', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Accounting', exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Accounting sections' }).getByRole('link', { name: 'AR ageing', exact: true }).click();
      await page.waitForURL(/[?&]tab=receivables\b/);
      await page.getByRole('heading', { name: 'Accounts receivable ageing' }).waitFor();
      await page.getByTestId('ledger-check').getByText('Reconciled').waitFor();
      await page.getByText('Agrees with 1100', { exact: true }).waitFor();
      assert.equal(await page.getByText('Ledger differs').count(), 0, 'the ledger agrees with the open invoices');
      const aging = await ok(page, '/admin/accounting/ar-aging');
      assert.equal(aging.ledger_agrees, true, `ar-aging: ${JSON.stringify(aging)}`);
      assert.ok(!aging.customers.some((c) => c.customer_id === customer.id), 'the customer owes nothing any more');
      await shoot(page, 'inv-aging');

      // The API: paid, nothing due; the trial balance is balanced.
      const paid = await ok(page, `/invoices/${inv.id}`);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.amount_due, '0.00');
      assert.equal(Number(paid.amount_paid), total);
      assert.equal(paid.payment_method, 'check');
      assert.ok(paid.paid_at, 'paid in full is stamped');
      assert.equal((await ok(page, `/sales-orders/${order.id}`)).payment_status, 'paid', 'the order is paid with its invoice');
      const tb = await ok(page, '/accounting/trial-balance');
      assert.equal(tb.total_debits, tb.total_credits, 'total debits equal total credits');
      await balances(page);
      assert.equal(cents(Number(aging.ledger_balance) - Number(aging.totals.total)), 0);

      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});
