import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './client';
import { checkEmail, getHealth, postPasswordResetMail } from './endpoints';

function fakeClient(answer: unknown) {
  const request = vi.fn(async () => answer);
  return { client: { request } as unknown as ApiClient, request };
}

describe('typed endpoints', () => {
  it('checkEmail calls GET /accounts/check with the email', async () => {
    const { client, request } = fakeClient({ email: 'a@b.c', registered: true });
    await checkEmail('a@b.c', client);
    expect(request).toHaveBeenCalledWith('/accounts/check', { method: 'GET', query: { email: 'a@b.c' } });
  });

  it('getHealth calls GET /health', async () => {
    const { client, request } = fakeClient({ ok: true });
    await getHealth(client);
    expect(request).toHaveBeenCalledWith('/health', { method: 'GET', query: undefined });
  });

  it('postPasswordResetMail asks in the page language', async () => {
    const { client, request } = fakeClient({ result: true });
    await postPasswordResetMail('a@b.c', true, 'en', client);
    expect(request).toHaveBeenCalledWith('/accounts/password-change-email', {
      method: 'POST',
      query: { localeCode: 'en' },
      body: { email: 'a@b.c', resend: true },
    });
  });
});
