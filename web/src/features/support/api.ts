/** Calls of the support desk and the chat widget, typed from the server's schema. */
import { apiGet, type Schema } from '../../api/typed';

export type DeskSignOn = Schema<'ZendeskBody'>;
export type ChatMember = Schema<'ChatMember'>;

/** GET /auth/zendesk: the desk's token and its sign-on address, returning to `returnTo` when it is on the desk. */
export function getDeskSignOn(token: string, returnTo: string | undefined): Promise<DeskSignOn> {
  return apiGet('/auth/zendesk', { token, query: { returnTo: returnTo || undefined } });
}

/** GET /integrations/chat-member: the logged-in member's id and hash for booting the chat widget. */
export function getChatMember(token: string): Promise<ChatMember> {
  return apiGet('/integrations/chat-member', { token });
}
