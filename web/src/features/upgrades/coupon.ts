/** Which failures mean "this coupon cannot be used here" (spec section 8: -601 to -615). */
import type { FeatureError } from '../../errors/featureError';

export function isCouponRefusal(error: FeatureError): boolean {
  return typeof error.code === 'number' && error.code <= -601 && error.code >= -615;
}
