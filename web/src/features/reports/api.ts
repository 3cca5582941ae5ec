/** The report calls of spec section 7, typed from the server's schema. */
import { apiGet, apiPost, type Schema } from '../../api/typed';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';

export type FilterGroup = Schema<'FilterGroup'>;
export type CheckedImage = Schema<'ImageChecked'>;
export type SentReport = Schema<'ReportSubmitted'>;

/** GET /reports/filter-groups?product=: a Pro app's filter groups. */
export function fetchFilterGroups(product: string, signal?: AbortSignal): Promise<FilterGroup[]> {
  return apiGet('/reports/filter-groups', { query: { product }, signal });
}

/** POST /reports/validate: the server's check of one image before the form adds it. */
export function postValidateImage(file: File): Promise<CheckedImage> {
  const body = new FormData();
  body.append('image', file, file.name);
  return apiPost('/reports/validate', { body });
}

/** POST /reports: the report, with the member's bearer when logged in (anonymous otherwise). */
export async function postReport(body: FormData): Promise<SentReport> {
  const token = await getAccessToken(appStore).catch(() => null);
  return apiPost('/reports', { body, token });
}
