import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders, createQueryClient } from '../../App';
import { QualityDashboardPage } from './QualityDashboardPage';
import { hasTrend, parseDays, percent, shortDay, yieldNote, yieldTone } from './qualityDashboard';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const admin = { id: 1, email: 'a@example.com', first_name: 'A', last_name: 'B', full_name: 'A B', account_type: 'admin', status: 'active', last_login_at: null, created_at: '2026-01-01T00:00:00Z' };

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('quality dashboard', () => {
  it('reads its period from the address and words its figures', () => {
    expect(parseDays('7')).toBe(7);
    expect(parseDays('12')).toBe(30);
    expect(parseDays(null)).toBe(30);
    expect(shortDay('2026-11-28')).toBe('Nov 28');
    expect(percent(null)).toBe('—');
    expect(percent(16.666)).toBe('16.7%');
    expect(yieldTone(null)).toBeNull();
    expect(yieldTone(97)).toBe('good');
    expect(yieldTone(85)).toBe('warn');
    expect(yieldTone(50)).toBe('bad');
    expect(hasTrend([{ day: '2026-11-28', inspections: 0, first_passed: 0, first_failed: 0, first_pass_yield: null, scrap_cost: 0 }])).toBe(false);
    expect(yieldNote({ period_days: 30, total_inspections: 2, passed: 1, failed: 1, first_pass_yield: 50, pending_inspections: 0, scrap_rate: null, total_scrapped_cost: 0 })).toBe('1 passed · 1 failed of 2 first inspections');
  });

  it('shows empty states when nothing was inspected or scrapped, and says when quality is off', async () => {
    localStorage.setItem('adminUser', JSON.stringify(admin));
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        asked.push(`${url.pathname}${url.search}`);
        switch (url.pathname) {
          case '/api/v1/auth/me':
            return json(admin);
          case '/api/v1/quality/policy':
            return json({ mode: 'off', gate_action: 'warn', gate_close: false, surfaces_enabled: false, plan_driven: false, gates_close: false });
          case '/api/v1/quality/metrics':
            return json({ period_days: 7, total_inspections: 0, passed: 0, failed: 0, first_pass_yield: null, pending_inspections: 0, scrap_rate: null, total_scrapped_cost: 0 });
          case '/api/v1/quality/trend':
            return json([{ day: '2026-11-28', inspections: 0, first_passed: 0, first_failed: 0, first_pass_yield: null, scrap_cost: 0 }]);
          case '/api/v1/quality/scrap-summary':
          case '/api/v1/quality/recent-inspections':
            return json([]);
          case '/api/v1/quality/inspection-queue':
            return json({ items: [], total: 0 });
          default:
            return new Response('{}', { status: 404 });
        }
      }),
    );
    render(
      <MemoryRouter initialEntries={['/admin/quality?days=7']}>
        <AppProviders client={createQueryClient()}>
          <QualityDashboardPage />
        </AppProviders>
      </MemoryRouter>,
    );
    expect(await screen.findByText(/Quality management is off/)).toBeInTheDocument();
    expect(await screen.findByText('No inspections or scrap in the last 7 days')).toBeInTheDocument();
    expect(screen.getByText('Nothing scrapped in the last 7 days')).toBeInTheDocument();
    expect(await screen.findByText('Nothing waits for inspection')).toBeInTheDocument();
    expect(screen.getByText('No verdicts yet')).toBeInTheDocument();
    expect(screen.getByTestId('kpi-fpy')).toHaveTextContent('—');
    expect(screen.getByTestId('kpi-scrap-cost')).toHaveTextContent('$0.00');
    expect(asked).toContain('/api/v1/quality/metrics?days=7');
    expect(asked).toContain('/api/v1/quality/inspection-queue?limit=10&offset=0');
  });
});
