/**
 * "Too many requests" with how long to wait (issue 29, finding 16): the API sends Retry-After with -4 and the
 * client keeps it beside the body (api/errors.ts), so each feature's message names the wait in minutes.
 */
import { retryAfterSeconds } from '../api/errors';
import { format, type Catalogue } from '../i18n/catalogues';

/** The code of a refusal over a rate limit. */
export const TOO_MANY_REQUESTS = -4;

/** The message for -4 that names the wait, rounded up to whole minutes; undefined when the wait is unknown. */
export function tooManyRequestsMessage(t: Catalogue, code: number | string, body: unknown): string | undefined {
  if (code !== TOO_MANY_REQUESTS) return undefined;
  const seconds = retryAfterSeconds(body);
  if (seconds === undefined) return undefined;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const wait = minutes === 1 ? t.errors.waitOneMinute : format(t.errors.waitMinutes, { count: minutes });
  return format(t.errors.tooManyRequests, { wait });
}
