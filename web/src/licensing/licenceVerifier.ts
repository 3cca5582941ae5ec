/**
 * Reference verifier of Unicorn Pro offline licence tokens for the app teams, in TypeScript with no dependency
 * (WebCrypto: Ed25519 and SHA-256). It answers as verifier/licence_verifier.py does; both are held to
 * verifier/test-vectors.json (docs/app-licensing.md).
 */

export type Refusal =
  | 'malformed'
  | 'unknown-key'
  | 'bad-signature'
  | 'expired'
  | 'not-valid'
  | 'bad-checkpoint'
  | 'stale-checkpoint'
  | 'bad-log-proof';

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

export interface LogClaim {
  checkpoint: string;
  size: number;
  root: string;
  leafIndex: number;
  record: string;
  proof: string[];
  current: boolean;
}

export interface LicenceClaims {
  licence: string;
  device: string;
  product: string;
  status: string;
  entitlements: string[];
  exp: number;
  iat: number;
  paidUntil: number | null;
  graceSeconds: number;
  log: LogClaim | null;
  [claim: string]: unknown;
}

export class TokenRefusedError extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

export interface VerifyOptions {
  /** The log's verifier key (`<origin>+<id hex>+<base64(0x01 || key)>`); without it the note is not checked. */
  logKey?: string;
  /** Seconds since the epoch. */
  now: number;
  /** The largest log checkpoint the app has already seen: a token with a smaller one is stale. */
  minTreeSize?: number;
}

const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await subtle.digest('SHA-256', joined));
}

async function ed25519Verify(publicKey: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) {
  const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return subtle.verify({ name: 'Ed25519' }, key, signature, data);
}

/** The token's claims, once its signature, times and log proof all check out. */
export async function verifyLicenceToken(
  token: string,
  jwks: { keys: Jwk[] },
  { logKey, now, minTreeSize = 0 }: VerifyOptions,
): Promise<LicenceClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenRefusedError('malformed');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: { alg?: string; kid?: string };
  let claims: LicenceClaims;
  try {
    header = JSON.parse(new TextDecoder().decode(fromBase64Url(headerPart)));
    claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payloadPart)));
  } catch {
    throw new TokenRefusedError('malformed');
  }
  if (header.alg !== 'EdDSA') throw new TokenRefusedError('malformed');
  const key = jwks.keys.find((k) => k.kid === header.kid && k.crv === 'Ed25519');
  if (!key) throw new TokenRefusedError('unknown-key');
  const signed = encoder.encode(`${headerPart}.${payloadPart}`);
  if (!(await ed25519Verify(fromBase64Url(key.x), fromBase64Url(signaturePart), signed))) {
    throw new TokenRefusedError('bad-signature');
  }
  if (now >= claims.exp || (claims.paidUntil !== null && now >= claims.paidUntil)) {
    throw new TokenRefusedError('expired');
  }
  if (claims.status !== 'valid') throw new TokenRefusedError('not-valid');
  await checkLog(claims, logKey, minTreeSize);
  return claims;
}

async function checkLog(claims: LicenceClaims, logKey: string | undefined, minTreeSize: number): Promise<void> {
  const log = claims.log;
  if (log === null) {
    if (minTreeSize > 0) throw new TokenRefusedError('stale-checkpoint');
    return;
  }
  const [size, root] = logKey ? await openNote(log.checkpoint, logKey) : readBody(log.checkpoint);
  if (size !== log.size || toHex(root) !== log.root) throw new TokenRefusedError('bad-checkpoint');
  if (size < minTreeSize) throw new TokenRefusedError('stale-checkpoint');
  if ((JSON.parse(log.record) as { originator_id?: string }).originator_id !== claims.licence) {
    throw new TokenRefusedError('bad-log-proof');
  }
  const leaf = await sha256(new Uint8Array([0]), encoder.encode(log.record));
  if (!(await verifyInclusion(leaf, log.leafIndex, size, log.proof.map(fromHex), root))) {
    throw new TokenRefusedError('bad-log-proof');
  }
}

function readBody(note: string): [number, Uint8Array<ArrayBuffer>] {
  const [, size, root] = note.split('\n');
  if (size === undefined || root === undefined || !/^\d+$/.test(size)) throw new TokenRefusedError('bad-checkpoint');
  return [Number(size), fromBase64(root)];
}

async function openNote(note: string, logKey: string): Promise<[number, Uint8Array<ArrayBuffer>]> {
  const first = logKey.indexOf('+');
  const second = logKey.indexOf('+', first + 1);
  const [name, keyId, encoded] = [logKey.slice(0, first), logKey.slice(first + 1, second), logKey.slice(second + 1)];
  const publicKey = fromBase64(encoded).slice(1);
  const split = note.lastIndexOf('\n\n');
  const body = note.slice(0, split) + '\n';
  for (const line of note.slice(split + 2).split('\n').filter(Boolean)) {
    const text = line.replace(/^\u2014 /, '');
    const space = text.lastIndexOf(' ');
    const raw = fromBase64(text.slice(space + 1));
    if (text.slice(0, space) === name && toHex(raw.slice(0, 4)) === keyId) {
      if (await ed25519Verify(publicKey, raw.slice(4), encoder.encode(body))) return readBody(body);
      break;
    }
  }
  throw new TokenRefusedError('bad-checkpoint');
}

/** RFC 9162 section 2.1.3.2: is `leaf` at `index` in the tree of `size` leaves with `root`? */
export async function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: Uint8Array[],
  root: Uint8Array,
): Promise<boolean> {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  const node = new Uint8Array([1]);
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(node, p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await sha256(node, r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && toHex(r) === toHex(root);
}
