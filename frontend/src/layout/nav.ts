import type { LucideIcon } from 'lucide-react';
import {
  ArrowLeftRight,
  BadgeCheck,
  CalendarClock,
  Calculator,
  ClipboardCheck,
  ClipboardList,
  CreditCard,
  Disc3,
  Factory,
  FileDown,
  FileText,
  FileUp,
  Gauge,
  LayoutDashboard,
  Layers,
  MessagesSquare,
  MapPin,
  Package,
  Printer,
  ReceiptText,
  Recycle,
  ScanSearch,
  Settings,
  ShieldCheck,
  ShoppingBag,
  ShoppingCart,
  Truck,
  Upload,
  UserCog,
  Users,
  Wrench,
} from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  adminOnly?: boolean;
  /** Match the path exactly (the dashboard). */
  end?: boolean;
  /** A count shown beside the label: `unread-messages` is the messages nobody has read. */
  badge?: 'unread-messages';
}

export interface NavGroup {
  id: string;
  label: string | null;
  adminOnly?: boolean;
  items: NavItem[];
}

/** Sidebar of CONTRACT 7 (OLD navGroups); adminOnly items are hidden from operators. */
export const NAV_GROUPS: NavGroup[] = [
  {
    id: 'home',
    label: null,
    items: [
      { label: 'Dashboard', to: '/admin', icon: LayoutDashboard, end: true },
      { label: 'Command Center', to: '/admin/command-center', icon: Gauge },
    ],
  },
  {
    id: 'sales',
    label: 'Sales',
    items: [
      { label: 'Orders', to: '/admin/orders', icon: ShoppingCart, end: true },
      { label: 'Quotes', to: '/admin/quotes', icon: FileText },
      { label: 'Messages', to: '/admin/messages', icon: MessagesSquare, badge: 'unread-messages' },
      { label: 'Invoices', to: '/admin/invoices', icon: ReceiptText, adminOnly: true },
      { label: 'Payments', to: '/admin/payments', icon: CreditCard, adminOnly: true },
      { label: 'Customers', to: '/admin/customers', icon: Users, adminOnly: true },
    ],
  },
  {
    id: 'inventory',
    label: 'Inventory',
    items: [
      { label: 'Items', to: '/admin/items', icon: Package },
      { label: 'Import Materials', to: '/admin/materials/import', icon: Upload, adminOnly: true },
      { label: 'Bill of Materials', to: '/admin/bom', icon: Layers },
      { label: 'Locations', to: '/admin/locations', icon: MapPin, adminOnly: true },
      { label: 'Transactions', to: '/admin/inventory/transactions', icon: ArrowLeftRight, adminOnly: true },
      { label: 'Cycle Count', to: '/admin/inventory/cycle-count', icon: ClipboardCheck, adminOnly: true },
      { label: 'Material Spools', to: '/admin/spools', icon: Disc3, adminOnly: true },
    ],
  },
  {
    id: 'operations',
    label: 'Operations',
    items: [
      { label: 'Production', to: '/admin/production', icon: Factory },
      { label: 'Planning', to: '/admin/planning', icon: CalendarClock },
      { label: 'Manufacturing', to: '/admin/manufacturing', icon: Wrench },
      { label: 'Printers', to: '/admin/printers', icon: Printer },
      { label: 'Purchasing', to: '/admin/purchasing', icon: ShoppingBag },
      { label: 'Shipping', to: '/admin/shipping', icon: Truck },
    ],
  },
  {
    id: 'quality',
    label: 'Quality',
    items: [
      { label: 'Quality Dashboard', to: '/admin/quality', icon: BadgeCheck, end: true },
      { label: 'Quality Plans', to: '/admin/quality/plans', icon: ClipboardList },
      { label: 'Material Traceability', to: '/admin/quality/traceability', icon: ScanSearch },
    ],
  },
  {
    id: 'reports',
    label: 'Reports',
    items: [{ label: 'Bulk Exports', to: '/admin/reports/exports', icon: FileDown }],
  },
  {
    id: 'admin',
    label: 'Admin',
    adminOnly: true,
    items: [
      { label: 'Accounting', to: '/admin/accounting', icon: Calculator, adminOnly: true },
      { label: 'Import Orders', to: '/admin/orders/import', icon: FileUp, adminOnly: true },
      { label: 'Team Members', to: '/admin/users', icon: UserCog, adminOnly: true },
      { label: 'Scrap Reasons', to: '/admin/scrap-reasons', icon: Recycle, adminOnly: true },
      { label: 'Settings', to: '/admin/settings', icon: Settings, adminOnly: true },
      { label: 'Security Audit', to: '/admin/security', icon: ShieldCheck, adminOnly: true },
    ],
  },
];

/** The groups and items a user with this role sees. */
export function visibleNav(isAdminUser: boolean): NavGroup[] {
  return NAV_GROUPS.filter((g) => isAdminUser || !g.adminOnly)
    .map((g) => ({ ...g, items: g.items.filter((i) => isAdminUser || !i.adminOnly) }))
    .filter((g) => g.items.length > 0);
}
