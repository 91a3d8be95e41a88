import { useState, type ReactNode } from 'react';
import { ApiError, errorMessage } from '../../api/errors';
import type { ImportRowError } from '../../api/model';
import type { RequestOptions } from '../../api/client';
import { Button } from '../../components/Button';
import { CsvPicker, ImportSummary, UploadProgress, type ImportCount } from '../../components/CsvUpload';
import { FormError } from '../../components/Field';

export interface ImportStepProps<R> {
  intro: ReactNode;
  columns: ReactNode;
  templateColumns: readonly string[];
  templateName: string;
  upload: (file: File, opts: Pick<RequestOptions, 'onUploadProgress'>) => Promise<R>;
  summarize: (result: R) => { counts: ImportCount[]; errors?: ImportRowError[]; note: string };
  onNext: (outcome: 'done' | 'skipped', note?: string) => void;
  onBack?: () => void;
}

/** One CSV import of the setup wizard: pick, preview, upload with progress, show the server's counts. */
export function ImportStep<R>({ intro, columns, templateColumns, templateName, upload, summarize, onNext, onBack }: ImportStepProps<R>) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ReturnType<typeof summarize> | null>(null);

  const run = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const res = await upload(file, { onUploadProgress: setProgress });
      setResult(summarize(res));
    } catch (err) {
      if (err instanceof ApiError && err.isNotFound) {
        setError('This import is not available on the server yet (404 Not Found). Skip this step and import later.');
      } else {
        setError(`The import failed: ${errorMessage(err)} You can fix the file and try again, or skip this step.`);
      }
    } finally {
      setProgress(null);
    }
  };

  const uploading = progress !== null;

  return (
    <div className="import-step">
      <div className="import-step__intro">{intro}</div>
      <div className="hint-box">
        <strong>Columns</strong>
        <div>{columns}</div>
      </div>
      {!result && (
        <CsvPicker
          file={file}
          onFile={(f) => {
            setFile(f);
            setError(null);
          }}
          templateColumns={templateColumns}
          templateName={templateName}
          disabled={uploading}
        />
      )}
      {uploading && <UploadProgress fraction={progress} />}
      <FormError message={error} />
      {result && <ImportSummary counts={result.counts} errors={result.errors ?? []} />}
      <div className="wizard__actions">
        {onBack ? (
          <Button variant="ghost" onClick={onBack} disabled={uploading}>
            Back
          </Button>
        ) : (
          <span />
        )}
        <div className="wizard__actions-right">
          {result ? (
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  setResult(null);
                  setFile(null);
                }}
              >
                Import another file
              </Button>
              <Button variant="primary" onClick={() => onNext('done', result.note)}>
                Continue
              </Button>
            </>
          ) : (
            <>
              <Button variant="ghost" onClick={() => onNext('skipped')} disabled={uploading}>
                Skip this step
              </Button>
              <Button variant="primary" onClick={() => void run()} disabled={!file} loading={uploading}>
                Import file
              </Button>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
