import type { ReactNode } from 'react';
import { api } from '../api/client';
import { apiBaseUrl } from '../api/config';
import { errorMessage } from '../api/errors';
import { getAccessToken } from '../auth/storage';
import { useToast } from './Toast';

/** Fetches a download with the session's token and hands it to the browser under `filename`. */
export async function saveDownload(url: string, filename: string): Promise<void> {
  const data = await api.blob(url);
  const href = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.click();
  // Give the browser a moment to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

interface DownloadLinkProps {
  /** `/api/v1/…` (query string allowed). */
  url: string;
  filename: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * A link that downloads an API file. In cookie mode the browser follows it with the session
 * cookie; in header mode a plain link would not carry the bearer token, so it is fetched.
 */
export function DownloadLink({ url, filename, className, children, ...rest }: DownloadLinkProps) {
  const toast = useToast();
  return (
    <a
      className={className}
      href={`${apiBaseUrl()}${url}`}
      download={filename}
      aria-label={rest['aria-label']}
      onClick={(e) => {
        if (!getAccessToken()) return;
        e.preventDefault();
        void saveDownload(url, filename).catch((err: unknown) => toast.error('The file was not downloaded', errorMessage(err)));
      }}
    >
      {children}
    </a>
  );
}
