import { type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './api/errors';
import { AuthProvider } from './auth/AuthContext';
import { RequireRole } from './auth/guards';
import { ToastProvider } from './components/Toast';
import { AdminLayout } from './layout/AdminLayout';
import { TraceabilityPage } from './pages/traceability/TraceabilityPage';
import { QualityDashboardPage } from './pages/quality/QualityDashboardPage';
import { QualityPlansPage } from './pages/quality/QualityPlansPage';
import { DashboardPage } from './pages/dashboard/DashboardPage';
import { ItemsPage } from './pages/items/ItemsPage';
import { LoginPage } from './pages/auth/LoginPage';
import { ForgotPasswordPage } from './pages/auth/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/auth/ResetPasswordPage';
import { PasswordResetDecisionPage } from './pages/auth/PasswordResetDecisionPage';
import { SetupPage } from './pages/onboarding/SetupPage';
import { OnboardingPage } from './pages/onboarding/OnboardingPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { CustomersPage } from './pages/customers/CustomersPage';
import { LocationsPage } from './pages/locations/LocationsPage';
import { PrintersPage } from './pages/printers/PrintersPage';
import { PurchasingPage } from './pages/purchasing/PurchasingPage';
import { ScrapReasonsPage } from './pages/scrap/ScrapReasonsPage';
import { SecurityAuditPage } from './pages/security/SecurityAuditPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { TeamMembersPage } from './pages/users/TeamMembersPage';
import { TransactionsPage } from './pages/inventory/TransactionsPage';
import { CycleCountPage } from './pages/inventory/CycleCountPage';
import { AccountingPage } from './pages/accounting/AccountingPage';
import { BomPage } from './pages/bom/BomPage';
import { SpoolsPage } from './pages/spools/SpoolsPage';
import { MaterialImportPage } from './pages/materials/MaterialImportPage';
import { ProductionPage } from './pages/production/ProductionPage';
import { ProductionDetailPage } from './pages/production/ProductionDetailPage';
import { PlanningPage } from './pages/planning/PlanningPage';
import { ManufacturingPage } from './pages/manufacturing/ManufacturingPage';
import { CommandCenterPage } from './pages/commandCenter/CommandCenterPage';
import { OrdersPage } from './pages/sales/OrdersPage';
import { OrderDetailPage } from './pages/sales/OrderDetailPage';
import { OrderImportPage } from './pages/sales/OrderImportPage';
import { PaymentsPage } from './pages/sales/PaymentsPage';
import { ShippingPage } from './pages/sales/ShippingPage';
import { QuotesPage } from './pages/sales/QuotesPage';
import { InvoicesPage } from './pages/invoices/InvoicesPage';
import { InvoiceDetailPage } from './pages/invoices/InvoiceDetailPage';
import { MessagesPage } from './pages/messages/MessagesPage';
import { BulkExportsPage } from './pages/reports/BulkExportsPage';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retry only what may pass on a second try.
        retry: (failures, error) => {
          if (error instanceof ApiError && (error.status === 0 || error.status >= 500)) return failures < 2;
          return false;
        },
      },
      mutations: { retry: false },
    },
  });
}

interface AdminPage {
  path: string;
  adminOnly: boolean;
  element: ReactNode;
}

/**
 * Every authenticated route of spec 4.5, relative to /admin. `adminOnly` follows
 * the last paragraph of spec 4.5 and the starred items of CONTRACT 7.
 */
export const ADMIN_PAGES: AdminPage[] = [
  { path: 'command-center', adminOnly: false, element: <CommandCenterPage /> },
  { path: 'orders', adminOnly: false, element: <OrdersPage /> },
  { path: 'orders/import', adminOnly: true, element: <OrderImportPage /> },
  { path: 'orders/:orderId', adminOnly: false, element: <OrderDetailPage /> },
  { path: 'quotes', adminOnly: false, element: <QuotesPage /> },
  { path: 'messages', adminOnly: false, element: <MessagesPage /> },
  { path: 'invoices', adminOnly: true, element: <InvoicesPage /> },
  { path: 'invoices/:invoiceId', adminOnly: true, element: <InvoiceDetailPage /> },
  { path: 'payments', adminOnly: true, element: <PaymentsPage /> },
  { path: 'customers', adminOnly: true, element: <CustomersPage /> },
  { path: 'bom', adminOnly: false, element: <BomPage /> },
  { path: 'items', adminOnly: false, element: <ItemsPage /> },
  { path: 'purchasing', adminOnly: false, element: <PurchasingPage /> },
  { path: 'manufacturing', adminOnly: false, element: <ManufacturingPage /> },
  { path: 'production', adminOnly: false, element: <ProductionPage /> },
  { path: 'production/:orderId', adminOnly: false, element: <ProductionDetailPage /> },
  { path: 'planning', adminOnly: false, element: <PlanningPage /> },
  { path: 'shipping', adminOnly: false, element: <ShippingPage /> },
  { path: 'materials/import', adminOnly: true, element: <MaterialImportPage /> },
  { path: 'inventory/transactions', adminOnly: true, element: <TransactionsPage /> },
  { path: 'inventory/cycle-count', adminOnly: true, element: <CycleCountPage /> },
  { path: 'users', adminOnly: true, element: <TeamMembersPage /> },
  { path: 'locations', adminOnly: true, element: <LocationsPage /> },
  { path: 'accounting', adminOnly: true, element: <AccountingPage /> },
  { path: 'printers', adminOnly: false, element: <PrintersPage /> },
  { path: 'scrap-reasons', adminOnly: true, element: <ScrapReasonsPage /> },
  { path: 'spools', adminOnly: true, element: <SpoolsPage /> },
  { path: 'quality', adminOnly: false, element: <QualityDashboardPage /> },
  { path: 'quality/plans', adminOnly: false, element: <QualityPlansPage /> },
  { path: 'quality/traceability', adminOnly: false, element: <TraceabilityPage /> },
  { path: 'reports/exports', adminOnly: false, element: <BulkExportsPage /> },
  { path: 'settings', adminOnly: true, element: <SettingsPage /> },
  { path: 'security', adminOnly: true, element: <SecurityAuditPage /> },
];

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/admin" replace />} />
      <Route path="/setup" element={<SetupPage />} />
      <Route path="/onboarding" element={<OnboardingPage />} />
      <Route path="/admin/login" element={<LoginPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route path="/admin/password-reset/:action/:token" element={<PasswordResetDecisionPage />} />
      <Route path="/admin" element={<AdminLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="products" element={<Navigate to="/admin/items" replace />} />
        {ADMIN_PAGES.map((p) => (
          <Route key={p.path} path={p.path} element={<RequireRole adminOnly={p.adminOnly}>{p.element}</RequireRole>} />
        ))}
        <Route path="*" element={<NotFoundPage inShell />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

/** Everything but the router, shared by the app and the tests. */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <AuthProvider>{children}</AuthProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}

const queryClient = createQueryClient();

export function App() {
  return (
    <BrowserRouter>
      <AppProviders client={queryClient}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
