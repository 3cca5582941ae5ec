/**
 * Base of every backend call: base path, 15 s timeout, cookies, optional bearer token, and errors
 * turned into `ApiError` with the code of spec section 7.
 */
import { deriveErrorCode, parseRetryAfter, RETRY_AFTER_FIELD } from './errors';

export const API_BASE_PATH = '/web/unicornpro/v1';
export const REQUEST_TIMEOUT_MS = 15_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: HttpMethod;
  /** Query parameters; null and undefined are left out. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON, except FormData, URLSearchParams, Blob and strings, which go as they are. */
  body?: unknown;
  /** Access token for a `Authorization: Bearer` header; none when null or undefined. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Cancels the call; a cancelled call rejects with the signal's reason, not an ApiError. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A failed call: `code` follows the spec's error derivation, `status` is missing without a response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: number,
    readonly status: number | undefined,
    readonly body: unknown,
    readonly reason: 'response' | 'network' | 'timeout',
  ) {
    super(`API error ${code}${status === undefined ? '' : ` (HTTP ${status})`}`);
  }
}

export interface ApiClientOptions {
  /** Origin of the API host; empty for the page's own origin. */
  origin?: string;
  fetch?: typeof fetch;
}

export interface ApiClient {
  request<T = unknown>(path: string, request?: ApiRequest): Promise<T>;
}

function isPassThroughBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    (typeof Blob !== 'undefined' && body instanceof Blob)
  );
}

export function buildUrl(origin: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const text = params.toString();
  const cleanPath = path.startsWith('/') ? path : `/${path}`;
  return `${origin}${API_BASE_PATH}${cleanPath}${text ? `?${text}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The page's language (its address's first segment) as Accept-Language, so that the API's messages and the mails a
 * call sends (a guest's receipt) speak the page's language rather than the browser's.
 */
function pageLanguageHeader(): Record<string, string> {
  if (typeof window === 'undefined') return {};
  const lang = /^\/(ko|en|ja)(?:\/|$)/.exec(window.location.pathname)?.[1];
  return lang ? { 'Accept-Language': lang } : {};
}

export function createApiClient({ origin = '', fetch: fetchImpl }: ApiClientOptions = {}): ApiClient {
  return {
    async request<T>(path: string, request: ApiRequest = {}): Promise<T> {
      const { method = 'GET', query, body, token, headers = {}, signal, timeoutMs = REQUEST_TIMEOUT_MS } = request;
      const doFetch = fetchImpl ?? globalThis.fetch.bind(globalThis);

      const finalHeaders: Record<string, string> = { Accept: 'application/json', ...pageLanguageHeader(), ...headers };
      let payload: BodyInit | undefined;
      if (body !== undefined) {
        if (isPassThroughBody(body)) {
          payload = body;
        } else {
          payload = JSON.stringify(body);
          finalHeaders['Content-Type'] ??= 'application/json';
        }
      }
      if (token) finalHeaders.Authorization = `Bearer ${token}`;

      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const forwardAbort = () => controller.abort(signal?.reason);
      if (signal?.aborted) forwardAbort();
      else signal?.addEventListener('abort', forwardAbort, { once: true });

      try {
        let response: Response;
        let responseBody: unknown;
        try {
          response = await doFetch(buildUrl(origin, path, query), {
            method,
            headers: finalHeaders,
            body: payload,
            credentials: 'include',
            signal: controller.signal,
          });
          responseBody = await readBody(response);
        } catch (cause) {
          if (timedOut) throw new ApiError(deriveErrorCode({}), undefined, undefined, 'timeout');
          if (signal?.aborted) throw cause;
          throw new ApiError(deriveErrorCode({}), undefined, undefined, 'network');
        }
        if (!response.ok) {
          // A refusal over a rate limit says how long to wait: kept beside the body so that messages can tell it.
          const wait = parseRetryAfter(response.headers.get('retry-after'));
          const body =
            wait !== undefined && responseBody !== null && typeof responseBody === 'object' && !Array.isArray(responseBody)
              ? { ...(responseBody as Record<string, unknown>), [RETRY_AFTER_FIELD]: wait }
              : responseBody;
          throw new ApiError(deriveErrorCode({ status: response.status, body: responseBody }), response.status, body, 'response');
        }
        return responseBody as T;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forwardAbort);
      }
    },
  };
}

/** The app's client, talking to the page's own origin unless VITE_API_ORIGIN says otherwise. */
export const apiClient: ApiClient = createApiClient({ origin: import.meta.env.VITE_API_ORIGIN ?? '' });
