import type { UserResponse } from '../api/model';

/**
 * Browser storage of the session (CONTRACT 7):
 * - AUTH_MODE=header: `adminToken`, `adminRefreshToken` and `adminUser`.
 * - AUTH_MODE=cookie: only `adminUser`; the tokens live in httpOnly cookies.
 */
export const STORAGE_KEYS = {
  accessToken: 'adminToken',
  refreshToken: 'adminRefreshToken',
  user: 'adminUser',
  /** Written by the original onboarding; cleared on logout for tidiness. */
  legacyAccessToken: 'access_token',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();

function safeGet(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    /* storage unavailable (private mode): the session lives in memory only */
  }
}

function emit(): void {
  cachedUserRaw = undefined;
  for (const l of listeners) l();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || Object.values(STORAGE_KEYS).includes(e.key as never)) emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function getAccessToken(): string | null {
  return safeGet(STORAGE_KEYS.accessToken);
}

export function getRefreshToken(): string | null {
  return safeGet(STORAGE_KEYS.refreshToken);
}

/** `header` when a bearer token is kept in storage, otherwise `cookie`. */
export function authMode(): 'header' | 'cookie' {
  return getAccessToken() ? 'header' : 'cookie';
}

let cachedUserRaw: string | null | undefined;
let cachedUser: UserResponse | null = null;

/** Stable between calls while storage is unchanged (useSyncExternalStore needs that). */
export function getStoredUser(): UserResponse | null {
  const raw = safeGet(STORAGE_KEYS.user);
  if (raw === cachedUserRaw) return cachedUser;
  cachedUserRaw = raw;
  try {
    cachedUser = raw ? (JSON.parse(raw) as UserResponse) : null;
  } catch {
    cachedUser = null;
  }
  return cachedUser;
}

export function hasSession(): boolean {
  return getStoredUser() !== null || getAccessToken() !== null;
}

export function saveTokens(accessToken: string, refreshToken?: string | null): void {
  safeSet(STORAGE_KEYS.accessToken, accessToken);
  if (refreshToken) safeSet(STORAGE_KEYS.refreshToken, refreshToken);
  emit();
}

export function saveUser(user: UserResponse): void {
  safeSet(STORAGE_KEYS.user, JSON.stringify(user));
  emit();
}

export function clearSession(): void {
  for (const key of Object.values(STORAGE_KEYS)) safeSet(key, null);
  emit();
}

// In memory only: when this tab last obtained fresh tokens (login or refresh).
// Cookie mode cannot read the httpOnly token's expiry, so renewal is paced by this.
let lastRenewedAt = Date.now();

export function markRenewed(at: number = Date.now()): void {
  lastRenewedAt = at;
}

export function getLastRenewedAt(): number {
  return lastRenewedAt;
}

/** Left in sessionStorage by an explicit sign-out so the sign-in page can say so. */
export const SIGNED_OUT_FLAG = 'strata.signedOut';
