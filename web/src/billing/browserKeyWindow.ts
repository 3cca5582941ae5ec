/** The billing-key window as the browser runs it: the server's calls, PortOne's script and the tab's session storage. */
import {
  addWindowBillingKey,
  changePaymentMethod,
  loadPortOne,
  openKeyWindow,
  resumeWithWindowKey,
  subscribeWithWindowKey,
  upgradeWithWindowKey,
} from './api';
import { clearPendingKeyWindow, savePendingKeyWindow, type KeyIntentCalls, type KeyWindowRun } from './keyWindow';
import { requestPay } from './portone';

/** The server calls that use a PG window's key, one per thing a page may be doing. */
export const keyIntentCalls: KeyIntentCalls = {
  subscribe: (body, token) => subscribeWithWindowKey(body, token),
  resume: (userLicenseId, customerUid, token) => resumeWithWindowKey(userLicenseId, customerUid, token),
  addKey: (customerUid, token) => addWindowBillingKey(customerUid, token),
  changeMethod: (userLicenseId, billingkeyId, token) => changePaymentMethod(userLicenseId, billingkeyId, token),
  upgrade: (userLicenseId, licenseId, customerUid, token) =>
    upgradeWithWindowKey(userLicenseId, licenseId, customerUid, token),
};

/** Everything `runKeyWindow` needs in a browser. */
export const browserKeyWindow: KeyWindowRun = {
  openKeyWindow: (requestType, token) => openKeyWindow(requestType, token),
  portOne: loadPortOne,
  requestPay,
  savePending: savePendingKeyWindow,
  clearPending: clearPendingKeyWindow,
  calls: keyIntentCalls,
};
