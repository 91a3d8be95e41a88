import { NavLink } from 'react-router';
import { ChevronDown, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { visibleNav, type NavItem } from './nav';
import { useCollapsedGroups } from './sidebarState';
import { Logo } from '../components/Logo';
import { useUnreadMessages } from '../pages/messages/messageHooks';

interface SidebarProps {
  open: boolean;
  onToggle: () => void;
  isAdmin: boolean;
}

export function Sidebar({ open, onToggle, isAdmin }: SidebarProps) {
  const groups = visibleNav(isAdmin);
  const [collapsed, toggleGroup] = useCollapsedGroups();
  // Refetched every minute (and after every message change): the Messages badge.
  const unread = useUnreadMessages();
  const counts: Record<NonNullable<NavItem['badge']>, number | undefined> = { 'unread-messages': unread };

  return (
    <aside className="sidebar">
      <div className="sidebar__brand">
        <Logo compact={!open} />
      </div>
      <nav className="sidebar__nav" aria-label="Main navigation">
        {groups.map((group) => {
          const folded = open && group.label !== null && collapsed.has(group.id);
          const listId = `nav-group-${group.id}`;
          return (
            <div key={group.id} className="nav-group">
              {group.label &&
                (open ? (
                  <button
                    type="button"
                    className="nav-group__header"
                    aria-expanded={!folded}
                    aria-controls={listId}
                    onClick={() => toggleGroup(group.id)}
                  >
                    <span>{group.label}</span>
                    <ChevronDown size={14} className={`nav-group__chevron${folded ? ' is-folded' : ''}`} aria-hidden="true" />
                  </button>
                ) : (
                  <div className="nav-group__divider" role="separator" />
                ))}
              {!folded && (
                <ul id={listId} className="nav-group__list">
                  {group.items.map((item) => {
                    const count = item.badge ? counts[item.badge] : undefined;
                    return (
                      <li key={item.to}>
                        <NavLink
                          to={item.to}
                          end={item.end}
                          className={({ isActive }) => `nav-link${isActive ? ' is-active' : ''}`}
                          title={open ? undefined : count ? `${item.label} (${count} unread)` : item.label}
                        >
                          <item.icon size={18} className="nav-link__icon" aria-hidden="true" />
                          <span className="nav-link__label">{item.label}</span>
                          {count ? (
                            <span className="nav-link__badge" data-testid={`nav-badge-${item.badge}`}>
                              <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
                              <span className="sr-only">, {count} unread</span>
                            </span>
                          ) : null}
                        </NavLink>
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
          );
        })}
      </nav>
      <div className="sidebar__footer">
        <button
          type="button"
          className="nav-link nav-link--button"
          onClick={onToggle}
          aria-label={open ? 'Collapse sidebar' : 'Expand sidebar'}
          aria-expanded={open}
        >
          {open ? <ChevronsLeft size={18} className="nav-link__icon" aria-hidden="true" /> : <ChevronsRight size={18} className="nav-link__icon" aria-hidden="true" />}
          <span className="nav-link__label">Collapse</span>
        </button>
      </div>
    </aside>
  );
}
