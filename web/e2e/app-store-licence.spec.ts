import { expect, test } from './clients';
import { signUpAndLogIn } from './members';

/**
 * Issue 46: a customer who bought the iOS app's annual plan in the App Store (the stack's App Store stand-in, which
 * signs as Apple does) links it from the app; the web shows the licence as the App Store's, with no upgrade, and the
 * app validates its key as a web licence's.
 */

const API = '/web/unicornpro/v1';
const port = Number(process.env.E2E_PORT ?? 8765);
const appStore = `http://127.0.0.1:${port + 3}/app-store`;

test.skip(({ isMobile }) => isMobile, 'one run of the story is enough');

test('an App Store licence shows on the web with its upgrade disabled, and validates', async ({ page }) => {
  const email = `e2e-app-store-${Date.now()}@example.com`;
  const password = 'abcd1234';
  await signUpAndLogIn(page, email, password);
  const login = await page.request.post(`${API}/auth/login`, { data: { email, pw: password } });
  const { accessToken, id } = (await login.json()) as { accessToken: string; id: string };
  const headers = { Authorization: `Bearer ${accessToken}` };

  // The app buys in the App Store, naming the account on the purchase, and sends us the signed transaction.
  const bought = await page.request.post(`${appStore}/standin/purchases`, {
    data: { productId: 'unicornpro.pro.ios.annual1', appAccountToken: id },
    params: { notify: 'false' },
  });
  expect(bought.ok()).toBe(true);
  const { signedTransaction } = (await bought.json()) as { signedTransaction: string };
  const linked = await page.request.post(`${API}/app-stores/app-store/purchases`, {
    data: { signedTransaction },
    headers,
  });
  expect(linked.ok(), await linked.text()).toBe(true);
  const { userLicenseId, licenseKey } = (await linked.json()) as { userLicenseId: string; licenseKey: string };

  await page.goto(`/ko/license/${userLicenseId}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('licence-store')).toHaveText('App Store');
  await expect(page.getByText('여기서는 업그레이드할 수 없습니다')).toBeVisible();
  await expect(page.getByRole('link', { name: /업그레이드/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /업그레이드/ })).toHaveCount(0);
  await expect(page.getByText(licenseKey)).toBeVisible();

  const validated = await page.request.post(`${API}/apps/v1/licence/validate`, {
    data: { licenceKey: licenseKey, deviceId: 'e2e-iphone', platform: 'ios' },
  });
  expect(((await validated.json()) as { status: string }).status).toBe('notActivated');
  const activated = await page.request.post(`${API}/apps/v1/licence/activate`, {
    data: { licenceKey: licenseKey, deviceId: 'e2e-iphone', deviceName: 'iPhone', platform: 'ios' },
  });
  expect(((await activated.json()) as { status: string }).status).toBe('valid');
});
