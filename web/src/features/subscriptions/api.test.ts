import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../../api/client';
import { getSubscription } from './api';

function failingWith(error: unknown): ApiClient {
  return { request: () => Promise.reject(error) };
}

describe('getSubscription', () => {
  it('gives null for a licence without a subscription (404)', async () => {
    const notFound = new ApiError(404, 404, null, 'response');
    await expect(getSubscription('1', 'token', failingWith(notFound))).resolves.toBeNull();
  });
  it('passes other failures on', async () => {
    const refused = new ApiError(403, 403, null, 'response');
    await expect(getSubscription('1', 'token', failingWith(refused))).rejects.toBe(refused);
  });
});
