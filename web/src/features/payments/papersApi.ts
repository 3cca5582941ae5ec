/** A payment's papers (bearer): what it has, its documents as PDF files, and a tax-invoice request. */
import { ApiError, buildUrl, type ApiClient } from '../../api/client';
import type { PaymentPapers, TaxInvoiceBody } from '../../api/models';
import { apiGet, apiPost } from '../../api/typed';
import type { Lang } from '../../i18n/languages';

/** GET /payments/licenses/{merchant_uid}/papers. */
export function getPapers(merchantUid: string, token: string | null, client?: ApiClient): Promise<PaymentPapers> {
  return apiGet('/payments/licenses/{merchant_uid}/papers', { params: { merchant_uid: merchantUid }, token, client });
}

/** POST /payments/licenses/{merchant_uid}/tax-invoice. */
export function askTaxInvoice(merchantUid: string, body: TaxInvoiceBody, token: string | null, client?: ApiClient) {
  return apiPost('/payments/licenses/{merchant_uid}/tax-invoice', {
    params: { merchant_uid: merchantUid },
    body,
    token,
    client,
  });
}

/** The path of a document: the receipt (number 0) or a refund note. */
export function documentPath(merchantUid: string, kind: string, number: number): string {
  const order = encodeURIComponent(merchantUid);
  return kind === 'refund-note' ? `/payments/licenses/${order}/refund-notes/${number}` : `/payments/licenses/${order}/receipt`;
}

/** A document's PDF and the file name the server gives it (the JSON client reads text, so this one fetches). */
export async function fetchDocument(
  merchantUid: string,
  kind: string,
  number: number,
  lang: Lang,
  token: string | null,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetch(buildUrl('', documentPath(merchantUid, kind, number), { langCode: lang }), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!response.ok) throw new ApiError(response.status, response.status, undefined, 'response');
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${kind}-${merchantUid}-${lang}.pdf`;
  return { blob: await response.blob(), fileName };
}
