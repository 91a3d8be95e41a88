import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUrl, createApiClient } from './client';
import { ApiError } from './errors';
import { clearSession, getAccessToken, getRefreshToken, saveTokens, saveUser } from '../auth/storage';
import type { UserResponse } from './model';

const USER = { id: 1, email: 'ada@example.com', account_type: 'admin' } as UserResponse;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Call = { url: string; init: RequestInit };

function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, init: init ?? {} });
    return handler(url, init ?? {});
  });
  return { fn: fn as unknown as typeof fetch, calls };
}

function header(init: RequestInit, name: string): string | undefined {
  return (init.headers as Record<string, string> | undefined)?.[name];
}

beforeEach(() => clearSession());

describe('buildUrl', () => {
  it('prefixes /api/v1 and drops empty query values', () => {
    expect(buildUrl('', '/items', { limit: 25, offset: 0, search: '', item_type: undefined, active_only: true })).toBe(
      '/api/v1/items?limit=25&offset=0&active_only=true',
    );
    expect(buildUrl('https://erp.example.com', 'x', { s: ['a', 'b'] })).toBe('https://erp.example.com/api/v1/x?s=a&s=b');
  });
});

describe('api client', () => {
  it('sends cookies and, in header mode, the bearer token', async () => {
    saveTokens('access-1', 'refresh-1');
    saveUser(USER);
    const { fn, calls } = fakeFetch(() => json(200, { ok: true }));
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await api.get('/auth/me');
    expect(calls[0]!.init.credentials).toBe('include');
    expect(header(calls[0]!.init, 'Authorization')).toBe('Bearer access-1');
  });

  it('sends no Authorization header in cookie mode', async () => {
    saveUser(USER);
    const { fn, calls } = fakeFetch(() => json(200, {}));
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await api.get('/items');
    expect(header(calls[0]!.init, 'Authorization')).toBeUndefined();
    expect(calls[0]!.init.credentials).toBe('include');
  });

  it('posts the login as a form', async () => {
    const { fn, calls } = fakeFetch(() => json(200, { access_token: 'a', refresh_token: 'r', token_type: 'bearer' }));
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await api.request('/auth/login', { method: 'POST', form: { username: 'ada@example.com', password: 'p w' } });
    expect(header(calls[0]!.init, 'Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(calls[0]!.init.body).toBe('username=ada%40example.com&password=p+w');
  });

  it('on 401 renews once (single flight) and retries every waiting request', async () => {
    saveTokens('old-access', 'old-refresh');
    saveUser(USER);
    let refreshes = 0;
    let releaseRefresh: () => void = () => undefined;
    const gate = new Promise<void>((ok) => (releaseRefresh = ok));
    const { fn, calls } = fakeFetch(async (url, init) => {
      if (url.endsWith('/auth/refresh')) {
        refreshes++;
        expect(JSON.parse(String(init.body))).toEqual({ refresh_token: 'old-refresh' });
        await gate;
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'bearer' });
      }
      return header(init, 'Authorization') === 'Bearer new-access' ? json(200, { url }) : json(401, { detail: 'Could not validate credentials' });
    });
    const onUnauthorized = vi.fn();
    const api = createApiClient({ fetch: fn, baseUrl: () => '', onUnauthorized });

    const all = Promise.all([api.get('/items'), api.get('/vendors/'), api.get('/auth/me')]);
    await vi.waitFor(() => expect(refreshes).toBe(1));
    releaseRefresh();
    const results = await all;

    expect(refreshes).toBe(1);
    expect(results).toEqual([{ url: '/api/v1/items' }, { url: '/api/v1/vendors/' }, { url: '/api/v1/auth/me' }]);
    expect(getAccessToken()).toBe('new-access');
    expect(getRefreshToken()).toBe('new-refresh');
    expect(onUnauthorized).not.toHaveBeenCalled();
    // 3 first tries + 1 refresh + 3 retries
    expect(calls).toHaveLength(7);
  });

  it('cookie mode: refresh with an empty JSON body and retry', async () => {
    saveUser(USER);
    let authed = false;
    const { fn, calls } = fakeFetch((url, init) => {
      if (url.endsWith('/auth/refresh')) {
        expect(init.body).toBe('{}');
        expect(init.credentials).toBe('include');
        authed = true;
        return json(200, { message: 'Token refreshed', token_type: 'cookie' });
      }
      return authed ? json(200, { total: 0, items: [] }) : json(401, { detail: 'Not authenticated' });
    });
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await expect(api.get('/items')).resolves.toEqual({ total: 0, items: [] });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/items', '/api/v1/auth/refresh', '/api/v1/items']);
  });

  it('when renewal fails it gives up once and reports the 401', async () => {
    saveTokens('old-access', 'old-refresh');
    saveUser(USER);
    const { fn, calls } = fakeFetch((url) =>
      url.endsWith('/auth/refresh') ? json(401, { detail: 'Invalid refresh token' }) : json(401, { detail: 'Could not validate credentials' }),
    );
    const onUnauthorized = vi.fn(() => clearSession());
    const api = createApiClient({ fetch: fn, baseUrl: () => '', onUnauthorized });
    const results = await Promise.allSettled([api.get('/items'), api.get('/items')]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).status === 401)).toBe(true);
    expect(calls.filter((c) => c.url.endsWith('/auth/refresh'))).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });

  it('does not try to renew without a session, nor for the login call', async () => {
    const { fn, calls } = fakeFetch(() => json(401, { detail: 'Incorrect email or password' }));
    const onUnauthorized = vi.fn();
    const api = createApiClient({ fetch: fn, baseUrl: () => '', onUnauthorized });
    await expect(api.get('/items')).rejects.toMatchObject({ status: 401 });
    saveUser(USER);
    await expect(api.request('/auth/login', { method: 'POST', form: { username: 'a', password: 'b' } })).rejects.toMatchObject({
      message: 'Incorrect email or password',
    });
    expect(calls.some((c) => c.url.endsWith('/auth/refresh'))).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a network failure into a status-0 ApiError', async () => {
    const fn = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await expect(api.get('/setup/status')).rejects.toMatchObject({ status: 0, isUnreachable: true });
  });

  it('surfaces 422 field errors from a JSON body', async () => {
    const { fn } = fakeFetch(() =>
      json(422, {
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: { errors: [{ field: 'sku', message: 'String should have at most 50 characters', type: 'string_too_long' }] },
      }),
    );
    const api = createApiClient({ fetch: fn, baseUrl: () => '' });
    await expect(api.post('/items', { sku: 'x'.repeat(60) })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { sku: 'String should have at most 50 characters' },
    });
  });
});
