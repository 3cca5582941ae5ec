/** What the 特定商取引法に基づく表記 page reads: the seller (the deployment's settings) and the licences on sale. */
import type { ApiClient } from '../../api/client';
import type { PurchasableLicence } from '../../api/models';
import { apiGet } from '../../api/typed';
import { loadIntegrations, type JapanSeller } from '../../config/integrations';

/** The seller as the deployment names it for Japan (JP_SELLER_* and COMPANY_EMAIL). */
export async function getJapanSeller(client?: ApiClient): Promise<JapanSeller | undefined> {
  return (await loadIntegrations(client)).japanSeller;
}

/** The licences on sale, as the purchase page lists them. */
export function getLicencesOnSale(client?: ApiClient): Promise<PurchasableLicence[]> {
  return apiGet('/purchasable-licenses/new', { query: {}, client });
}
