/**
 * Error bodies of CONTRACT 8, read into one shape the UI can show:
 * a sentence for the page and, for 422 validation errors, a message per field.
 */
export type FieldErrors = Record<string, string>;

export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(status: number, message: string, fieldErrors: FieldErrors = {}, code?: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.code = code;
    this.body = body;
  }

  /** True when the server could not be reached at all (network error, proxy with no upstream). */
  get isUnreachable(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }

  /** The route does not exist on this server (yet). */
  get isNotFound(): boolean {
    return this.status === 404;
  }
}

const STATUS_MESSAGES: Record<number, string> = {
  0: 'Cannot reach the Strata server. Check your connection and try again.',
  400: 'The request could not be processed.',
  401: 'Your session has expired. Please sign in again.',
  403: 'You do not have permission to do that.',
  404: 'Not found.',
  409: 'This conflicts with a change someone else made. Reload and try again.',
  413: 'The file is too large.',
  422: 'Some fields need attention.',
  429: 'Too many attempts. Please wait a minute and try again.',
  500: 'Something went wrong on the server. Please try again.',
  502: 'The Strata server is not responding. Please try again shortly.',
  503: 'The Strata server is temporarily unavailable. Please try again shortly.',
  504: 'The Strata server took too long to answer. Please try again.',
};

export function defaultMessage(status: number): string {
  return STATUS_MESSAGES[status] ?? (status >= 500 ? STATUS_MESSAGES[500]! : `Request failed (${status}).`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `Value error, Password must …` → `Password must …` (pydantic prefixes). */
function cleanMessage(msg: string): string {
  return msg.replace(/^(Value error|Assertion failed),\s*/i, '').trim();
}

/**
 * `body.lines.0.quantity` → `lines.0.quantity`; query fields keep their `query.` prefix. A
 * bare `body` is a field of that name (a message's text), not the location prefix.
 */
export function normaliseField(field: unknown): string {
  const parts = Array.isArray(field) ? field.map(String) : String(field ?? '').split('.');
  const trimmed = parts[0] === 'body' && parts.length > 1 ? parts.slice(1) : parts;
  return trimmed.join('.') || '_';
}

function collectFieldErrors(list: unknown[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of list) {
    if (!isRecord(e)) continue;
    const field = normaliseField(e.field ?? e.loc);
    const msg = typeof e.message === 'string' ? e.message : typeof e.msg === 'string' ? e.msg : '';
    if (msg && !(field in out)) out[field] = cleanMessage(msg);
  }
  return out;
}

/** Turn any error body into an ApiError. `body` is parsed JSON, a string, or undefined. */
export function parseErrorBody(status: number, body: unknown): ApiError {
  let message = '';
  let fieldErrors: FieldErrors = {};
  let code: string | undefined;

  if (isRecord(body)) {
    const { detail } = body;
    if (typeof detail === 'string') {
      message = detail;
    } else if (Array.isArray(detail)) {
      // FastAPI's default validation shape {detail:[{loc,msg,type}]}
      fieldErrors = collectFieldErrors(detail);
    } else if (isRecord(detail)) {
      if (typeof detail.message === 'string') message = detail.message;
      if (typeof detail.code === 'string') code = detail.code;
    }

    if (typeof body.error === 'string') code = code ?? body.error;
    const details = body.details;
    if (isRecord(details) && Array.isArray(details.errors)) {
      fieldErrors = { ...fieldErrors, ...collectFieldErrors(details.errors) };
    }
    if (!message && typeof body.message === 'string') message = body.message;
    // slowapi: {"error":"Rate limit exceeded: 3 per 1 minute"}
    if (!message && typeof body.error === 'string' && body.error.includes(' ')) message = body.error;
  } else if (typeof body === 'string') {
    const text = body.trim();
    // A short plain-text body is worth showing; an HTML error page is not.
    if (text && text.length <= 200 && !text.startsWith('<')) message = text;
  }

  const fieldList = Object.keys(fieldErrors);
  if (!message && fieldList.length > 0) message = defaultMessage(422);
  if (status === 422 && fieldList.length === 1 && message === 'Request validation failed') {
    // One field wrong: say which, the page-level banner is then useful on its own.
    const only = fieldList[0]!;
    message = `${humanField(only)}: ${fieldErrors[only]}`;
  }
  if (!message) message = defaultMessage(status);
  return new ApiError(status, message, fieldErrors, code, body);
}

export function humanField(field: string): string {
  const last = field.split('.').filter((p) => !/^\d+$/.test(p)).pop() ?? field;
  const words = last.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function networkError(cause?: unknown): ApiError {
  const err = new ApiError(0, defaultMessage(0));
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}

/** The message to show for anything thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong.';
}
