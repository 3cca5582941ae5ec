/**
 * The chat widget (a Channel-Talk-style plugin script): loaded lazily, booted with the plugin key and,
 * for a logged-in member, the member id and its server-made hash so the chat cannot be opened as
 * someone else. Calls made before the script arrives wait in the widget's own queue, which the script
 * replays when it loads.
 */
import { getChatMember } from './api';

/** What the widget is booted with. */
export interface ChatBoot {
  pluginKey: string;
  language: string;
  memberId?: string;
  memberHash?: string;
}

type ChatCall = (command: string, options?: unknown) => void;
interface ChatQueue extends ChatCall {
  q?: unknown[][];
  c?: (args: unknown[]) => void;
}

declare global {
  interface Window {
    ChannelIO?: ChatQueue;
  }
}

const SCRIPT_ID = 'chat-widget-script';

/** The widget's global, with a queue standing in for it until the script replaces it. */
export function chatQueue(win: Window = window): ChatQueue {
  if (win.ChannelIO) return win.ChannelIO;
  const queue: ChatQueue = (...args: unknown[]) => queue.c?.(args);
  queue.q = [];
  queue.c = (args) => queue.q?.push(args);
  win.ChannelIO = queue;
  return queue;
}

/** Adds the widget's script to the page once. */
export function loadChatScript(scriptUrl: string, doc: Document = document): void {
  if (doc.getElementById(SCRIPT_ID)) return;
  const script = doc.createElement('script');
  script.id = SCRIPT_ID;
  script.async = true;
  script.src = scriptUrl;
  doc.head.appendChild(script);
}

/** Boots the widget afresh (a previous boot, e.g. as another member, is shut down first). */
export function bootChat(scriptUrl: string, boot: ChatBoot, win: Window = window): void {
  const chat = chatQueue(win);
  loadChatScript(scriptUrl, win.document);
  chat('shutdown');
  chat('boot', boot);
}

export interface StartChatInput {
  scriptUrl: string;
  pluginKey: string;
  language: string;
  /** The logged-in member's access token; null for an anonymous visitor. */
  token: string | null;
}

/** Boots the widget for this visitor: with the member id and hash when logged in, without them otherwise. */
export async function startChat({ scriptUrl, pluginKey, language, token }: StartChatInput): Promise<ChatBoot> {
  const boot: ChatBoot = { pluginKey, language };
  if (token) {
    try {
      const member = await getChatMember(token);
      boot.memberId = member.memberId;
      boot.memberHash = member.memberHash;
    } catch {
      // Without a hash the widget still works, as for an anonymous visitor.
    }
  }
  bootChat(scriptUrl, boot);
  return boot;
}
