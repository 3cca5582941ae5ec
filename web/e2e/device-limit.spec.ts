import { expect, test } from './clients';
import { buyByCard } from './purchases';

/**
 * Issue 29, finding 14: a second device on a one-device licence is refused for the device limit (-107, a code of
 * ours), not as "the key is in use by someone else" (-105).
 */

const API = '/web/unicornpro/v1';

test.skip(({ isMobile }) => isMobile, 'an API answer: one run is enough');

test('a second device on a one-device licence hears of the device limit, in Korean', async ({ page }) => {
  const email = `e2e-device-limit-${Date.now()}@example.com`;
  const { licenseKey: key } = await buyByCard(page.request, { email });

  const device = { licenseKey: key, deviceName: 'Galaxy', platform: 'android' };
  const headers = { 'Accept-Language': 'ko' };
  expect((await page.request.post(`${API}/licenses/activate`, { data: { ...device, deviceId: 'one' }, headers })).ok()).toBe(true);
  const second = await page.request.post(`${API}/licenses/activate`, { data: { ...device, deviceId: 'two' }, headers });
  expect(second.status()).toBe(409);
  const body = await second.json();
  expect(body.errorCode).toBe(-107);
  expect(body.message).toContain('등록할 수 있는 기기 수를 모두 사용했습니다');
  expect(body.message).not.toContain('다른 사용자');
});
