/**
 * GET /event-banners?code=&countryCode= (spec section 7): the coupon group of the code, the event
 * banner and the notice. The endpoint may not exist on the server yet: any failure (404, network,
 * timeout, unreadable answer) means "no banner", without an error shown or thrown.
 */
import { apiClient, type ApiClient } from '../../api/client';

export type BannerType = 'notice' | 'event';

export interface BannerLocalization {
  langCode: string;
  text?: string | null;
  subText?: string | null;
  textColor?: string | null;
  subTextColor?: string | null;
  backgroundColor?: string | null;
  backgroundImageUrl?: string | null;
  pcImageUrl?: string | null;
  mobileImageUrl?: string | null;
  closeButtonColor?: string | null;
  url?: string | null;
}

export interface Banner {
  id: string | number;
  type: BannerType;
  active: boolean;
  startAt?: string | null;
  endAt?: string | null;
  applyCountry?: string | string[] | null;
  couponGroupId?: string | number | null;
  localizations: BannerLocalization[];
}

export interface EventBannersAnswer {
  couponGroup: unknown;
  eventBanner: Banner | null;
  notice: Banner | null;
}

const EMPTY: EventBannersAnswer = { couponGroup: null, eventBanner: null, notice: null };

function asBanner(value: unknown): Banner | null {
  if (value === null || typeof value !== 'object') return null;
  const banner = value as Partial<Banner>;
  if (banner.id === undefined || banner.id === null || !Array.isArray(banner.localizations)) return null;
  return banner as Banner;
}

/** Banner and notice for a coupon code and country; empty on any failure. */
export async function fetchEventBanners(
  { code, countryCode, signal }: { code?: string | null; countryCode: string; signal?: AbortSignal },
  client: ApiClient = apiClient,
): Promise<EventBannersAnswer> {
  try {
    // The server's schema has no /event-banners (web/README.md, "Gaps in the server's schema"):
    // the answer is read as unknown and narrowed here instead of through api/typed.ts.
    const answer = await client.request<unknown>('/event-banners', {
      query: { code: code ?? '', countryCode },
      signal,
    });
    if (answer === null || typeof answer !== 'object') return EMPTY;
    const body = answer as Record<string, unknown>;
    return {
      couponGroup: body.couponGroup ?? null,
      eventBanner: asBanner(body.eventBanner),
      notice: asBanner(body.notice),
    };
  } catch {
    return EMPTY;
  }
}
