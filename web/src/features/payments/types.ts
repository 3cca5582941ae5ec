/**
 * Shapes of the purchase, licence and payment calls (server contract of the "Catalogue, purchases,
 * licences, devices and purchase history" issue). Amounts are integers in the currency's smallest
 * unit the server uses (won, yen, US cents).
 */

export interface LicencePrice {
  countryCode: string;
  currency: string;
  /** List price. */
  price: number;
  /** Amount charged after the licence's discounts. */
  requestPrice: number;
  newLicenseId?: number | null;
}

export interface LicenceLocalization {
  langCode: string;
  name: string;
  description?: string | null;
}

export interface DiscountFactor {
  type: string;
  /** A fraction, sent as a number or a decimal string ("0.3"). */
  factor: number | string;
}

/** GET /purchasable-licenses/new: a licence on sale. */
export interface PurchasableLicence {
  id: number;
  productCode: string;
  life: number;
  maxDevicesCount: number;
  prices: LicencePrice[];
  localizations: LicenceLocalization[];
  discountFactors: DiscountFactor[];
}

export const PAYMENT_METHODS = ['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** GET /payments/settings: where the PortOne browser script comes from. */
export interface PaymentSettings {
  impCode: string;
  scriptUrl: string;
}

/** Body of POST /payments/licenses/new. */
export interface PurchaseInitRequest {
  licenseId: number;
  countryCode: string;
  paymentMethod: PaymentMethod;
  email?: string;
}

/** Answer of POST /payments/licenses/new: what request_pay needs. */
export interface PurchaseInit {
  merchantUid: string;
  amount: number;
  currency: string;
  name: string;
  pg: string;
  payMethod: string;
  buyerEmail: string;
}

export interface VirtualAccountInfo {
  vbankName: string;
  vbankNum: string;
  vbankHolder: string;
  /** Deadline: epoch seconds, epoch milliseconds or a date text. */
  vbankDate: string | number;
}

/** Answer of POST /payments/licenses/new/confirm. */
export interface PurchaseConfirmation {
  userLicenseId: number | string;
  licenseKey: string;
  state: 'paid' | 'reserved' | string;
  email: string;
  accountCreated: boolean;
  vbank?: VirtualAccountInfo | null;
}

export interface Device {
  id: number | string;
  registrationData?: { deviceName?: string | null } | null;
  platform?: string | null;
}

/** GET /licenses/mine: one of the user's licences. */
export interface UserLicence {
  id: number | string;
  name: string;
  productCode: string;
  life: number;
  maxDevicesCount: number;
  state: string;
  startsAt?: string | number | null;
  expiresAt?: string | number | null;
  /** A reserved licence (virtual account): when the deposit must arrive. */
  depositDeadline?: string | number | null;
  licenseKey: string;
  devices: Device[];
  isScheduled?: boolean;
  scheduledPayment?: unknown;
}

export interface PaymentRefund {
  amount: number;
  reason?: string | null;
  refundedAt?: string | number | null;
}

/** GET /payments/licenses: a purchase history record (spec section 3, "Payment record"). */
export interface PaymentRecord {
  merchantUid: string;
  name: string;
  amount: number;
  originalAmount?: number | null;
  cancelAmount?: number | null;
  currency: string;
  discountRate?: number | string | null;
  discountFactors?: DiscountFactor[] | null;
  couponCode?: string | null;
  payMethod?: string | null;
  pgProvider?: string | null;
  purchaseType?: string | null;
  state?: string | null;
  status?: string | null;
  paidAt?: string | number | null;
  failedAt?: string | number | null;
  failReason?: string | null;
  receiptUrl?: string | null;
  refunds?: PaymentRefund[] | null;
  isManual?: boolean | null;
  cardName?: string | null;
  cardNumber?: string | null;
  bankName?: string | null;
  vbankCode?: string | null;
  vbankName?: string | null;
  vbankNum?: string | null;
  vbankHolder?: string | null;
  vbankDate?: string | number | null;
  vbankIssuedAt?: string | number | null;
  licenseId?: number | null;
  userLicenseId?: string | number | null;
}

/** GET /licenses/mine/{id}: a licence with its payments. */
export interface UserLicenceDetail extends UserLicence {
  payments?: PaymentRecord[];
  isDisableUpgrade?: boolean;
}

/** POST /licenses/activate (for the apps). */
export interface ActivationResult {
  userLicenseId: number | string;
  expiresAt: string | number;
  devicesCount: number;
}

/** Answer of the subscription calls: the subscription and, when it starts, its licence key. */
export interface SubscriptionResult {
  subscriptionId: string;
  userLicenseId: string;
  status: string;
  isScheduled: boolean;
  nextPaymentAt?: string | number | null;
  paidUntil?: string | number | null;
  price: number;
  currency: string;
  licenseName: string;
  cardName?: string | null;
  cardNumber?: string | null;
  licenseKey?: string | null;
  resumeComplete?: boolean;
  /** The subscriber's address; for a guest, the account created for it (accountCreated). */
  email?: string | null;
  accountCreated?: boolean;
}
