import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { useDocumentTitle } from '../components/PageHeader';

export function NotAllowedPage() {
  useDocumentTitle('Not allowed');
  return (
    <div className="center-panel" data-testid="not-allowed">
      <div className="center-panel__icon center-panel__icon--warning" aria-hidden="true">
        <Lock size={26} />
      </div>
      <h1 className="center-panel__title">You don’t have access to this page</h1>
      <p className="center-panel__text">
        This area is for administrators. If you need it for your work, ask an administrator to change your role in Team
        Members.
      </p>
      <Link className="btn btn--primary btn--md" to="/admin">
        Back to dashboard
      </Link>
    </div>
  );
}
