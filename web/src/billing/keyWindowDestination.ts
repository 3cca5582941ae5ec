/**
 * Where the app goes once a billing-key window is settled, and what it hands to that page: a new
 * subscription to the confirm page, a failed one to the payment failure page (with "try again"),
 * a resume or a change of payment method back to the licence it was made on, and an upgraded
 * subscription to the confirm page.
 */
import type { FeatureError } from '../errors/featureError';
import type { BoundPaths } from '../routing/paths';
import type { KeyWindowSettlement } from './keyWindow';

/** What the licence detail page is told after a window that a phone left the page for. */
export interface SubscriptionReturnState {
  subscriptionNotice?: 'resumed' | 'changed';
  subscriptionError?: FeatureError;
}

/** The page to go to after a settled window, and the state it is handed. */
export function keyWindowDestination(settled: KeyWindowSettlement, paths: BoundPaths): { to: string; state: unknown } {
  switch (settled.kind) {
    case 'subscribed':
      return { to: paths.paymentConfirm(), state: { subscription: settled.subscription } };
    case 'upgraded':
      return { to: paths.paymentConfirm(), state: { subscription: settled.subscription, upgraded: true } };
    case 'updated': {
      const state: SubscriptionReturnState = { subscriptionNotice: settled.intent.kind === 'resume' ? 'resumed' : 'changed' };
      return { to: paths.licenseDetail(settled.intent.userLicenseId), state };
    }
    case 'failed': {
      const { intent, error } = settled;
      if (intent.kind === 'subscribe') {
        return {
          to: paths.paymentFailure(intent.licenseId, { errorCode: error.code }),
          state: { gatewayMessage: settled.gatewayMessage },
        };
      }
      const state: SubscriptionReturnState = { subscriptionError: error };
      return { to: paths.licenseDetail(intent.userLicenseId), state };
    }
  }
}
