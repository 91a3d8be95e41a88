import { useMutation, useQuery } from '@tanstack/react-query';
import { PlugZap } from 'lucide-react';
import { settingsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { humanize } from '../../lib/format';
import { queryKeys } from '../../api/queryKeys';

/** The AI assistant's provider and a "Test connection" button (POST /settings/ai/test). */
export function AiConnectionCard() {
  const settings = useQuery({ queryKey: queryKeys.settings.ai(), queryFn: ({ signal }) => settingsApi.ai(signal) });
  const test = useMutation({ mutationFn: () => settingsApi.testAi() });
  const ai = settings.data;

  return (
    <section className="card settings-card" aria-labelledby="ai-settings-title">
      <header className="settings-card__head">
        <h2 className="card__title" id="ai-settings-title">
          AI assistant
        </h2>
        <p className="muted small">Checks that Strata can reach the configured provider. Nothing is sent but a status request.</p>
      </header>
      {settings.isPending ? (
        <Skeleton height={34} />
      ) : settings.error ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} compact />
      ) : (
        <p>
          Provider: <span className="cell-strong">{ai?.provider ? humanize(ai.provider) : 'none chosen'}</span>
          {ai?.provider === 'ollama' && ai.ollama_url ? <span className="muted mono"> ({ai.ollama_url})</span> : null}
          {ai?.model ? <span className="muted"> · model {ai.model}</span> : null}
        </p>
      )}
      <div className="ai-test__result">
        <Button icon={<PlugZap size={16} />} loading={test.isPending} onClick={() => test.mutate()}>
          Test connection
        </Button>
        <div role="status" aria-live="polite">
          {test.isError ? (
            <span className="field__error">{errorMessage(test.error)}</span>
          ) : test.data ? (
            <>
              <Badge tone={test.data.success ? 'success' : 'danger'}>{test.data.success ? 'Connected' : 'Failed'}</Badge>{' '}
              <span>{test.data.message}</span>
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}
