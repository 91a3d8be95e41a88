import { useId, useRef, useState, type DragEvent } from 'react';
import { Download, FileSpreadsheet, UploadCloud, X } from 'lucide-react';
import { previewCsv, templateHref, type CsvPreview } from '../lib/csv';
import { formatBytes, formatImportError } from '../lib/format';
import type { ImportRowError } from '../api/model';

const PREVIEW_BYTES = 512 * 1024;

interface CsvPickerProps {
  file: File | null;
  onFile: (file: File | null) => void;
  templateColumns?: readonly string[];
  templateName?: string;
  disabled?: boolean;
  label?: string;
}

/** Choose or drop a CSV file and see its first rows before uploading. */
export function CsvPicker({ file, onFile, templateColumns, templateName = 'template.csv', disabled, label = 'CSV file' }: CsvPickerProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);

  const choose = async (f: File | null) => {
    onFile(f);
    setPreview(null);
    setPreviewError(null);
    if (!f) {
      if (inputRef.current) inputRef.current.value = '';
      return;
    }
    if (!/\.csv$/i.test(f.name) && f.type !== 'text/csv') {
      setPreviewError('This doesn’t look like a CSV file. Export your spreadsheet as CSV and try again.');
      return;
    }
    try {
      const text = await f.slice(0, PREVIEW_BYTES).text();
      const p = previewCsv(text);
      if (p.headers.length === 0) setPreviewError('The file is empty.');
      else setPreview(f.size > PREVIEW_BYTES ? { ...p, totalRows: -1 } : p);
    } catch {
      setPreviewError('The file could not be read.');
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const f = e.dataTransfer.files[0];
    if (f) void choose(f);
  };

  return (
    <div className="csv-picker">
      {!file ? (
        <div
          className={`dropzone${dragging ? ' is-dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <UploadCloud size={26} aria-hidden="true" className="dropzone__icon" />
          <p className="dropzone__text">
            Drag a CSV file here, or{' '}
            <label htmlFor={inputId} className="link dropzone__browse">
              browse
            </label>
          </p>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            aria-label={label}
            disabled={disabled}
            onChange={(e) => void choose(e.target.files?.[0] ?? null)}
          />
          {templateColumns && (
            <a className="link small dropzone__template" href={templateHref(templateColumns)} download={templateName}>
              <Download size={14} aria-hidden="true" /> Download a template
            </a>
          )}
        </div>
      ) : (
        <div className="file-chip">
          <FileSpreadsheet size={20} aria-hidden="true" />
          <div className="file-chip__text">
            <strong>{file.name}</strong>
            <span>
              {formatBytes(file.size)}
              {preview && preview.totalRows >= 0 && ` · ${preview.totalRows} data row${preview.totalRows === 1 ? '' : 's'}`}
            </span>
          </div>
          <button
            type="button"
            className="icon-btn icon-btn--sm"
            aria-label="Remove file"
            disabled={disabled}
            onClick={() => void choose(null)}
          >
            <X size={16} />
          </button>
        </div>
      )}
      {previewError && (
        <p className="field__error" role="alert">
          {previewError}
        </p>
      )}
      {preview && (
        <div className="csv-preview">
          <p className="csv-preview__caption">
            Preview of the first {preview.rows.length} row{preview.rows.length === 1 ? '' : 's'}
          </p>
          <div className="csv-preview__scroll">
            <table className="table table--compact" data-testid="csv-preview">
              <thead>
                <tr>
                  {preview.headers.map((h, i) => (
                    <th key={i} scope="col">
                      {h || <span className="muted">(blank)</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((r, i) => (
                  <tr key={i}>
                    {preview.headers.map((_, j) => (
                      <td key={j}>{r[j] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}

export function UploadProgress({ fraction }: { fraction: number }) {
  const pct = Math.round(fraction * 100);
  return (
    <div className="upload-progress">
      <div
        className="upload-progress__bar"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <span className="upload-progress__text">{pct < 100 ? `Uploading… ${pct}%` : 'Processing on the server…'}</span>
    </div>
  );
}

export interface ImportCount {
  label: string;
  value: number | undefined;
  tone?: 'success' | 'neutral' | 'warning' | 'danger';
}

export function ImportSummary({ counts, errors }: { counts: ImportCount[]; errors?: ImportRowError[] }) {
  const shown = counts.filter((c) => c.value !== undefined);
  const errs = errors ?? [];
  return (
    <div className="import-summary" data-testid="import-summary" role="status">
      <dl className="stat-row">
        {shown.map((c) => (
          // A tone only colours a count that is there: a zero stays neutral.
          <div key={c.label} className={`stat stat--${c.tone && Number(c.value) > 0 ? c.tone : 'neutral'}`}>
            <dt>{c.label}</dt>
            <dd>{c.value}</dd>
          </div>
        ))}
        {errors && (
          <div className={`stat stat--${errs.length ? 'danger' : 'neutral'}`}>
            <dt>Errors</dt>
            <dd>{errs.length}</dd>
          </div>
        )}
      </dl>
      {errs.length > 0 && (
        <details className="import-errors" open={errs.length <= 5}>
          <summary>
            {errs.length} row{errs.length === 1 ? '' : 's'} could not be imported
          </summary>
          <ul>
            {errs.slice(0, 100).map((e, i) => (
              <li key={i}>{formatImportError(e)}</li>
            ))}
          </ul>
          {errs.length > 100 && <p className="muted small">…and {errs.length - 100} more.</p>}
        </details>
      )}
    </div>
  );
}

