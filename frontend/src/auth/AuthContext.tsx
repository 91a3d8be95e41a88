import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { authApi } from '../api/endpoints';
import type { UserResponse } from '../api/model';
import {
  clearSession,
  getRefreshToken,
  getStoredUser,
  markRenewed,
  saveTokens,
  saveUser,
  SIGNED_OUT_FLAG,
  subscribeSession,
} from './storage';
import { isStaff } from './roles';

export const ACCESS_DENIED_MESSAGE = 'Access denied. Please use an admin or operator account.';

interface AuthContextValue {
  user: UserResponse | null;
  login: (email: string, password: string) => Promise<UserResponse>;
  /** Adopt a session that was opened elsewhere (onboarding step 1). */
  adoptSession: (tokens: { access_token?: string; refresh_token?: string }) => Promise<UserResponse>;
  logout: (opts?: { expired?: boolean }) => Promise<void>;
  refreshUser: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const user = useSyncExternalStore(subscribeSession, getStoredUser, () => null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    api.setUnauthorizedHandler(() => {
      clearSession();
      queryClient.clear();
      navigate('/admin/login', { replace: true, state: { expired: true } });
    });
  }, [navigate, queryClient]);

  const loadMe = useCallback(async (): Promise<UserResponse> => {
    const me = await authApi.me();
    if (!isStaff(me)) {
      await authApi.logout(getRefreshToken()).catch(() => undefined);
      clearSession();
      throw new ApiError(403, ACCESS_DENIED_MESSAGE);
    }
    saveUser(me);
    return me;
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      clearSession();
      const res = await authApi.login(email, password);
      let me: UserResponse;
      if ('access_token' in res && res.access_token) {
        // AUTH_MODE=header: tokens in the body, then ask who we are.
        saveTokens(res.access_token, res.refresh_token);
        me = await loadMe();
      } else if ('user' in res && res.user) {
        // AUTH_MODE=cookie: httpOnly cookies were set, the user is in the body.
        me = res.user;
        if (!isStaff(me)) {
          await authApi.logout(null).catch(() => undefined);
          clearSession();
          throw new ApiError(403, ACCESS_DENIED_MESSAGE);
        }
        saveUser(me);
      } else {
        me = await loadMe();
      }
      markRenewed();
      queryClient.clear();
      return me;
    },
    [loadMe, queryClient],
  );

  const adoptSession = useCallback(
    async (tokens: { access_token?: string; refresh_token?: string }) => {
      if (tokens.access_token) saveTokens(tokens.access_token, tokens.refresh_token);
      markRenewed();
      return loadMe();
    },
    [loadMe],
  );

  const logout = useCallback(
    async (opts?: { expired?: boolean }) => {
      await authApi.logout(getRefreshToken()).catch(() => undefined);
      if (!opts?.expired) sessionStorage.setItem(SIGNED_OUT_FLAG, '1');
      clearSession();
      queryClient.clear();
      navigate('/admin/login', { replace: true, state: opts?.expired ? { expired: true } : { loggedOut: true } });
    },
    [navigate, queryClient],
  );

  const refreshUser = useCallback(async () => {
    await loadMe();
  }, [loadMe]);

  const value = useMemo(
    () => ({ user, login, adoptSession, logout, refreshUser }),
    [user, login, adoptSession, logout, refreshUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
