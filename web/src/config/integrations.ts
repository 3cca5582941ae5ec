/**
 * The outside services the browser talks to (support desk, chat widget, error reporting) and where the apps are
 * downloaded, read once
 * per page load from GET /integrations/settings. Empty addresses mean the service is off; a failed
 * read turns them all off rather than breaking the page.
 */
import type { ApiClient } from '../api/client';
import { apiGet, type Schema } from '../api/typed';

export type WebIntegrations = Schema<'WebIntegrations'>;

export const INTEGRATIONS_OFF: WebIntegrations = {
  deskUrl: '',
  chatScriptUrl: '',
  chatPluginKey: '',
  sentryDsn: '',
  sentryEnvironment: '',
  company: {
    name: '',
    representative: '',
    address: '',
    phone: '',
    email: '',
    businessNumber: '',
    businessNumberDigits: '',
    mailOrderNumber: '',
    hostingProvider: '',
  },
  japanSeller: { name: '', address: '', phone: '', email: '', responsible: '' },
  downloads: { android: '', ios: '', mac: '', windows: '' },
};

export type CompanyBlock = WebIntegrations['company'];
/** The seller as the 特定商取引法に基づく表記 page names it (JP_SELLER_* and COMPANY_EMAIL). */
export type JapanSeller = WebIntegrations['japanSeller'];
/** Where each platform's app is downloaded (APP_DOWNLOAD_*_URL); an empty address is not linked. */
export type AppDownloads = WebIntegrations['downloads'];

let pending: Promise<WebIntegrations> | null = null;

/** The integration settings, fetched on the first call and shared by every later one. */
export function loadIntegrations(client?: ApiClient): Promise<WebIntegrations> {
  pending ??= apiGet('/integrations/settings', { client }).catch(() => INTEGRATIONS_OFF);
  return pending;
}

/** Forgets the fetched settings (tests). */
export function forgetIntegrations(): void {
  pending = null;
}
