/**
 * Deriving an error code and message from a failed call (spec section 7, "Error derivation").
 * Pure functions: the client and the features use them, tests pin them down.
 */

/** Code used when nothing better is known: no response, or no usable errorCode. */
export const FALLBACK_ERROR_CODE = -1002;

/** Statuses whose code is the status itself, whatever the body says. */
const STATUS_AS_CODE = new Set([401, 403, 404]);

export interface FailedResponse {
  /** HTTP status; missing when no response arrived (network error, timeout). */
  status?: number | null | undefined;
  /** Parsed response body, if any. */
  body?: unknown;
}

/** True for a body that carries nothing: absent, blank text, or an empty object or array. */
export function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (typeof body === 'string') return body.trim() === '';
  if (Array.isArray(body)) return body.length === 0;
  if (typeof body === 'object') return Object.keys(body).length === 0;
  return false;
}

function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** The body's errorCode as a number, accepting numeric strings; undefined otherwise. */
function bodyErrorCode(body: unknown): number | undefined {
  const value = field(body, 'errorCode');
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * If the status is missing the code is -1002; if the body is empty or the status is 401, 403 or
 * 404 the code is the status; otherwise the body's errorCode, falling back to -1002.
 */
export function deriveErrorCode({ status, body }: FailedResponse): number {
  if (status === undefined || status === null) return FALLBACK_ERROR_CODE;
  if (isEmptyBody(body) || STATUS_AS_CODE.has(status)) return status;
  return bodyErrorCode(body) ?? FALLBACK_ERROR_CODE;
}

/** The body's message, when it is a non-blank string. */
export function serverMessage(body: unknown): string | undefined {
  const value = field(body, 'message');
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export interface MessageSources {
  /** Message of the catalogue for the code (and feature), if it has one. */
  catalogueMessage?: string | undefined;
  /** Response body, for its `message`. */
  body?: unknown;
  /** Generic "server response error" text of the catalogue. */
  fallback: string;
  /** The variant that prefers the server's message over the catalogue's. */
  preferServerMessage?: boolean;
}

/** Message: from the catalogue, then the body's message, then the generic text. */
export function deriveErrorMessage({ catalogueMessage, body, fallback, preferServerMessage }: MessageSources): string {
  const fromServer = serverMessage(body);
  const ordered = preferServerMessage ? [fromServer, catalogueMessage] : [catalogueMessage, fromServer];
  return ordered.find((text) => text !== undefined && text !== '') ?? fallback;
}

/** Where the client keeps a refusal's Retry-After (seconds) in the body it hands on; not an API field. */
export const RETRY_AFTER_FIELD = 'retryAfterSeconds';

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The wait a refused call's body carries (see RETRY_AFTER_FIELD), when it is a positive number of seconds. */
export function retryAfterSeconds(body: unknown): number | undefined {
  const value = field(body, RETRY_AFTER_FIELD);
  return typeof value === 'number' && value > 0 ? value : undefined;
}
