import { useEffect } from 'react';
import { api } from '../api/client';
import { jwtExpiry } from './jwt';
import { CHECK_INTERVAL_MS, shouldRenew } from './renewal';
import { getAccessToken, getLastRenewedAt } from './storage';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'scroll', 'touchstart', 'mousemove'] as const;

/** Renews the session in the background while the user is active (mounted by the admin layout). */
export function useActivityTokenRefresh(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let lastActivity = Date.now();
    let lastMark = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - lastMark > 5_000) {
        lastMark = now;
        lastActivity = now;
      }
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, onActivity, { passive: true });

    const timer = window.setInterval(() => {
      const input = {
        now: Date.now(),
        lastActivity,
        tokenExpiry: jwtExpiry(getAccessToken()),
        lastRenewed: getLastRenewedAt(),
      };
      if (shouldRenew(input)) void api.refreshSession();
    }, CHECK_INTERVAL_MS);

    return () => {
      window.clearInterval(timer);
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, onActivity);
    };
  }, [enabled]);
}
