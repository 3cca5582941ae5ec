import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './client';
import { apiDelete, apiGet, apiPatch, apiPost, apiPut, fillPath } from './typed';

function fakeClient(answer: unknown = {}) {
  const request = vi.fn(async () => answer);
  return { client: { request } as unknown as ApiClient, request };
}

describe('fillPath', () => {
  it('puts the encoded parameters in their placeholders', () => {
    expect(fillPath('/licenses/{user_license_id}/devices/{device_id}', { user_license_id: 'a b', device_id: 'x/1' })).toBe(
      '/licenses/a%20b/devices/x%2F1',
    );
  });
  it('leaves a path without placeholders as it is', () => {
    expect(fillPath('/licenses/mine')).toBe('/licenses/mine');
  });
});

describe('typed calls', () => {
  it('GET sends the query and the token, with the path filled', async () => {
    const { client, request } = fakeClient();
    await apiGet('/licenses/mine/{user_license_id}', { params: { user_license_id: 'u-1' }, token: 't', client });
    expect(request).toHaveBeenCalledWith('/licenses/mine/u-1', { method: 'GET', query: undefined, token: 't' });
    await apiGet('/accounts/check', { query: { email: 'a@b.c' }, client });
    expect(request).toHaveBeenLastCalledWith('/accounts/check', { method: 'GET', query: { email: 'a@b.c' } });
  });

  it('POST, PUT, PATCH and DELETE send their method and body', async () => {
    const { client, request } = fakeClient();
    await apiPost('/payments/licenses/new/confirm', {
      body: { impUid: 'imp_1', merchantUid: 'm-1' },
      query: { localeCode: 'ko' },
      token: null,
      client,
    });
    expect(request).toHaveBeenLastCalledWith('/payments/licenses/new/confirm', {
      method: 'POST',
      query: { localeCode: 'ko' },
      body: { impUid: 'imp_1', merchantUid: 'm-1' },
      token: null,
    });
    await apiPut('/billingkeys', { body: { customerUid: 'c-1' }, client });
    expect(request).toHaveBeenLastCalledWith('/billingkeys', { method: 'PUT', query: undefined, body: { customerUid: 'c-1' } });
    await apiPatch('/licenses/{user_license_id}/devices/{device_id}', {
      params: { user_license_id: 'u-1', device_id: 'd-1' },
      body: { deviceName: 'Phone' },
      client,
    });
    expect(request).toHaveBeenLastCalledWith('/licenses/u-1/devices/d-1', {
      method: 'PATCH',
      query: undefined,
      body: { deviceName: 'Phone' },
    });
    await apiDelete('/payments/licenses/subscribe/{user_license_id}', { params: { user_license_id: 'u-1' }, client });
    expect(request).toHaveBeenLastCalledWith('/payments/licenses/subscribe/u-1', { method: 'DELETE', query: undefined });
  });

  it('checks paths, parameters, queries, bodies and answers against the schema', async () => {
    const { client } = fakeClient({ isRegistered: true });
    const answer = await apiGet('/accounts/check', { query: { email: 'a@b.c' }, client });
    const registered: boolean = answer.isRegistered;
    expect(registered).toBe(true);
    // These lines are checked by `npm run typecheck`, not run.
    const notRun = (): unknown[] => [
      // @ts-expect-error: the server has no such path
      apiGet('/no/such/path', { client }),
      // @ts-expect-error: GET /accounts/check needs its email query
      apiGet('/accounts/check', { client }),
      // @ts-expect-error: the path parameter is missing
      apiGet('/licenses/mine/{user_license_id}', { client }),
      // @ts-expect-error: the body has a wrong field
      apiPatch('/licenses/{user_license_id}/devices/{device_id}', { params: { user_license_id: 'u', device_id: 'd' }, body: { name: 'x' }, client }),
      // @ts-expect-error: POST is not a method of /licenses/mine
      apiPost('/licenses/mine', { client }),
      // @ts-expect-error: the answer has no such field
      apiGet('/accounts/check', { query: { email: 'a' }, client }).then((check) => check.registered),
    ];
    expect(typeof notRun).toBe('function');
  });
});

describe('undocumented query parameters', () => {
  it('are sent with the documented ones', async () => {
    const { client, request } = fakeClient();
    await apiPost('/accounts/password-change-email', {
      body: { email: 'a@b.c', resend: false },
      undocumentedQuery: { localeCode: 'ja' },
      client,
    });
    expect(request).toHaveBeenLastCalledWith('/accounts/password-change-email', {
      method: 'POST',
      query: { localeCode: 'ja' },
      body: { email: 'a@b.c', resend: false },
    });
  });
});
