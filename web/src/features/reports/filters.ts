/** Filter groups as the report form shows them: from the server for Pro apps, local defaults otherwise. */
import type { Lang } from '../../i18n/languages';
import { pickLocalization } from '../../display/localization';
import type { FilterGroup } from './api';
import localFilterGroups from './localFilterGroups.json';
import { SERVER_FILTER_PRODUCTS, type ReportProduct } from './products';

const LOCAL: Partial<Record<string, FilterGroup[]>> = localFilterGroups;

/** True when the product's groups come from GET /reports/filter-groups. */
export function groupsFromServer(product: ReportProduct): boolean {
  return SERVER_FILTER_PRODUCTS.includes(product);
}

/** The local default groups of a basic app (none for a Pro app). */
export function localGroups(product: ReportProduct): FilterGroup[] {
  return LOCAL[product] ?? [];
}

export interface ShownFilter {
  id: number;
  name: string;
  description: string;
}

export interface ShownGroup {
  id: number;
  name: string;
  filters: ShownFilter[];
}

/** Names and descriptions in the page's language (then en, then ko; the canonical name last). */
export function shownGroups(groups: readonly FilterGroup[], lang: Lang): ShownGroup[] {
  const languageOf = (item: { languageCode: string }) => item.languageCode;
  return groups.map((group) => ({
    id: group.groupId,
    name: pickLocalization(group.localizations, lang, languageOf)?.name ?? group.name,
    filters: group.filters.map((filter) => {
      const text = pickLocalization(filter.localizations, lang, languageOf);
      return { id: filter.filterId, name: text?.name ?? filter.name, description: text?.description ?? '' };
    }),
  }));
}
