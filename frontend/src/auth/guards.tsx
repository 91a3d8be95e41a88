import type { ReactNode } from 'react';
import { useAuth } from './AuthContext';
import { canAccess } from './roles';
import { NotAllowedPage } from '../pages/NotAllowedPage';

/** Renders `children` only for users allowed on the page; operators get a clear refusal on admin pages. */
export function RequireRole({ adminOnly, children }: { adminOnly: boolean; children: ReactNode }) {
  const { user } = useAuth();
  if (!canAccess(user, adminOnly)) return <NotAllowedPage />;
  return <>{children}</>;
}
