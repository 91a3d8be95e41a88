// The Scheduler tab in the browser against a real Strata server (issue 32): a printer pool with
// two printers, a product with a routing (one print operation on the pool, 10 min set-up, 30 min
// run) and two released production orders are seeded through the API; then, on Production →
// Scheduler: Auto-schedule shop and its summary, the two bars on the board, one dragged onto the
// other's time on the same printer (refused: the message is shown on the bar and the bar stays),
// then moved with the keyboard to the other printer at a free time (accepted: the bar is in that
// lane and the API agrees). Screenshots of each step go to test-results/screenshots.
//
// It runs on the same server as api.test.mjs (which creates the administrator first) or on
// a fresh one of its own (it then creates the administrator itself):
//   STRATA_E2E_BASE_URL=http://127.0.0.1:8000 npm run e2e -- scheduler
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, HAS_API, launch, newPage, screenshot } from './lib/browser.mjs';
import { dismissToasts, ensureAdmin, needsApi, ok, signIn } from './lib/flow.mjs';

const RUN = Date.now().toString(36).toUpperCase();

let browser;

/** `YYYY-MM-DD`, `days` from today (UTC, as the server counts). */
const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Where operation `opId` is booked, from the board of the 14 days from today. */
async function booking(page, opId) {
  const from = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
  const to = new Date(from.getTime() + 14 * 86_400_000);
  const board = await ok(page, `/scheduling/board?start_date=${from.toISOString()}&end_date=${to.toISOString()}`);
  for (const lane of board.lanes) {
    const op = lane.operations.find((o) => o.id === opId);
    if (op) return { lane, op };
  }
  return null;
}

describe('scheduler with the real API', () => {
  before(async () => {
    if (!HAS_API) return;
    browser = await launch();
    await ensureAdmin();
  });
  after(async () => {
    await browser?.close();
  });

  test('auto-schedule the shop -> two bars -> a refused drag stays put -> a keyboard move to the other printer', needsApi, async () => {
    const { context, page, errors } = await newPage(browser, { baseURL: API_URL });
    let shot = 'scheduler-seed';
    let passed = false;
    try {
      await signIn(page);

      // A printer pool with two printers; a product made by printing on it; two released orders.
      const center = await ok(page, '/work-centers/', { method: 'POST', json: { code: `SCH-${RUN}`, name: `Print farm ${RUN}`, center_type: 'printer_pool', hourly_rate: '4.00' } });
      const printerA = await ok(page, '/printers/', { method: 'POST', json: { code: `SCA-${RUN}`, name: `X1C ${RUN}`, model: 'X1 Carbon', work_center_id: center.id, status: 'idle' } });
      const printerB = await ok(page, '/printers/', { method: 'POST', json: { code: `SCB-${RUN}`, name: `A1 mini ${RUN}`, model: 'A1 mini', work_center_id: center.id, status: 'idle' } });
      const product = await ok(page, '/items', {
        method: 'POST',
        json: { sku: `SCH-P-${RUN}`, name: `Scheduled widget ${RUN}`, item_type: 'finished_good', unit: 'EA', procurement_type: 'make', selling_price: '19.99' },
      });
      await ok(page, '/routings/', {
        method: 'POST',
        json: {
          product_id: product.id,
          name: `Print ${RUN}`,
          operations: [{ sequence: 10, operation_code: 'PRINT', operation_name: 'Print', work_center_id: center.id, setup_minutes: '10', run_minutes: '30' }],
        },
      });
      const orders = [];
      for (let i = 0; i < 2; i += 1) {
        const wo = await ok(page, '/production-orders/', { method: 'POST', json: { product_id: product.id, quantity_ordered: '1', due_date: inDays(10 + i) } });
        await ok(page, `/production-orders/${wo.id}/release`, { method: 'POST' });
        orders.push(await ok(page, `/production-orders/${wo.id}`));
      }
      const [woA, woB] = orders;
      const opA = woA.operations[0];
      const opB = woB.operations[0];
      assert.ok(opA && opB, `each order has its print operation: ${JSON.stringify(orders.map((o) => o.operations))}`);

      // Production → Scheduler; the orders wait in the queue.
      shot = 'scheduler-open';
      await page.goto('/admin/production');
      await page.getByRole('link', { name: 'Scheduler' }).click();
      await page.waitForURL(/tab=scheduler/);
      const queue = page.getByRole('complementary', { name: 'Unscheduled orders' });
      await queue.getByText(woA.code, { exact: true }).waitFor();
      await queue.getByText(woB.code, { exact: true }).waitFor();
      const board = page.getByRole('region', { name: 'Schedule board' });
      await board.locator(`[data-lane="printer-${printerA.id}"]`).waitFor();
      await board.locator(`[data-lane="printer-${printerB.id}"]`).waitFor();
      await screenshot(page, 'scheduler-queue');

      // Auto-schedule the shop: the summary, then both bars (the board's day is the first booking's).
      shot = 'scheduler-auto';
      await page.getByRole('button', { name: 'Auto-schedule shop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Auto-schedule summary' });
      await dialog.getByText('Operations booked').waitFor();
      const booked = Number((await dialog.locator('dd').first().textContent()).trim());
      assert.ok(booked >= 2, `at least our two operations were booked: ${booked}`);
      await screenshot(page, 'scheduler-auto-summary');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      let a = await booking(page, opA.id);
      let b = await booking(page, opB.id);
      assert.ok(a && b, 'both operations are booked within two weeks');
      const day = (o) => o.op.scheduled_start.slice(0, 10);
      // Go to the day of A's booking (the board opens on today).
      for (let i = 0; i < 14 && day(a) > (await currentDay(page)); i += 1) await page.getByRole('button', { name: 'Next day' }).click();
      const barA = board.locator(`[data-op="${opA.id}"]`);
      const barB = board.locator(`[data-op="${opB.id}"]`);
      await barA.waitFor();
      if (day(b) === day(a)) await barB.waitFor();
      assert.match((await barA.getAttribute('aria-label')) ?? '', new RegExp(`^${woA.code} PRINT on SC[AB]-${RUN}, \\d\\d:\\d\\d–\\d\\d:\\d\\d$`));
      await queue.getByText(woA.code, { exact: true }).waitFor({ state: 'detached' });
      await page.mouse.move(0, 0);
      await screenshot(page, 'scheduler-board');

      // Drag B onto A's time on A's printer: refused, the reason is on the bar, and it stays.
      shot = 'scheduler-refused';
      await barB.scrollIntoViewIfNeeded();
      const before = await barB.boundingBox();
      const target = await barA.boundingBox();
      await page.mouse.move(before.x + 4, before.y + before.height / 2);
      await page.mouse.down();
      await page.mouse.move(before.x + 20, before.y + before.height / 2, { steps: 4 });
      await page.mouse.move(target.x + 4, target.y + target.height / 2, { steps: 10 });
      await page.mouse.up();
      const callout = board.getByRole('alert');
      await callout.waitFor();
      const message = (await callout.locator('.sched-callout__msg').textContent()).trim();
      assert.ok(message.length > 0, 'the refusal says why');
      await board.locator(`[data-lane="${b.lane.key}"] [data-op="${opB.id}"].is-refused`).waitFor();
      // A refused bar shakes (0.4 s, ±5 px): wait for it to come to rest before measuring.
      const at = async () => {
        const box = await barB.boundingBox();
        return [Math.round(box.x), Math.round(box.y)];
      };
      const home = [Math.round(before.x), Math.round(before.y)];
      let still = await at();
      for (let i = 0; i < 40 && (still[0] !== home[0] || still[1] !== home[1]); i += 1) {
        await page.waitForTimeout(50);
        still = await at();
      }
      assert.deepEqual(still, home, 'the bar snapped back');
      assert.equal((await booking(page, opB.id)).op.scheduled_start, b.op.scheduled_start, 'the booking did not move');
      await screenshot(page, 'scheduler-refused');

      // The keyboard: B to the other printer, an hour after A ends (free there): accepted.
      shot = 'scheduler-keyboard';
      await callout.getByRole('button', { name: 'Dismiss' }).click();
      await callout.waitFor({ state: 'detached' });
      a = await booking(page, opA.id);
      b = await booking(page, opB.id);
      const other = b.lane.id === printerA.id ? printerB : printerA;
      const otherIndex = await laneIndex(board, `printer-${other.id}`);
      const ownIndex = await laneIndex(board, b.lane.key);
      const freeAt = other.id === a.lane.id ? Date.parse(a.op.scheduled_end) + 3_600_000 : Date.parse(b.op.scheduled_start);
      const quarters = Math.round((freeAt - Date.parse(b.op.scheduled_start)) / 900_000);
      await barB.focus();
      for (let i = 0; i < Math.abs(otherIndex - ownIndex); i += 1) await page.keyboard.press(otherIndex > ownIndex ? 'ArrowDown' : 'ArrowUp');
      for (let i = 0; i < Math.floor(quarters / 4); i += 1) await page.keyboard.press('Shift+ArrowRight');
      for (let i = 0; i < quarters % 4; i += 1) await page.keyboard.press('ArrowRight');
      assert.match((await barB.getAttribute('aria-label')) ?? '', new RegExp(` on ${other.code}, `));
      await page.keyboard.press('Enter');
      // The API says when the move is saved (the bar may leave the day shown, see below).
      let moved = await booking(page, opB.id);
      for (let i = 0; i < 100 && moved?.lane.id !== other.id; i += 1) {
        await page.waitForTimeout(100);
        moved = await booking(page, opB.id);
      }
      await board.getByRole('alert').waitFor({ state: 'detached', timeout: 2_000 }).catch(() => undefined);
      assert.equal(await board.getByRole('alert').count(), 0, 'the move was accepted');
      assert.equal(moved.lane.id, other.id, 'booked on the other printer');
      // Late in the day "an hour after A ends" is tomorrow, and the bar leaves the day shown: follow it.
      for (let i = 0; i < 2 && day(moved) > (await currentDay(page)); i += 1) await page.getByRole('button', { name: 'Next day' }).click();
      await board.locator(`[data-lane="printer-${other.id}"] [data-op="${opB.id}"]:not(.is-saving)`).waitFor();
      assert.equal(Date.parse(moved.op.scheduled_start), b.op.scheduled_start ? Date.parse(b.op.scheduled_start) + quarters * 900_000 : NaN);
      await dismissToasts(page);
      await page.mouse.move(0, 0);
      await screenshot(page, 'scheduler-moved');

      // Week view still shows both bars.
      await page.getByRole('button', { name: 'Week' }).click();
      await barB.waitFor();
      // A is in the same week unless the move crossed from a Sunday into a Monday.
      const monday = (d) => { const t = Date.parse(`${d}T00:00:00Z`); return t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000; };
      if (monday(day(a)) === monday(day(moved))) await barA.waitFor();
      await screenshot(page, 'scheduler-week');
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      passed = true;
    } finally {
      if (!passed) await screenshot(page, `${shot}-failed`).catch(() => undefined);
      await context.close();
    }
  });
});

/** The day the board shows (`YYYY-MM-DD`, from its first hour tick's window). */
async function currentDay(page) {
  return page.locator('.sched').getAttribute('data-start').then((s) => (s ?? '').slice(0, 10));
}

async function laneIndex(board, key) {
  const keys = await board.locator('[data-lane]').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
  return keys.indexOf(key);
}
