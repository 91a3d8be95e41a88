// Browser tests that need no API: frontend/dist on a plain static server whose
// /api answers 502 (run.mjs starts it), i.e. what the SPA does while the back end
// is down. The flows against the real server are in api.test.mjs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HAS_STATIC, STATIC_URL, TABLET, launch, newPage, screenshot } from './lib/browser.mjs';

const OPERATOR = {
  id: 7,
  email: 'olivia@example.com',
  first_name: 'Olivia',
  last_name: 'Ops',
  account_type: 'operator',
  status: 'active',
};
const ADMIN = { ...OPERATOR, id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'Admin', account_type: 'admin' };

let browser;
before(async () => {
  if (!HAS_STATIC) return;
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function withPage(name, opts, fn) {
  const { context, page, errors } = await newPage(browser, { ...opts, baseURL: STATIC_URL });
  try {
    await fn(page);
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
  } finally {
    await screenshot(page, name).catch(() => undefined);
    await context.close();
  }
}

const staticOnly = { skip: !HAS_STATIC && 'needs E2E_STATIC_URL (run the browser tests with `npm run e2e`)' };

describe('without an API', () => {
  test('sign-in page shows that the server cannot be reached', staticOnly, async () => {
    await withPage('login-server-unreachable', {}, async (page) => {
      await page.goto('/admin/login');
      await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
      const banner = page.getByTestId('server-unreachable');
      await banner.waitFor();
      assert.match(await banner.innerText(), /Cannot reach the Strata server/);
      assert.equal(await page.title(), 'Sign in to Strata · Strata');

      // Signing in still gives a plain message, and the button comes back.
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Secret1!');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const error = page.locator('.alert--error');
      await error.waitFor();
      assert.match(await error.innerText(), /not responding|reach/i);
      assert.equal(await page.getByRole('button', { name: 'Sign in' }).isEnabled(), true);
    });
  });

  test('sign-in form validates before sending', staticOnly, async () => {
    await withPage('login-validation', {}, async (page) => {
      await page.goto('/admin/login');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Enter your email address.').waitFor();
      await page.getByText('Enter your password.').waitFor();
      assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
    });
  });

  test('sign-in page is keyboard friendly', staticOnly, async () => {
    await withPage('login-keyboard', {}, async (page) => {
      await page.goto('/admin/login');
      await page.getByLabel('Email').waitFor();
      // The email field has the focus on arrival; Tab walks email → password → show password.
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'username');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'password');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Show password');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Forgot your password?');
    });
  });

  test('onboarding step 1 checks the password rules as you type', staticOnly, async () => {
    await withPage('onboarding-password-rules', {}, async (page) => {
      await page.goto('/onboarding');
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await page.getByText('Step 1 of 7').waitFor();
      const steps = await page.locator('.stepper__item').count();
      assert.equal(steps, 7);

      const rule = (id) => page.locator(`.rules [data-rule="${id}"]`).first();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('abc');
      assert.equal(await rule('lower').getAttribute('data-ok'), 'true');
      assert.equal(await rule('upper').getAttribute('data-ok'), 'false');
      assert.equal(await rule('length').getAttribute('data-ok'), 'false');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Abcdefg1!');
      for (const id of ['length', 'upper', 'lower', 'digit', 'special']) {
        assert.equal(await rule(id).getAttribute('data-ok'), 'true', id);
      }

      await page.getByLabel('Full name').fill('Ada Admin');
      await page.getByLabel('Work email').fill('ada@shop.local');
      await page.getByRole('textbox', { name: 'Confirm password', exact: true }).fill('Abcdefg1?');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('The passwords don’t match.').waitFor();
      await page.getByText(/Addresses ending in \.local are reserved/).waitFor();
    });
  });

  test('onboarding at tablet width', staticOnly, async () => {
    await withPage('onboarding-tablet', { viewport: TABLET }, async (page) => {
      await page.goto('/onboarding');
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Weak');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 768, `no horizontal scrolling (${width}px)`);
    });
  });

  test('forgot-password form validates the address', staticOnly, async () => {
    await withPage('forgot-password-validation', {}, async (page) => {
      await page.goto('/forgot-password');
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByRole('button', { name: 'Request reset' }).click();
      await page.getByText('Enter your email address.').waitFor();
      await page.getByLabel('Email').fill('not-an-address');
      await page.getByRole('button', { name: 'Request reset' }).click();
      await page.getByText(/Enter a valid email address/).waitFor();
      await page.getByLabel('Email').fill('someone@printfarm.local');
      await page.getByRole('button', { name: 'Request reset' }).click();
      await page.getByText(/\.local are reserved/).waitFor();
    });
  });

  test('a reset link explains itself when the server is down', staticOnly, async () => {
    await withPage('reset-link-server-down', {}, async (page) => {
      await page.goto('/reset-password/some-token');
      await page.getByTestId('reset-unavailable').waitFor();
      await page.getByRole('button', { name: 'Try again' }).waitFor();
    });
  });

  test('password-reset approval page (approve, deny with a reason)', staticOnly, async () => {
    await withPage('password-reset-unknown-action', {}, async (page) => {
      await page.goto('/admin/password-reset/approve/tok-123');
      await page.getByRole('heading', { name: 'Approve password reset' }).waitFor();
      await page.getByRole('button', { name: 'Approve reset' }).waitFor();
      await page.goto('/admin/password-reset/deny/tok-123');
      await page.getByRole('heading', { name: 'Deny password reset' }).waitFor();
      await page.getByLabel('Reason (optional)').fill('Not requested by the account owner');
      await page.getByRole('button', { name: 'Deny reset' }).click();
      await page.locator('.alert--error').waitFor();
      await screenshot(page, 'password-reset-deny');
      await page.goto('/admin/password-reset/maybe/tok-123');
      await page.getByTestId('not-found').waitFor();
    });
  });

  test('unknown addresses get a not-found page', staticOnly, async () => {
    await withPage('not-found', {}, async (page) => {
      const res = await page.goto('/no/such/page');
      assert.equal(res?.status(), 200, 'deep links are served index.html');
      await page.getByTestId('not-found').waitFor();
      await page.getByRole('heading', { name: 'We couldn’t find that page' }).waitFor();
    });
  });

  test('admin pages send visitors without a session to sign in', staticOnly, async () => {
    await withPage('redirect-to-login', {}, async (page) => {
      await page.goto('/admin/items');
      await page.waitForURL('**/admin/login');
      await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
      await page.goto('/');
      await page.waitForURL('**/admin/login');
    });
  });

  // The shell with a stored profile, as a cookie-mode session leaves it. The API is
  // down, so this checks the client-side guard and the error states; the server's own
  // refusal of operators is covered in api.test.mjs.
  test('operators do not see admin sections and are refused at admin URLs', staticOnly, async () => {
    await withPage('operator-settings-refused', { storage: { adminUser: JSON.stringify(OPERATOR) } }, async (page) => {
      await page.goto('/admin/users');
      await page.getByTestId('not-allowed').waitFor();
      await screenshot(page, 'operator-not-allowed');
      const nav = page.getByRole('navigation');
      await nav.getByRole('link', { name: 'Items' }).waitFor();
      for (const hidden of ['Team Members', 'Customers', 'Invoices', 'Payments', 'Settings', 'Security Audit', 'Locations']) {
        assert.equal(await nav.getByRole('link', { name: hidden }).count(), 0, `${hidden} is hidden`);
      }
      assert.equal(await nav.getByRole('button', { name: 'Admin' }).count(), 0, 'no ADMIN group');
      await page.goto('/admin/settings');
      await page.getByTestId('not-allowed').waitFor();
    });
  });

  test('admin shell: sidebar groups, collapse remembered, items error state', staticOnly, async () => {
    await withPage('admin-sidebar-toggle', { storage: { adminUser: JSON.stringify(ADMIN) } }, async (page) => {
      await page.goto('/admin/items');
      await page.getByRole('heading', { name: 'Items', level: 1 }).waitFor();
      await page.getByTestId('current-user').filter({ hasText: 'Ada Admin' }).waitFor();
      const nav = page.getByRole('navigation');
      for (const group of ['Sales', 'Inventory', 'Operations', 'Quality', 'Admin']) {
        await nav.getByRole('button', { name: group }).waitFor();
      }
      await nav.getByRole('link', { name: 'Team Members' }).waitFor();
      await page.getByText('Cannot reach the server').waitFor({ timeout: 15_000 });
      await screenshot(page, 'admin-items-server-down');

      await page.getByRole('button', { name: 'Collapse sidebar' }).first().click();
      assert.equal(await page.evaluate(() => localStorage.getItem('sidebarOpen')), 'false');
      await page.reload();
      await page.locator('.shell--collapsed').waitFor();
      await page.getByRole('button', { name: 'Expand sidebar' }).first().click();
      assert.equal(await page.evaluate(() => localStorage.getItem('sidebarOpen')), 'true');
      await page.waitForTimeout(300);
    });
  });

  test('a list route answering 404 shows the usual error state; /admin/products goes to items', staticOnly, async () => {
    await withPage('products-redirect', { storage: { adminUser: JSON.stringify(ADMIN) } }, async (page) => {
      // Every page has its back end: a 404 from a list route is an error like any other.
      await page.route(/\/api\/v1\/scrap-reasons\b/, (route) =>
        route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: 'not_found', message: 'Not found' }) }),
      );
      await page.goto('/admin/scrap-reasons');
      await page.getByRole('heading', { name: 'Scrap Reasons', level: 1 }).waitFor();
      const alert = page.getByRole('alert').filter({ hasText: 'Could not load this' });
      await alert.waitFor();
      assert.match(await alert.innerText(), /Not found/);
      await alert.getByRole('button', { name: 'Try again' }).waitFor();
      await screenshot(page, 'scrap-reasons-404');
      await page.goto('/admin/products');
      await page.waitForURL('**/admin/items');
    });
  });

  test('admin shell at tablet width', staticOnly, async () => {
    await withPage('dashboard-tablet', { viewport: TABLET, storage: { adminUser: JSON.stringify(ADMIN) } }, async (page) => {
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('.kpi-grid__notice, .kpi--link').first().waitFor({ timeout: 15_000 });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 768, `no horizontal scrolling (${width}px)`);
    });
  });
});
