/** A small RFC 4180 CSV reader for previews (quotes, escaped quotes, CRLF, a BOM). */
export interface CsvPreview {
  headers: string[];
  rows: string[][];
  /** Data rows in the whole text (not counting the header or blank lines). */
  totalRows: number;
}

export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else field += c;
    } else if (c === '"' && field === '') {
      inQuotes = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    out.push(row);
  }
  return out.filter((r) => r.some((f) => f.trim() !== ''));
}

export function previewCsv(text: string, maxRows = 5): CsvPreview {
  const all = parseCsv(text);
  const [headers = [], ...data] = all;
  return { headers, rows: data.slice(0, maxRows), totalRows: data.length };
}

/** A header-only CSV file as a data URL, for "download a template". */
export function templateHref(columns: readonly string[]): string {
  const line = columns.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
  return `data:text/csv;charset=utf-8,${encodeURIComponent(`${line}\n`)}`;
}

/** One CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
function csvField(value: string | number | null | undefined): string {
  const text = value == null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text (CRLF line ends, as spreadsheets expect). */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Hands text to the browser as a file download. */
export function saveText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.click();
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
