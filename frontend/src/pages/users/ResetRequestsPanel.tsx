import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, KeyRound, X } from 'lucide-react';
import { z } from 'zod';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextAreaField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { passwordResetsApi, type ResetApproval, type ResetDenialBody, type ResetRequest } from './passwordResetsApi';

/** The deny form; its output is the body of POST /admin/password-reset-requests/{id}/deny. */
export const denySchema = z.object({
  reason: z
    .string()
    .trim()
    .max(500, 'Use at most 500 characters.')
    .transform((v) => v || null),
}) satisfies z.ZodType<ResetDenialBody, unknown>;

type DenyValues = z.input<typeof denySchema>;

function nameOf(r: ResetRequest): string {
  return [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email;
}

/** "Olivia Ops (olivia@example.com)", or the address alone. */
function whoOf(r: ResetRequest): string {
  const name = nameOf(r);
  return name === r.email ? name : `${name} (${r.email})`;
}

/** The server gives the full link; a bare path (no public address configured) gets this origin. */
function absolute(link: string): string {
  return link.startsWith('/') ? `${window.location.origin}${link}` : link;
}

/**
 * Password reset requests waiting for an administrator: shown only while there are some
 * (or to say the list failed). Without mail, approving answers the link itself, which the
 * admin hands over; with mail the user is e-mailed.
 */
export function ResetRequestsPanel() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const titleId = useId();
  const list = useQuery({
    queryKey: queryKeys.users.resetRequests(),
    queryFn: ({ signal }) => passwordResetsApi.list(signal),
    // Requests arrive (and lapse) while the page is open.
    refetchInterval: 60_000,
  });
  const [approving, setApproving] = useState<ResetRequest | null>(null);
  const [denying, setDenying] = useState<ResetRequest | null>(null);
  const [handOver, setHandOver] = useState<ResetApproval | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.users.resetRequests() });

  const approve = useMutation({
    mutationFn: (r: ResetRequest) => passwordResetsApi.approve(r.id),
    onSuccess: (res) => {
      // Closed in the same render as the link opens, so the link dialog keeps the focus.
      setApproving(null);
      if (res.reset_url) setHandOver(res);
      else toast.success('Reset approved', `${res.user_email} has been e-mailed a link to choose a new password.`);
    },
    onError: (err) => {
      setApproving(null);
      toast.error('The reset was not approved', errorMessage(err));
    },
    // Refused too (already reviewed, expired): the list is out of date either way.
    onSettled: () => refresh(),
  });

  const rows = list.data ?? [];
  if (list.isError) {
    return (
      <section className="card reset-requests" aria-labelledby={titleId}>
        <ResetRequestsHeader titleId={titleId} />
        <ErrorState compact error={list.error} onRetry={() => void list.refetch()} />
      </section>
    );
  }

  return (
    <>
      {rows.length > 0 && (
        <section className="card reset-requests" aria-labelledby={titleId}>
          <ResetRequestsHeader titleId={titleId} count={rows.length} />
          <div className="reset-requests__scroll">
            <table className="table" aria-label="Password reset requests">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Expires</th>
                  <th scope="col" className="align-right">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{nameOf(r)}</span>
                        {nameOf(r) !== r.email && <span className="cell-sub">{r.email}</span>}
                      </div>
                    </td>
                    <td>
                      <time dateTime={r.requested_at} title={formatDateTime(r.requested_at)}>
                        {formatRelativeTime(r.requested_at)}
                      </time>
                    </td>
                    <td>
                      <time dateTime={r.expires_at} title={formatRelativeTime(r.expires_at)}>
                        {formatDateTime(r.expires_at)}
                      </time>
                    </td>
                    <td className="shrink align-right">
                      <div className="row-actions reset-requests__actions">
                        <Button
                          size="sm"
                          variant="primary"
                          icon={<Check size={14} />}
                          aria-label={`Approve the reset for ${r.email}`}
                          onClick={() => setApproving(r)}
                        >
                          Approve
                        </Button>
                        <Button size="sm" icon={<X size={14} />} aria-label={`Deny the reset for ${r.email}`} onClick={() => setDenying(r)}>
                          Deny
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <ConfirmDialog
        open={approving !== null}
        title="Approve this password reset?"
        destructive={false}
        confirmLabel="Approve reset"
        busy={approve.isPending}
        onConfirm={() => approving && approve.mutate(approving)}
        onCancel={() => setApproving(null)}
        message={
          approving && (
            <p>{whoOf(approving)} gets a link to choose a new password. It works for 1 hour.</p>
          )
        }
      />
      <DenyDialog request={denying} onClose={() => setDenying(null)} onSettled={refresh} />
      <ResetLinkDialog approval={handOver} onClose={() => setHandOver(null)} />
    </>
  );
}

function ResetRequestsHeader({ titleId, count }: { titleId: string; count?: number }) {
  return (
    <header className="card__header reset-requests__header">
      <div className="reset-requests__title">
        <KeyRound size={18} aria-hidden="true" />
        <h2 id={titleId} className="card__title">
          Password reset requests
        </h2>
        {count !== undefined && (
          <Badge tone="warning">
            {count}
            <span className="sr-only"> waiting</span>
          </Badge>
        )}
      </div>
      <p className="muted">Team members who asked to reset a forgotten password. Approve only if you know they asked.</p>
    </header>
  );
}

/** Asks for an optional reason, then denies the request (the password stays as it is). */
function DenyDialog({ request, onClose, onSettled }: { request: ResetRequest | null; onClose: () => void; onSettled: () => Promise<unknown> }) {
  const toast = useToast();
  const form = useZodForm(denySchema, { defaultValues: { reason: '' } satisfies DenyValues });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={request !== null}
      onClose={onClose}
      size="sm"
      id="deny-reset-form"
      label="Deny password reset"
      title="Deny this password reset?"
      description={request ? `${whoOf(request)} keeps their current password.` : undefined}
      errorTitle="The reset was not denied"
      submitLabel="Deny reset"
      submitVariant="danger"
      lockWhilePending
      submit={(body) => passwordResetsApi.deny(request?.id ?? 0, body)}
      onSuccess={async (res) => {
        toast.success('Reset denied', `${res.user_email} keeps their current password.`);
        await onSettled();
      }}
      serverError={() => {
        // Already reviewed or gone: the list is out of date. The banner shows why, as usual.
        void onSettled();
        return undefined;
      }}
      fields={['reason']}
    >
      <TextAreaField label="Reason (optional)" maxLength={500} error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}

/** The link an approval answered (no mail): shown once, to copy and hand over. */
function ResetLinkDialog({ approval, onClose }: { approval: ResetApproval | null; onClose: () => void }) {
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const link = approval?.reset_url ? absolute(approval.reset_url) : '';
  const close = () => {
    setCopied(false);
    onClose();
  };
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard (a page not served over HTTPS): select the link so Ctrl+C copies it.
      inputRef.current?.select();
      toast.info('Copy the selected link', 'This browser does not let the page copy it for you.');
    }
  };
  return (
    <Modal
      open={approval !== null}
      onClose={close}
      title="Reset approved"
      size="sm"
      initialFocus={inputRef}
      footer={
        <Button variant="primary" onClick={close}>
          Done
        </Button>
      }
    >
      {approval && (
        <div className="reset-link">
          <p>
            Give this link to <strong>{approval.user_email}</strong>; it works for 1 hour.
          </p>
          <div className="reset-link__row">
            <input
              ref={inputRef}
              className="input"
              readOnly
              value={link}
              aria-label="Reset link"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button icon={copied ? <Check size={16} /> : <Copy size={16} />} onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="muted small">It is shown only this once: copy it before you close this window.</p>
        </div>
      )}
    </Modal>
  );
}
