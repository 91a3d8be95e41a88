import { apiBaseUrl, API_PREFIX } from './config';
import { ApiError, networkError, parseErrorBody } from './errors';
import { authMode, getAccessToken, getRefreshToken, hasSession, markRenewed, saveTokens } from '../auth/storage';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON body. */
  json?: unknown;
  /** application/x-www-form-urlencoded body (login). */
  form?: Record<string, string>;
  /** multipart body (uploads). */
  formData?: FormData;
  signal?: AbortSignal;
  /** Extra request headers (`Idempotency-Key`). */
  headers?: Record<string, string>;
  /** Do not try to renew the session on a 401 (login, refresh, logout). */
  noRefresh?: boolean;
  /** Upload progress, 0..1; switches the transport to XMLHttpRequest. */
  onUploadProgress?: (fraction: number) => void;
}

interface RawResponse {
  status: number;
  body: unknown;
}

export interface ApiClientOptions {
  baseUrl?: () => string;
  fetch?: typeof fetch;
  /** Called once the session cannot be renewed. */
  onUnauthorized?: () => void;
}

export function buildUrl(base: string, path: string, query?: Query): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  let url = `${base}${API_PREFIX}${clean}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) {
        if (v === undefined || v === null || v === '') continue;
        params.append(key, String(v));
      }
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

function parseText(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  if (contentType?.includes('json') || /^[[{"]/.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

const AUTH_PATHS = ['/auth/login', '/auth/refresh', '/auth/logout'];

export function createApiClient(options: ApiClientOptions = {}) {
  const getBase = options.baseUrl ?? apiBaseUrl;
  const doFetch: typeof fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  let onUnauthorized = options.onUnauthorized ?? (() => undefined);
  let refreshInFlight: Promise<boolean> | null = null;

  function headersFor(opts: RequestOptions, withAuth: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const token = withAuth ? getAccessToken() : null;
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  function bodyFor(opts: RequestOptions): BodyInit | undefined {
    if (opts.formData) return opts.formData;
    if (opts.form) return new URLSearchParams(opts.form).toString();
    if (opts.json !== undefined) return JSON.stringify(opts.json);
    return undefined;
  }

  async function sendFetch(path: string, opts: RequestOptions, withAuth: boolean): Promise<RawResponse> {
    let res: Response;
    try {
      res = await doFetch(buildUrl(getBase(), path, opts.query), {
        method: opts.method ?? 'GET',
        headers: headersFor(opts, withAuth),
        body: bodyFor(opts),
        credentials: 'include',
        signal: opts.signal,
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw networkError(err);
    }
    const text = await res.text().catch(() => '');
    return { status: res.status, body: parseText(text, res.headers.get('content-type')) };
  }

  function sendXhr(path: string, opts: RequestOptions, withAuth: boolean): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(opts.method ?? 'POST', buildUrl(getBase(), path, opts.query));
      xhr.withCredentials = true;
      for (const [k, v] of Object.entries(headersFor(opts, withAuth))) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) opts.onUploadProgress?.(e.loaded / e.total);
      };
      xhr.onload = () => {
        opts.onUploadProgress?.(1);
        resolve({ status: xhr.status, body: parseText(xhr.responseText, xhr.getResponseHeader('content-type')) });
      };
      xhr.onerror = () => reject(networkError());
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      opts.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(bodyFor(opts) as XMLHttpRequestBodyInit | undefined);
    });
  }

  function send(path: string, opts: RequestOptions, withAuth = true): Promise<RawResponse> {
    return opts.onUploadProgress ? sendXhr(path, opts, withAuth) : sendFetch(path, opts, withAuth);
  }

  async function doRefresh(): Promise<boolean> {
    const header = authMode() === 'header';
    const refreshToken = getRefreshToken();
    if (header && !refreshToken) return false;
    try {
      const res = await sendFetch(
        '/auth/refresh',
        { method: 'POST', json: header ? { refresh_token: refreshToken } : {} },
        false,
      );
      if (res.status < 200 || res.status >= 300) return false;
      const body = res.body as { access_token?: string; refresh_token?: string } | undefined;
      if (body?.access_token) saveTokens(body.access_token, body.refresh_token);
      markRenewed();
      return true;
    } catch {
      return false;
    }
  }

  /** Renew the session; concurrent callers share one POST /auth/refresh. */
  function refreshSession(): Promise<boolean> {
    if (!refreshInFlight) {
      refreshInFlight = doRefresh().finally(() => {
        refreshInFlight = null;
      });
    }
    return refreshInFlight;
  }

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    let res = await send(path, opts);
    const mayRefresh = !opts.noRefresh && !AUTH_PATHS.some((p) => path.startsWith(p));
    if (res.status === 401 && mayRefresh && hasSession()) {
      const renewed = await refreshSession();
      if (renewed) res = await send(path, opts);
      if (!renewed || res.status === 401) {
        // Concurrent callers share the failed renewal; the first one ends the session.
        if (hasSession()) onUnauthorized();
        throw parseErrorBody(401, res.body);
      }
    }
    if (res.status < 200 || res.status >= 300) throw parseErrorBody(res.status, res.body);
    return res.body as T;
  }

  /**
   * A file the API serves as a download (`download_url` of an item file), as a Blob; with
   * the bearer token in header mode and one renewal on a 401, like every other request.
   * `url` may carry the /api/v1 prefix.
   */
  async function blob(url: string): Promise<Blob> {
    const path = url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url;
    const get = async () => {
      try {
        return await doFetch(buildUrl(getBase(), path), { headers: { Authorization: `Bearer ${getAccessToken() ?? ''}` }, credentials: 'include' });
      } catch (err) {
        throw networkError(err);
      }
    };
    let res = await get();
    if (res.status === 401 && hasSession() && (await refreshSession())) res = await get();
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw parseErrorBody(res.status, parseText(text, res.headers.get('content-type')));
    }
    return res.blob();
  }

  return {
    request,
    refreshSession,
    blob,
    get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { query, signal }),
    post: <T>(path: string, json?: unknown, opts: RequestOptions = {}) =>
      request<T>(path, { ...opts, method: 'POST', json: json ?? opts.json }),
    put: <T>(path: string, json?: unknown) => request<T>(path, { method: 'PUT', json }),
    patch: <T>(path: string, json?: unknown) => request<T>(path, { method: 'PATCH', json }),
    del: <T>(path: string) => request<T>(path, { method: 'DELETE' }),
    setUnauthorizedHandler(handler: () => void) {
      onUnauthorized = handler;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client. AuthProvider installs the unauthorized handler. */
export const api = createApiClient({
  onUnauthorized: () => {
    if (typeof window !== 'undefined' && !window.location.pathname.startsWith('/admin/login')) {
      window.location.assign('/admin/login');
    }
  },
});

export { ApiError };
