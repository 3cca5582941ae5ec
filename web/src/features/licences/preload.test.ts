// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../store';
import { myLicences, preloadMyLicences, PRELOAD_FRESH_MS } from './preload';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A server counting the licence-list reads, answering each token's reads one by one from `answers[token]`. */
function server(answers: Record<string, Response[]>) {
  const reads: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/licenses/mine')) {
        const bearer = new Headers(init?.headers).get('Authorization') ?? '';
        reads.push(bearer);
        return answers[bearer.replace('Bearer ', '')]?.shift() ?? json(200, []);
      }
      return json(401, { errorCode: -401 });
    }),
  );
  return reads;
}

function member(token: string, scope = 1) {
  appStore.setState({
    user: { userId: 'u-1', email: 'a@example.com', scope, accessToken: token, expiredAt: Date.now() + 3_600_000 },
    sessionChecked: true,
  });
  document.cookie = 'logged_in=u-1; path=/';
}

const mine = [{ id: 'l-1' }];

beforeEach(() => {
  void myLicences(null).catch(() => undefined); // forget what an earlier test preloaded
});

describe('the licence list read as the app starts', () => {
  it("is the page's first answer, read once, and a reload reads afresh", async () => {
    member('token-1');
    const reads = server({ 'token-1': [json(200, mine), json(200, [...mine, { id: 'l-2' }])] });
    preloadMyLicences(appStore);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    expect(await myLicences('token-1')).toEqual(mine);
    expect(reads).toHaveLength(1);
    expect(await myLicences('token-1')).toHaveLength(2);
    expect(reads).toEqual(['Bearer token-1', 'Bearer token-1']);
  });

  it('is not used for another token, nor once it is stale', async () => {
    member('token-1');
    const reads = server({ 'token-1': [json(200, mine), json(200, mine), json(200, [])], 'token-2': [json(200, [])] });
    preloadMyLicences(appStore);
    expect(await myLicences('token-2')).toEqual([]);
    expect([...reads].sort()).toEqual(['Bearer token-1', 'Bearer token-2']);

    let clock = 1_000;
    preloadMyLicences(appStore, () => clock);
    await vi.waitFor(() => expect(reads).toHaveLength(3)); // read ahead, and left unused too long
    clock += PRELOAD_FRESH_MS;
    expect(await myLicences('token-1', () => clock)).toEqual([]);
    expect(reads).toHaveLength(4);
  });

  it('reads nothing ahead for a visitor whose account is not confirmed, and a failed read is read again', async () => {
    member('token-0', 0);
    const reads = server({ 'token-1': [json(503, { errorCode: -1002 }), json(200, mine)] });
    preloadMyLicences(appStore);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reads).toHaveLength(0);

    member('token-1');
    preloadMyLicences(appStore);
    expect(await myLicences('token-1')).toEqual(mine);
    expect(reads).toHaveLength(2);
  });
});
