import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { buildUrl } from '../../api/client';
import { Button } from '../../components/Button';
import { CsvPicker, ImportSummary, UploadProgress } from '../../components/CsvUpload';
import { DownloadLink } from '../../components/DownloadLink';
import { CheckboxField, FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { importMaterials, MATERIAL_TEMPLATE_URL, type MaterialImportResult } from './materialImport';
import './materials.css';
import { queryKeys } from '../../api/queryKeys';

const COLUMNS = ['Category', 'SKU', 'Name', 'Material Type', 'Material Color Name', 'HEX Code', 'Unit', 'Status', 'Price', 'On Hand (g)'];

/** Import filament and other materials from a CSV: types, colours, categories, items and opening stock. */
export function MaterialImportPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [updateExisting, setUpdateExisting] = useState(false);
  const [importCategories, setImportCategories] = useState(true);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<MaterialImportResult | null>(null);
  // A new picker after each import (it keeps its own preview).
  const [pickerKey, setPickerKey] = useState(0);

  const upload = useMutation({
    mutationFn: (f: File) => importMaterials(f, { update_existing: updateExisting, import_categories: importCategories }, setProgress),
    onSuccess: async (r) => {
      setProgress(null);
      setResult(r);
      setFile(null);
      setPickerKey((k) => k + 1);
      if (r.errors.length) toast.error('Imported with errors', r.errors.length === 1 ? '1 row needs fixing.' : `${r.errors.length} rows need fixing.`);
      else toast.success('Materials imported', r.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    onError: () => setProgress(null),
  });

  return (
    <div className="page">
      <PageHeader
        title="Import Materials"
        description="Bring your filament and material catalogue in from a spreadsheet: material types, colours, categories, items and stock on hand."
        actions={
          <DownloadLink url={buildUrl('', MATERIAL_TEMPLATE_URL)} filename="materials-template.csv" className="btn btn--secondary btn--md" aria-label="Download template">
            <Download size={16} aria-hidden="true" />
            <span className="btn__label">Download template</span>
          </DownloadLink>
        }
      />
      <div className="material-import">
        <section className="card card--pad" aria-label="Upload">
          <h2 className="material-import__title">Upload a CSV</h2>
          <p className="muted small">
            Columns: {COLUMNS.join(', ')}. Quantities are grams; new stock is received at location MAIN.
          </p>
          <CsvPicker key={pickerKey} file={file} onFile={setFile} disabled={upload.isPending} label="Materials CSV file" />
          <div className="material-import__options">
            <CheckboxField
              label="Update existing materials"
              hint="Rows whose SKU exists change that material and set its stock to the file’s grams; otherwise they are skipped."
              checked={updateExisting}
              disabled={upload.isPending}
              onChange={(e) => setUpdateExisting(e.target.checked)}
            />
            <CheckboxField
              label="Create categories"
              hint="Categories in the file are created under “Filament” when missing."
              checked={importCategories}
              disabled={upload.isPending}
              onChange={(e) => setImportCategories(e.target.checked)}
            />
          </div>
          {upload.isError && <FormError title="The file was not imported" message={errorMessage(upload.error)} />}
          {progress !== null && <UploadProgress fraction={progress} />}
          <div>
            <Button variant="primary" icon={<Upload size={16} />} disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
              Import materials
            </Button>
          </div>
        </section>
        <section className="card card--pad" aria-label="Result">
          <h2 className="material-import__title">Result</h2>
          {!result ? (
            <EmptyState compact icon={<Upload size={22} />} title="Nothing imported yet" description="Choose a CSV file and import it; the counts and any row errors appear here." />
          ) : (
            <>
              <p className="muted small">{result.message}</p>
              <ImportSummary
                counts={[
                  { label: 'Rows', value: result.total_rows },
                  { label: 'Created', value: result.created, tone: 'success' },
                  { label: 'Updated', value: result.updated, tone: 'success' },
                  { label: 'Skipped', value: result.skipped, tone: 'warning' },
                  { label: 'Material types', value: result.material_types_created },
                  { label: 'Colours', value: result.colors_created },
                  { label: 'Categories', value: result.categories_created },
                  { label: 'Stock postings', value: result.inventory_transactions },
                ]}
              />
              {result.errors.length > 0 && (
                <div className="material-import__errors">
                  <table className="table table--compact" aria-label="Row errors">
                    <thead>
                      <tr>
                        <th scope="col" className="align-right">
                          Row
                        </th>
                        <th scope="col">Column</th>
                        <th scope="col">Problem</th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.errors.map((e, i) => (
                        <tr key={i}>
                          <td className="align-right num">{e.row}</td>
                          <td>{e.field ?? '—'}</td>
                          <td>{e.reason}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
