/** POST /materials/import (CONTRACT 5.11): multipart `file`; the options are query parameters. */
import { api } from '../../api/client';
import type { Api } from '../../api/model';

export type MaterialImportResult = Api<'/materials/import/', 'post'>;
export type MaterialImportError = MaterialImportResult['errors'][number];

export interface MaterialImportOptions {
  update_existing: boolean;
  import_categories: boolean;
}

export const MATERIAL_TEMPLATE_URL = '/materials/import/template';

export function importMaterials(file: File, options: MaterialImportOptions, onUploadProgress?: (f: number) => void) {
  const fd = new FormData();
  fd.append('file', file, file.name);
  return api.request<MaterialImportResult>('/materials/import/', {
    method: 'POST',
    query: { update_existing: options.update_existing, import_categories: options.import_categories },
    formData: fd,
    onUploadProgress,
  });
}
