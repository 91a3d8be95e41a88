import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { setupApi } from '../../api/endpoints';
import { AuthShell } from '../../components/AuthShell';
import { ErrorState } from '../../components/States';
import { PageSpinner } from '../../components/Spinner';
import { queryKeys } from '../../api/queryKeys';

/** `/setup`: a fresh install goes to the wizard, anything else to sign in (CONTRACT 7). */
export function SetupPage() {
  const navigate = useNavigate();
  const status = useQuery({ queryKey: queryKeys.setup.status(), queryFn: setupApi.status, retry: false, staleTime: 0 });
  useEffect(() => {
    if (status.data) navigate(status.data.needs_setup ? '/onboarding' : '/admin/login', { replace: true });
  }, [status.data, navigate]);
  return (
    <AuthShell title="Setting up Strata">
      {status.error ? (
        <ErrorState error={status.error} onRetry={() => void status.refetch()} compact />
      ) : (
        <PageSpinner label="Checking setup status" />
      )}
    </AuthShell>
  );
}
