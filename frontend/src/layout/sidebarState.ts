import { useCallback, useState } from 'react';

const OPEN_KEY = 'sidebarOpen';
const GROUPS_KEY = 'sidebarCollapsedGroups';

function read<T>(key: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* ignore */
  }
}

/** Sidebar expanded or collapsed to an icon rail, remembered in localStorage `sidebarOpen`. */
export function useSidebarOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState<boolean>(() => {
    const stored = read<boolean | null>(OPEN_KEY, null);
    if (typeof stored === 'boolean') return stored;
    return typeof window === 'undefined' || window.innerWidth >= 1024;
  });
  const set = useCallback((value: boolean) => {
    setOpen(value);
    write(OPEN_KEY, value);
  }, []);
  return [open, set];
}

/** Which sidebar groups are folded, remembered across visits. */
export function useCollapsedGroups(): [Set<string>, (id: string) => void] {
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set(read<string[]>(GROUPS_KEY, [])));
  const toggle = useCallback((id: string) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      write(GROUPS_KEY, [...next]);
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
