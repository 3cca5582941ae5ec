/** Reading the mails the backend writes as .eml files into var/e2e/outbox/. */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { e2eVarDir } from '../playwright.config';

/** The outbox of the stack under test (E2E_VAR_DIR moves it along with the rest of var/e2e). */
export const outboxDir = path.join(e2eVarDir, 'outbox');

export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i += 1) {
      const hex = joined.slice(i + 1, i + 3);
      if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

function splitHeaders(part: string): { headers: Record<string, string>; body: string } {
  const normalised = part.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end < 0 ? normalised : normalised.slice(0, end);
  const body = end < 0 ? '' : normalised.slice(end + 2);
  const headers: Record<string, string> = {};
  let last = '';
  for (const line of head.split('\n')) {
    if (/^\s/.test(line) && last) {
      headers[last] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    headers[last] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** Decodes RFC 2047 encoded words (=?utf-8?b?...?= and =?utf-8?q?...?=). */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset: string, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
  );
}

/** The text/plain content of a (possibly multipart) message. */
export function parseMail(file: string, raw: string): Mail {
  const { headers, body } = splitHeaders(raw);
  const type = headers['content-type'] ?? 'text/plain';
  let text = '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`)) {
      const parsed = splitHeaders(part.replace(/^\r?\n/, ''));
      if ((parsed.headers['content-type'] ?? '').toLowerCase().startsWith('text/plain')) {
        text = decodeBody(parsed.body, parsed.headers['content-transfer-encoding']);
        break;
      }
    }
  } else {
    text = decodeBody(body, headers['content-transfer-encoding']);
  }
  return { file, to: decodeWords(headers.to ?? ''), subject: decodeWords(headers.subject ?? ''), text };
}

/** The newest .eml addressed to `to`, waiting for it to arrive (tests run in parallel, so filter by recipient). */
export async function waitForMail(
  to: string,
  { timeoutMs = 45_000, match = () => true }: { timeoutMs?: number; match?: (mail: Mail) => boolean } = {},
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let names: string[] = [];
    try {
      names = (await readdir(outboxDir)).filter((name) => name.endsWith('.eml'));
    } catch {
      // The outbox appears with the first mail.
    }
    const mails = await Promise.all(
      names.map(async (name) => {
        const file = path.join(outboxDir, name);
        const [raw, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
        return { mail: parseMail(file, raw), mtime: info.mtimeMs };
      }),
    );
    const mine = mails
      .filter(({ mail }) => mail.to.toLowerCase().includes(to.toLowerCase()) && match(mail))
      .sort((a, b) => b.mtime - a.mtime);
    if (mine[0]) return mine[0].mail;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${to} in ${outboxDir} within ${timeoutMs} ms`);
}

/** The first http(s) link of a mail's text. */
export function firstLink(mail: Mail): string {
  const link = /https?:\/\/[^\s<>"]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in the mail ${mail.file}`);
  return link;
}
