// The steps the API browser flows share: calls from inside the page with its session, the
// administrator, sign-in, toasts and the books. Each flow runs on the same server as
// api.test.mjs (which creates the administrator first) or on a fresh one of its own.
import assert from 'node:assert/strict';
import { API_URL, HAS_API } from './browser.mjs';

export const admin = { email: 'admin@example.com', password: 'Strata!2026a', name: 'Ada Admin' };
export const needsApi = { skip: !HAS_API && 'needs STRATA_E2E_BASE_URL (a running Strata server)' };

/** A call from inside the page with its session; renews the session once on a 401. */
export async function pageApi(page, path, init = {}) {
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

export async function ok(page, path, init) {
  const res = await pageApi(page, path, init);
  assert.ok(res.status === 200 || res.status === 201, `${init?.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Debits minus credits of each account of the trial balance. */
export async function balances(page) {
  const tb = await ok(page, '/accounting/trial-balance?include_zero_balances=true');
  assert.equal(tb.is_balanced, true, `trial balance: ${JSON.stringify(tb)}`);
  assert.equal(Number(tb.total_debits), Number(tb.total_credits));
  return Object.fromEntries(tb.accounts.map((a) => [a.account_code, Number(a.debit_balance) - Number(a.credit_balance)]));
}

export async function onHand(page, productId) {
  const s = await ok(page, `/admin/inventory/transactions/inventory-summary?product_id=${productId}&show_zero=true`);
  return s.items.reduce((n, r) => n + Number(r.on_hand_quantity), 0);
}

export const cents = (n) => Math.round(n * 100) / 100;

export async function ensureAdmin() {
  const status = await fetch(`${API_URL}/api/v1/setup/status`).then((r) => r.json());
  if (!status.needs_setup) return;
  const res = await fetch(`${API_URL}/api/v1/setup/initial-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(API_URL).origin },
    body: JSON.stringify({ email: admin.email, password: admin.password, full_name: admin.name, company_name: 'Hopper Print Works' }),
  });
  assert.equal(res.status, 200, `initial-admin: ${await res.text()}`);
}

export async function signIn(page) {
  await page.goto('/admin/login');
  await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('current-user').waitFor({ timeout: 20_000 });
}

/** Dismisses the toasts so a screenshot shows the page. */
export async function dismissToasts(page) {
  const buttons = page.locator('.toast').getByRole('button', { name: 'Dismiss' });
  while ((await buttons.count()) > 0) await buttons.first().click();
}

/** Waits for a success toast whose title is `title`. */
export async function toast(page, title) {
  await page.locator('.toast--success').filter({ hasText: title }).last().waitFor();
}
