/**
 * When to renew the session while the user works (spec 5.2, CONTRACT 7 refresh hook):
 * checked every minute; renew when the access token expires within 5 minutes
 * and the user was active in the last 25 minutes. In cookie mode the token's
 * expiry cannot be read, so the session is renewed every 20 active minutes
 * (a 401 in between is still answered by the client's single-flight refresh).
 */
export const CHECK_INTERVAL_MS = 60_000;
export const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;
export const ACTIVE_WINDOW_MS = 25 * 60_000;
export const COOKIE_RENEW_EVERY_MS = 20 * 60_000;

export interface RenewalInput {
  now: number;
  lastActivity: number;
  /** Access-token expiry in ms, or null when it cannot be read (cookie mode). */
  tokenExpiry: number | null;
  lastRenewed: number;
}

export function shouldRenew({ now, lastActivity, tokenExpiry, lastRenewed }: RenewalInput): boolean {
  if (now - lastActivity > ACTIVE_WINDOW_MS) return false;
  if (tokenExpiry !== null) return tokenExpiry - now <= RENEW_BEFORE_EXPIRY_MS;
  return now - lastRenewed >= COOKIE_RENEW_EVERY_MS;
}
