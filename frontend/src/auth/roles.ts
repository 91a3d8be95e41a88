import type { UserResponse } from '../api/model';

export type Role = 'admin' | 'operator';

/** Only staff may use the admin app (CONTRACT 0 role levels). */
export function isStaff(user: Pick<UserResponse, 'account_type'> | null | undefined): boolean {
  return user?.account_type === 'admin' || user?.account_type === 'operator';
}

export function isAdmin(user: Pick<UserResponse, 'account_type'> | null | undefined): boolean {
  return user?.account_type === 'admin';
}

/** Whether `user` may open a page; admin-only pages are closed to operators. */
export function canAccess(user: Pick<UserResponse, 'account_type'> | null | undefined, adminOnly: boolean): boolean {
  if (!isStaff(user)) return false;
  return adminOnly ? isAdmin(user) : true;
}

export function displayName(user: Pick<UserResponse, 'first_name' | 'last_name' | 'email'> | null | undefined): string {
  if (!user) return '';
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return name || user.email;
}

export function initials(user: Pick<UserResponse, 'first_name' | 'last_name' | 'email'> | null | undefined): string {
  if (!user) return '?';
  const f = user.first_name?.trim()?.[0];
  const l = user.last_name?.trim()?.[0];
  if (f || l) return `${f ?? ''}${l ?? ''}`.toUpperCase();
  return (user.email[0] ?? '?').toUpperCase();
}
