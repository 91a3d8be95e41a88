import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { LogOut, Menu } from 'lucide-react';
import { authApi, settingsApi } from '../api/endpoints';
import { setDisplayFormat } from '../lib/format';
import { Skeleton } from '../components/States';
import { useAuth } from '../auth/AuthContext';
import { displayName, initials, isAdmin, isStaff } from '../auth/roles';
import { saveUser } from '../auth/storage';
import { useActivityTokenRefresh } from '../auth/useActivityTokenRefresh';
import { useLiveUpdates } from '../api/live';
import { Sidebar } from './Sidebar';
import { useSidebarOpen } from './sidebarState';
import { Button } from '../components/Button';
import { queryKeys } from '../api/queryKeys';

/** The authenticated shell: sidebar, top bar, and the page. Signed-out visitors go to the login page. */
export function AdminLayout() {
  const { user, logout } = useAuth();
  const location = useLocation();
  const [open, setOpen] = useSidebarOpen();
  const [loggingOut, setLoggingOut] = useState(false);

  useActivityTokenRefresh(Boolean(user));
  useLiveUpdates(Boolean(user));

  // Confirm the stored session with the server and pick up role or name changes.
  const me = useQuery({
    queryKey: queryKeys.auth.me(),
    queryFn: ({ signal }) => authApi.me(signal),
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
    retry: false,
  });
  // The company's currency and locale, applied before any page renders (and again, with the
  // page remounted, when Settings changes them).
  const settings = useQuery({
    queryKey: queryKeys.settings.all,
    queryFn: ({ signal }) => settingsApi.get(signal),
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const format = { currency: settings.data?.currency_code, locale: settings.data?.locale };
  setDisplayFormat(format);
  const formatKey = `${format.currency ?? ''}|${format.locale ?? ''}`;
  useEffect(() => {
    if (me.data && JSON.stringify(me.data) !== JSON.stringify(user)) {
      if (isStaff(me.data)) saveUser(me.data);
      else void logout();
    }
  }, [me.data, user, logout]);

  if (!user) {
    return <Navigate to="/admin/login" replace state={{ from: location.pathname + location.search }} />;
  }

  return (
    <div className={`shell${open ? '' : ' shell--collapsed'}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Sidebar open={open} onToggle={() => setOpen(!open)} isAdmin={isAdmin(user)} />
      <div className="shell__main">
        <header className="topbar">
          <button
            type="button"
            className="icon-btn topbar__menu"
            onClick={() => setOpen(!open)}
            aria-label={open ? 'Collapse sidebar' : 'Expand sidebar'}
          >
            <Menu size={20} />
          </button>
          <div className="topbar__spacer" />
          <div className="topbar__user">
            <span className="avatar" aria-hidden="true">
              {initials(user)}
            </span>
            <span className="topbar__who">
              <span className="topbar__name" data-testid="current-user">
                {displayName(user)}
              </span>
              <span className="topbar__role">{user.account_type === 'admin' ? 'Administrator' : 'Operator'}</span>
            </span>
          </div>
          <Button
            variant="ghost"
            size="sm"
            icon={<LogOut size={16} />}
            loading={loggingOut}
            onClick={() => {
              setLoggingOut(true);
              void logout();
            }}
          >
            Sign out
          </Button>
        </header>
        <main id="main" className="content" tabIndex={-1}>
          {settings.isPending ? <Skeleton height={34} /> : <Outlet key={formatKey} />}
        </main>
      </div>
    </div>
  );
}
