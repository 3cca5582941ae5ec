// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startChat } from './chat';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  delete window.ChannelIO;
  document.getElementById('chat-widget-script')?.remove();
});

describe('the chat widget', () => {
  it('boots a logged-in member with the id and hash the server made', async () => {
    const fetchMock = vi.fn(async () => json(200, { memberId: 'u-1', memberHash: 'ab12' }));
    vi.stubGlobal('fetch', fetchMock);
    await startChat({ scriptUrl: 'https://chat.example/plugin.js', pluginKey: 'pk', language: 'ja', token: 'token' });
    const script = document.getElementById('chat-widget-script') as HTMLScriptElement;
    expect(script.src).toBe('https://chat.example/plugin.js');
    expect(window.ChannelIO?.q).toEqual([
      ['shutdown'],
      ['boot', { pluginKey: 'pk', language: 'ja', memberId: 'u-1', memberHash: 'ab12' }],
    ]);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain('/integrations/chat-member');
  });

  it('boots an anonymous visitor without a member, and loads the script once', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    await startChat({ scriptUrl: 'https://chat.example/plugin.js', pluginKey: 'pk', language: 'ko', token: null });
    await startChat({ scriptUrl: 'https://chat.example/plugin.js', pluginKey: 'pk', language: 'en', token: null });
    expect(document.querySelectorAll('#chat-widget-script')).toHaveLength(1);
    expect(window.ChannelIO?.q?.filter(([command]) => command === 'boot')).toEqual([
      ['boot', { pluginKey: 'pk', language: 'ko' }],
      ['boot', { pluginKey: 'pk', language: 'en' }],
    ]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('still boots, without a member, when the hash cannot be had', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { errorCode: -401 })));
    const boot = await startChat({ scriptUrl: 'https://chat.example/plugin.js', pluginKey: 'pk', language: 'ko', token: 'stale' });
    expect(boot).toEqual({ pluginKey: 'pk', language: 'ko' });
  });
});
