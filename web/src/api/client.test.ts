import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, API_BASE_PATH, createApiClient, REQUEST_TIMEOUT_MS } from './client';

function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A fetch that never answers but honours its abort signal, like the real one. */
function hangingFetch(): typeof fetch {
  return (_input, init) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('api client', () => {
  it('calls the base path with cookies, JSON and the bearer token', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse(200, { ok: true }));
    const api = createApiClient({ fetch: fetchMock });

    const result = await api.request<{ ok: boolean }>('/auth/login', {
      method: 'POST',
      body: { email: 'a@b.c', pw: 'secret12' },
      token: 'T0K',
      query: { redirectionUri: 'https://x/y', skip: undefined },
    });

    expect(result).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`${API_BASE_PATH}/auth/login?redirectionUri=https%3A%2F%2Fx%2Fy`);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"email":"a@b.c","pw":"secret12"}' });
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer T0K', 'Content-Type': 'application/json' });
  });

  it('sends no Authorization header without a token and passes FormData through', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    const api = createApiClient({ fetch: fetchMock });
    const form = new FormData();
    form.append('comment', 'hi');

    await expect(api.request('/reports', { method: 'POST', body: form, token: null })).resolves.toBeUndefined();
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBe(form);
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it("rejects with the body's errorCode", async () => {
    const api = createApiClient({ fetch: async () => jsonResponse(400, { errorCode: -402, message: 'taken' }) });
    const error = await api.request('/accounts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: -402, status: 400, body: { errorCode: -402, message: 'taken' }, reason: 'response' });
  });

  it('uses the status for 401 and for an empty body', async () => {
    const unauthorised = createApiClient({ fetch: async () => jsonResponse(401, { errorCode: -400 }) });
    await expect(unauthorised.request('/x')).rejects.toMatchObject({ code: 401 });
    const empty = createApiClient({ fetch: async () => new Response('', { status: 500 }) });
    await expect(empty.request('/x')).rejects.toMatchObject({ code: 500, status: 500 });
  });

  it('turns a network failure into -1002 without a status', async () => {
    const api = createApiClient({ fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(api.request('/x')).rejects.toMatchObject({ code: -1002, status: undefined, reason: 'network' });
  });

  it('gives up after 15 seconds with -1002', async () => {
    vi.useFakeTimers();
    const api = createApiClient({ fetch: hangingFetch() });
    const pending = api.request('/slow').catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: -1002, reason: 'timeout' });
  });

  it("lets the caller cancel, rejecting with the abort rather than an ApiError", async () => {
    const api = createApiClient({ fetch: hangingFetch() });
    const controller = new AbortController();
    const pending = api.request('/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.not.toBeInstanceOf(ApiError);
  });
});
