/**
 * Base URL of the API (CONTRACT 7): `VITE_API_URL` when set at build time,
 * otherwise relative to the page. The Rust server serves the SPA and the API
 * on one origin, and the Vite dev server proxies `/api` and `/health`, so
 * relative URLs work in both.
 */
export function apiBaseUrl(): string {
  const fromEnv = import.meta.env.VITE_API_URL as string | undefined;
  return fromEnv ? fromEnv.replace(/\/+$/, '') : '';
}

export const API_PREFIX = '/api/v1';
