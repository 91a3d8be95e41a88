import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, createQueryClient } from '../../App';
import { QualityPolicyCard } from './QualityPolicyCard';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const user = (account_type: 'admin' | 'operator') => ({ id: 1, email: 'a@example.com', first_name: 'A', last_name: 'B', full_name: 'A B', account_type, status: 'active', last_login_at: null, created_at: '2026-01-01T00:00:00Z' });

function stub(account: 'admin' | 'operator') {
  localStorage.setItem('adminUser', JSON.stringify(user(account)));
  let policy = { mode: 'basic', gate_action: 'warn', gate_close: false, surfaces_enabled: true, plan_driven: false, gates_close: false };
  const puts: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/auth/me') return json(200, user(account));
      if (url.pathname === '/api/v1/quality/policy') return json(200, policy);
      const m = /^\/api\/v1\/system\/settings\/(\w+)$/.exec(url.pathname);
      if (m && init.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { value: string };
        puts.push({ key: m[1]!, body });
        policy = { ...policy, [m[1] === 'quality_mode' ? 'mode' : 'gate_action']: body.value };
        return json(200, { key: m[1], value: body.value });
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return puts;
}

const renderCard = () =>
  render(
    <MemoryRouter>
      <AppProviders client={createQueryClient()}>
        <QualityPolicyCard />
      </AppProviders>
    </MemoryRouter>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Settings → Quality', () => {
  it('enables the gate in full mode only and saves each changed setting', async () => {
    const puts = stub('admin');
    renderCard();
    const full = await screen.findByRole('radio', { name: /^Full/ });
    expect(screen.getByRole('radio', { name: /^Basic/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Block/ })).toBeDisabled();
    expect(screen.getByText('The gate applies in full mode only.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save quality policy' })).toBeDisabled();
    await userEvent.click(full);
    await userEvent.click(screen.getByRole('radio', { name: /^Block/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save quality policy' }));
    await waitFor(() =>
      expect(puts).toEqual([
        { key: 'quality_mode', body: { value: 'full' } },
        { key: 'quality_gate_action', body: { value: 'block' } },
      ]),
    );
    expect(await screen.findByText('Quality policy saved')).toBeInTheDocument();
  });

  it('is read-only for an operator', async () => {
    stub('operator');
    renderCard();
    expect(await screen.findByText('Only administrators change the quality policy.', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Full/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save quality policy' })).not.toBeInTheDocument();
  });
});
