import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { needsFix, SecurityScanSection } from './SecurityScanSection';

const check = (id: string, name: string, status: string) => ({
  id,
  name,
  category: 'critical',
  status,
  message: `${name} message`,
  details: null,
  remediation: status === 'pass' ? null : 'Fix it',
});

const scan = {
  audit_version: '1.0',
  generated_at: '2026-01-20T12:00:00Z',
  filaops_version: '0.1.0',
  environment: 'development',
  summary: { total_checks: 3, passed: 1, failed: 1, warnings: 1, info: 0, overall_status: 'fail' },
  checks: [check('database', 'Database', 'pass'), check('secret_key', 'Secret key', 'fail'), check('https', 'HTTPS and HSTS', 'warn')],
  system_info: { os: 'linux x86_64', python_version: null, database: 'PostgreSQL 16', reverse_proxy: 'none configured' },
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function stubServer(remediation: (id: string) => Response | Promise<Response>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url.pathname);
      if (url.pathname === '/api/v1/security/audit') return json(200, scan);
      const m = /^\/api\/v1\/security\/remediate\/(.+)$/.exec(url.pathname);
      if (m) return remediation(decodeURIComponent(m[1]!));
      return json(404, { detail: 'Not Found' });
    }),
  );
  return calls;
}

function renderSection() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <SecurityScanSection />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('needsFix', () => {
  it('is true for failing and warning checks only', () => {
    expect((['pass', 'fail', 'warn', 'info'] as const).map((status) => needsFix({ status }))).toEqual([false, true, true, false]);
  });
});

describe('Security scan: How to fix', () => {
  it('offers a button on failing checks only and shows the guidance in a dialog', async () => {
    let answer!: (r: Response) => void;
    const calls = stubServer(
      (id) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
          expect(id).toBe('secret_key');
        }),
    );
    renderSection();
    const list = await screen.findByRole('list', { name: 'Security checks' });
    expect(within(list).getAllByRole('button', { name: /How to fix/ })).toHaveLength(2);
    expect(within(list).queryByRole('button', { name: 'How to fix: Database' })).toBeNull();

    await userEvent.click(within(list).getByRole('button', { name: 'How to fix: Secret key' }));
    const dialog = await screen.findByRole('dialog', { name: 'How to fix: Secret key' });
    expect(within(dialog).getByLabelText('Loading the guidance')).toBeInTheDocument();
    answer(
      json(200, {
        check_id: 'secret_key',
        title: 'Secret key',
        severity: 'critical',
        status: 'fail',
        steps: ['Generate a key', 'Put it in SECRET_KEY'],
        commands: ['openssl rand -hex 32'],
        docs: 'docs/OPERATIONS.md',
        automated: false,
      }),
    );
    const steps = await within(dialog).findByRole('list', { name: 'Steps' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Generate a key', 'Put it in SECRET_KEY']);
    expect(within(dialog).getByLabelText('Commands')).toHaveTextContent('openssl rand -hex 32');
    expect(calls).toContain('/api/v1/security/remediate/secret_key');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server’s error when the guidance cannot be loaded', async () => {
    stubServer(() => json(404, { detail: "Unknown security check 'https'" }));
    renderSection();
    await userEvent.click(await screen.findByRole('button', { name: 'How to fix: HTTPS and HSTS' }));
    const dialog = await screen.findByRole('dialog', { name: 'How to fix: HTTPS and HSTS' });
    expect(await within(dialog).findByText(/Unknown security check/)).toBeInTheDocument();
  });
});
