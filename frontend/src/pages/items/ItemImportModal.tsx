import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { ItemImportResult } from '../../api/model';
import { Button } from '../../components/Button';
import { CsvPicker, ImportSummary, UploadProgress } from '../../components/CsvUpload';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { queryKeys } from '../../api/queryKeys';

const COLUMNS = ['SKU', 'Name', 'Description', 'Item Type', 'Unit', 'Standard Cost', 'Selling Price'];

export function ItemImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ItemImportResult | null>(null);

  const close = () => {
    if (progress !== null) return;
    setFile(null);
    setResult(null);
    setError(null);
    onClose();
  };

  const run = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const res = await itemsApi.importCsv(file, { onUploadProgress: setProgress });
      setResult(res);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    } catch (err) {
      setError(err instanceof ApiError && err.isNotFound ? 'Item import is not available on the server yet.' : errorMessage(err));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="Import items from CSV"
      description={`Columns: ${COLUMNS.join(', ')}. Marketplace exports (Shopify, Amazon…) are recognised too.`}
      footer={
        result ? (
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={progress !== null}>
              Cancel
            </Button>
            <Button variant="primary" onClick={() => void run()} disabled={!file} loading={progress !== null}>
              Import file
            </Button>
          </>
        )
      }
    >
      <div className="import-step">
        {!result && (
          <CsvPicker file={file} onFile={setFile} templateColumns={COLUMNS} templateName="strata-items.csv" disabled={progress !== null} />
        )}
        {progress !== null && <UploadProgress fraction={progress} />}
        <FormError message={error} />
        {result && (
          <ImportSummary
            counts={[
              { label: 'Rows', value: result.total_rows },
              { label: 'Created', value: result.created, tone: 'success' },
              { label: 'Updated', value: result.updated },
              { label: 'Skipped', value: result.skipped, tone: 'warning' },
            ]}
            errors={result.errors ?? []}
          />
        )}
      </div>
    </Modal>
  );
}
