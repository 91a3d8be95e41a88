import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Check, CloudOff, Database, PartyPopper } from 'lucide-react';
import { importApi, itemsApi, setupApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { SeedExampleDataResponse } from '../../api/model';
import { useAuth } from '../../auth/AuthContext';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { ImportSummary } from '../../components/CsvUpload';
import { LogoMark } from '../../components/Logo';
import { useDocumentTitle } from '../../components/PageHeader';
import { PageSpinner } from '../../components/Spinner';
import { AccountStep } from './AccountStep';
import { ImportStep } from './ImportStep';
import { loadWizard, saveWizard, STEPS, type WizardState } from './steps';
import { queryKeys } from '../../api/queryKeys';

export function OnboardingPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const [wizard, setWizard] = useState<WizardState>(loadWizard);
  const current = STEPS[wizard.step - 1]!;
  useDocumentTitle(`Set up Strata · ${current.title}`);

  const status = useQuery({ queryKey: queryKeys.setup.status(), queryFn: setupApi.status, retry: false, staleTime: 0 });

  // Past step 1 the wizard needs the session it opened; without one, start over.
  if (wizard.step > 1 && !user) setWizard({ step: 1, outcomes: {}, notes: {} });

  // Setup already done and this tab is not in the middle of it: nothing to do here.
  const alreadySetUp = status.data?.needs_setup === false && wizard.step === 1;
  useEffect(() => {
    if (alreadySetUp) navigate(user ? '/admin' : '/admin/login', { replace: true });
  }, [alreadySetUp, user, navigate]);

  useEffect(() => {
    saveWizard(wizard);
  }, [wizard]);

  const advance = (outcome: 'done' | 'skipped', note?: string) => {
    setWizard((w) => ({
      step: Math.min(7, w.step + 1),
      outcomes: { ...w.outcomes, [w.step]: outcome },
      notes: note ? { ...w.notes, [w.step]: note } : w.notes,
    }));
    window.scrollTo({ top: 0 });
  };
  const back = () => setWizard((w) => ({ ...w, step: Math.max(2, w.step - 1) }));

  const finish = () => {
    saveWizard(null);
    navigate('/admin', { replace: true });
  };

  let body: React.ReactNode;
  if (status.isPending && wizard.step === 1) {
    body = <PageSpinner label="Checking setup status" />;
  } else {
    switch (current.key) {
      case 'account':
        body = (
          <>
            {status.error && (
              <div className="alert alert--warning" role="alert" data-testid="server-unreachable">
                <CloudOff size={18} aria-hidden="true" className="alert__icon" />
                <div>
                  <strong className="alert__title">Cannot check the server’s setup status</strong>
                  <span>{errorMessage(status.error)}</span>
                </div>
                <Button size="sm" onClick={() => void status.refetch()} loading={status.isFetching}>
                  Retry
                </Button>
              </div>
            )}
            <AccountStep onDone={(note) => advance('done', note)} />
          </>
        );
        break;
      case 'example':
        body = <ExampleDataStep onNext={advance} />;
        break;
      case 'products':
        body = (
          <ImportStep
            key="products"
            intro={<p>Bring in your product catalogue. Existing SKUs are left as they are.</p>}
            columns="SKU, Name, Description, Item Type, Unit, Standard Cost, Selling Price"
            templateColumns={['SKU', 'Name', 'Description', 'Item Type', 'Unit', 'Standard Cost', 'Selling Price']}
            templateName="strata-products.csv"
            upload={(f, o) => itemsApi.importCsv(f, o)}
            summarize={(r) => ({
              counts: [
                { label: 'Created', value: r.created, tone: 'success' },
                { label: 'Updated', value: r.updated },
                { label: 'Skipped', value: r.skipped, tone: 'warning' },
              ],
              errors: r.errors,
              note: `${r.created} product${r.created === 1 ? '' : 's'} imported`,
            })}
            onNext={advance}
            onBack={back}
          />
        );
        break;
      case 'customers':
        body = (
          <ImportStep
            key="customers"
            intro={<p>Import the people and companies you sell to.</p>}
            columns="Email, First Name, Last Name, Company, Phone, and address fields"
            templateColumns={['Email', 'First Name', 'Last Name', 'Company', 'Phone', 'Address Line 1', 'City', 'State', 'Zip', 'Country']}
            templateName="strata-customers.csv"
            upload={(f, o) => importApi.customers(f, o)}
            summarize={(r) => ({
              counts: [
                { label: 'Imported', value: r.imported, tone: 'success' },
                { label: 'Skipped', value: r.skipped, tone: 'warning' },
              ],
              errors: r.errors,
              note: `${r.imported} customer${r.imported === 1 ? '' : 's'} imported`,
            })}
            onNext={advance}
            onBack={back}
          />
        );
        break;
      case 'orders':
        body = (
          <ImportStep
            key="orders"
            intro={
              <p>
                Import orders exported from your shop. Rows with the same Order ID become one order, and customers that
                don’t exist yet are created.
              </p>
            }
            columns={
              <>
                Required: Order ID, Customer Email, Product SKU, Quantity. Optional: Customer Name, Shipping Address, Unit
                Price, Shipping Cost, Tax Amount.
              </>
            }
            templateColumns={[
              'Order ID',
              'Order Date',
              'Customer Email',
              'Customer Name',
              'Product SKU',
              'Quantity',
              'Unit Price',
              'Shipping Cost',
              'Tax Amount',
              'Shipping Address Line 1',
              'Shipping City',
              'Shipping State',
              'Shipping Zip',
              'Shipping Country',
            ]}
            templateName="strata-orders.csv"
            upload={(f, o) => importApi.orders(f, o)}
            summarize={(r) => ({
              counts: [
                { label: 'Orders created', value: r.created, tone: 'success' },
                { label: 'Skipped', value: r.skipped, tone: 'warning' },
              ],
              errors: r.errors,
              note: `${r.created} order${r.created === 1 ? '' : 's'} imported`,
            })}
            onNext={advance}
            onBack={back}
          />
        );
        break;
      case 'inventory':
        body = (
          <ImportStep
            key="inventory"
            intro={<p>Set your stock on hand. Items must exist already (import products first).</p>}
            columns="SKU, Quantity (required); Location (default MAIN), Lot Number, Mode (set or add)"
            templateColumns={['SKU', 'Location', 'Quantity']}
            templateName="strata-inventory.csv"
            upload={(f, o) => importApi.inventory(f, o)}
            summarize={(r) => ({
              counts: [
                { label: 'Created', value: r.created, tone: 'success' },
                { label: 'Updated', value: r.updated },
                { label: 'Processed', value: r.total_processed },
              ],
              errors: r.errors,
              note: `${r.created + r.updated} stock level${r.created + r.updated === 1 ? '' : 's'} set, ${r.inventory_transactions} stock transaction${r.inventory_transactions === 1 ? '' : 's'} posted`,
            })}
            onNext={advance}
            onBack={back}
          />
        );
        break;
      case 'complete':
        body = <CompleteStep wizard={wizard} onFinish={finish} />;
        break;
    }
  }

  return (
    <div className="wizard">
      <aside className="wizard__rail">
        <div className="wizard__brand">
          <LogoMark size={30} />
          <span>Strata</span>
        </div>
        <p className="wizard__rail-title">Set up your workspace</p>
        <ol className="stepper" aria-label="Setup steps">
          {STEPS.map((s) => {
            const outcome = wizard.outcomes[s.n];
            const state = s.n === wizard.step ? 'current' : outcome ? outcome : 'upcoming';
            return (
              <li key={s.n} className={`stepper__item is-${state}`} aria-current={s.n === wizard.step ? 'step' : undefined}>
                <span className="stepper__dot" aria-hidden="true">
                  {outcome === 'done' ? <Check size={14} /> : s.n}
                </span>
                <span className="stepper__text">
                  <span className="stepper__title">{s.title}</span>
                  <span className="stepper__summary">
                    {outcome === 'skipped' ? 'Skipped' : s.optional ? `${s.summary} · optional` : s.summary}
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      </aside>
      <main className="wizard__main">
        <div className="wizard__panel">
          <p className="wizard__count">
            Step {current.n} of {STEPS.length}
          </p>
          <h1 className="wizard__title">{current.title}</h1>
          {current.key === 'account' && (
            <p className="wizard__lead">Welcome to Strata. Create the administrator account you’ll use to run your workspace.</p>
          )}
          {body}
        </div>
      </main>
    </div>
  );
}

function ExampleDataStep({ onNext }: { onNext: (o: 'done' | 'skipped', note?: string) => void }) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SeedExampleDataResponse | null>(null);

  const load = async () => {
    setLoading(true);
    setError(null);
    try {
      setResult(await setupApi.seedExampleData());
    } catch (err) {
      if (err instanceof ApiError && err.isNotFound) {
        setError('Example data is not available on the server yet (404 Not Found). Skip this step to continue.');
      } else setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="import-step">
      <div className="feature-card">
        <Database size={22} aria-hidden="true" className="feature-card__icon" />
        <div>
          <p>
            Load a small set of sample items, materials, colors and units of measure to explore Strata before adding your own
            data. You can edit or deactivate the samples later.
          </p>
        </div>
      </div>
      <FormError message={error} />
      {result && (
        <>
          <p className="alert alert--success" role="status">
            {result.message}
          </p>
          <ImportSummary
            counts={[
              { label: 'Items', value: result.items_created, tone: 'success' },
              { label: 'Materials', value: result.materials_created, tone: 'success' },
              { label: 'Colors', value: result.colors_created },
              { label: 'Units', value: result.uoms_created },
              { label: 'Skipped', value: result.items_skipped, tone: 'warning' },
            ]}
          />
        </>
      )}
      <div className="wizard__actions">
        <span />
        <div className="wizard__actions-right">
          {result ? (
            <Button
              variant="primary"
              onClick={() =>
                onNext('done', `${result.items_created} sample item${result.items_created === 1 ? '' : 's'} loaded`)
              }
            >
              Continue
            </Button>
          ) : (
            <>
              <Button variant="ghost" onClick={() => onNext('skipped')} disabled={loading}>
                Skip this step
              </Button>
              <Button variant="primary" onClick={() => void load()} loading={loading}>
                Load example data
              </Button>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function CompleteStep({ wizard, onFinish }: { wizard: WizardState; onFinish: () => void }) {
  return (
    <div className="complete-step" data-testid="onboarding-complete">
      <div className="complete-step__icon" aria-hidden="true">
        <PartyPopper size={28} />
      </div>
      <p className="wizard__lead">Your workspace is ready. Here is what was set up:</p>
      <ul className="complete-step__list">
        {STEPS.slice(0, 6).map((s) => (
          <li key={s.n} className={wizard.outcomes[s.n] === 'done' ? 'is-done' : 'is-skipped'}>
            <span className="complete-step__mark" aria-hidden="true">
              {wizard.outcomes[s.n] === 'done' ? <Check size={14} /> : '–'}
            </span>
            <span>
              <strong>{s.title}</strong>
              <span className="muted"> · {wizard.notes[s.n] ?? (wizard.outcomes[s.n] === 'done' ? 'Done' : 'Skipped')}</span>
            </span>
          </li>
        ))}
      </ul>
      <Button variant="primary" size="lg" onClick={onFinish} autoFocus>
        Go to the dashboard
      </Button>
    </div>
  );
}
