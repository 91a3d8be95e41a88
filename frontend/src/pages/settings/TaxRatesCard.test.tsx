import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { TaxRatesCard } from './TaxRatesCard';

const json = (status: number, body: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const rate = (id: number, name: string, rate_percent: number, region: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  rate: String(rate_percent / 100),
  rate_percent,
  description: null,
  region,
  is_default: false,
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...extra,
});

interface Call {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

function stubServer(rates: unknown[], answer: (call: Call) => Response | undefined = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init.method ?? 'GET', path: url.pathname, query: url.search, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      const own = answer(call);
      if (own) return own;
      if (url.pathname === '/api/v1/tax-rates' && call.method === 'GET') {
        const all = url.searchParams.get('include_inactive') === 'true';
        return json(200, all ? rates : rates.filter((r) => (r as { is_active: boolean }).is_active));
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return calls;
}

function renderCard() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <TaxRatesCard />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Settings: tax rates', () => {
  it('explains the company rate is used when there are no named rates', async () => {
    stubServer([]);
    renderCard();
    expect(await screen.findByText('No active tax rates')).toBeInTheDocument();
    expect(screen.getByText(/company tax rate above/)).toBeInTheDocument();
  });

  it('lists the rates with the default badge, and shows inactive ones on request', async () => {
    const calls = stubServer([
      rate(1, 'Texas', 8.25, 'TX', { is_default: true }),
      rate(2, 'Oregon', 0, 'OR'),
      rate(3, 'Old county', 1.5, null, { is_active: false }),
    ]);
    renderCard();
    const table = await screen.findByRole('table', { name: 'Tax rates' });
    const texas = within(table).getByText('Texas').closest('tr') as HTMLElement;
    expect(texas).toHaveTextContent('8.25%');
    expect(texas).toHaveTextContent('TX');
    expect(within(texas).getByText('Default')).toBeInTheDocument();
    expect(within(table).queryByText('Old county')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Show inactive' }));
    const old = (await screen.findByText('Old county')).closest('tr') as HTMLElement;
    expect(within(old).getByText('Inactive')).toBeInTheDocument();
    expect(within(old).queryByRole('button', { name: 'Delete Old county' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'GET' && c.query === '?include_inactive=true')).toBe(true);
  });

  it('adds a rate, and puts a duplicate name and a bad rate on their fields', async () => {
    let attempt = 0;
    const calls = stubServer([], (c) => {
      if (c.method !== 'POST') return undefined;
      attempt += 1;
      if (attempt === 1) return json(400, { detail: "A tax rate named 'Texas' already exists" });
      if (attempt === 2) return json(422, { details: { errors: [{ field: 'rate_percent', message: 'At most 4 decimals', type: 'value_error' }] } });
      return json(201, rate(9, 'Texas 2', 8.25, 'TX'));
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Add tax rate' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Texas');
    await userEvent.type(within(dialog).getByLabelText(/Rate \(%\)/), '8.25');
    await userEvent.type(within(dialog).getByLabelText(/Region/), 'TX');
    const submit = () => userEvent.click(within(dialog).getByRole('button', { name: 'Add tax rate' }));

    await submit();
    expect(await within(dialog).findByText("A tax rate named 'Texas' already exists")).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Texas', rate_percent: '8.25', region: 'TX', description: null, is_default: false });

    await submit();
    expect(await within(dialog).findByText('At most 4 decimals')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Rate \(%\)/)).toHaveAttribute('aria-invalid', 'true');

    await submit();
    expect(await screen.findByText('Tax rate added')).toBeInTheDocument();
  });

  it('checks the rate before sending it', async () => {
    const calls = stubServer([]);
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Add tax rate' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Too much');
    await userEvent.type(within(dialog).getByLabelText(/Rate \(%\)/), '120');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add tax rate' }));
    expect(await within(dialog).findByText(/from 0 to 100/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('deletes a rate after asking', async () => {
    const calls = stubServer([rate(2, 'Oregon', 0, 'OR')], (c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Oregon' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Oregon');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Tax rate deleted')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/tax-rates/2']);
  });
});
