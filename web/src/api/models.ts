/**
 * The server's shapes under the names the app uses, every one taken from the generated schema
 * (`schema.d.ts`): nothing here is written by hand, so a change on the server shows up as a type
 * error where the app reads the field.
 */
import type { BodyOf, ResponseOf, Schema } from './typed';

/** A licence on sale (GET /purchasable-licenses/new). */
export type PurchasableLicence = Schema<'PurchasableLicenceOut'>;
/** A licence's price in one country. */
export type LicencePrice = Schema<'PriceOut'>;
/** A licence's name in one language. */
export type LicenceLocalization = Schema<'LocalizationOut'>;
/** A discount applied to a list price (`factor` is a decimal text, "0.3"). */
export type DiscountFactor = Schema<'DiscountFactorOut'>;

/** Where the PortOne browser script comes from (GET /payments/settings). */
export type PaymentSettings = Schema<'PaymentSettings'>;
/** Body of an order (POST /payments/licenses/new). */
export type PurchaseOrderBody = BodyOf<'/payments/licenses/new', 'post'>;
/** What IMP.request_pay needs for an order (the answer of POST /payments/licenses/new). */
export type PaymentRequest = Schema<'PaymentRequest'>;
/** What the browser reports of a payment (body of the confirm calls). */
export type PaymentConfirmationBody = Schema<'PaymentConfirmation'>;
/** The licence a confirmed payment bought (POST /payments/licenses/new/confirm). */
export type ConfirmedPurchase = Schema<'ConfirmedPurchase'>;
/** Where a virtual-account buyer pays, and by when. */
export type VirtualAccount = Schema<'VirtualAccount'>;

/** A licence the user holds (GET /licenses/mine). */
export type UserLicence = Schema<'UserLicenceOut'>;
/** A licence with its payments (GET /licenses/mine/{user_license_id}). */
export type UserLicenceDetail = Schema<'UserLicenceDetailOut'>;
/** A device a licence runs on. */
export type Device = Schema<'DeviceOut'>;

/** A purchase-history record (GET /payments/licenses). */
export type PaymentRecord = Schema<'PaymentRecord'>;
/** One (partial) refund of a payment. */
export type Refund = Schema<'Refund'>;

/** Where a subscription stands: the answer of every subscription call. */
export type Subscription = Schema<'SubscriptionState'>;
/** A registered billing key as the customer sees it. */
export type BillingKey = Schema<'BillingKeyOut'>;
/** Every billing key of the user, and the default one (GET /billingkeys). */
export type Wallet = ResponseOf<'/billingkeys', 'get'>;
/** What IMP.request_pay needs for a PG window to issue a billing key (GET /billingkeys/customerUid). */
export type BillingKeyWindow = Schema<'BillingKeyWindow'>;
/** The card entry fields as the billing-key calls take them. */
export type CardBody = Schema<'CardForm'>;
/** Body of a subscription with a PG window's key (guests give their email). */
export type WindowKeySubscriptionBody = Schema<'SubscriptionWithWindowKey'>;
/** Body of a subscription charging a registered billing key (`billingkeyId`; the default one when left out). */
export type SavedCardSubscriptionBody = Schema<'SubscriptionOrder'>;
/** Body of a subscription that registers a typed card. */
export type NewCardSubscriptionBody = Schema<'SubscriptionWithNewCard'>;

/** One's own account (GET and PATCH /accounts). */
export type Account = Schema<'AccountBody'>;
/** The answer to a login or a refresh (`exp` in epoch seconds). */
export type AuthAnswer = Schema<'AuthBody'>;

/** GET /purchasable-licenses/upgrade/licenses/{id}: what a licence may be upgraded to now. */
export type UpgradeOptions = Schema<'UpgradeOptions'>;
/** One plan of the upgrade list, with its base discount, remaining credit and total. */
export type UpgradePlan = Schema<'UpgradePlan'>;
/** POST /payments/licenses/{id}/upgrade: request_pay's parameters and the credit taken off. */
export type UpgradePaymentRequest = Schema<'UpgradePaymentRequest'>;
/** POST /payments/licenses/upgrade/confirm: the upgraded licence. */
export type ConfirmedUpgrade = Schema<'ConfirmedUpgrade'>;

/** A payment's papers: documents to download, the cash receipt, the tax invoice (GET /payments/licenses/{id}/papers). */
export type PaymentPapers = Schema<'PapersOut'>;
/** A business buyer's tax-invoice request (POST /payments/licenses/{id}/tax-invoice). */
export type TaxInvoiceBody = BodyOf<'/payments/licenses/{merchant_uid}/tax-invoice', 'post'>;
