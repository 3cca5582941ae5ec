import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TokenRefusedError, verifyLicenceToken, type Jwk } from './licenceVerifier';

interface Vector {
  name: string;
  token: string;
  now: number;
  minTreeSize: number;
  expect: string;
}

const file = JSON.parse(
  readFileSync(new URL('../../../verifier/test-vectors.json', import.meta.url), 'utf-8'),
) as { jwks: { keys: Jwk[] }; logKey: string; vectors: Vector[] };

async function answer(vector: Vector): Promise<string> {
  try {
    await verifyLicenceToken(vector.token, file.jwks, {
      logKey: file.logKey,
      now: vector.now,
      minTreeSize: vector.minTreeSize,
    });
    return 'valid';
  } catch (refused) {
    if (refused instanceof TokenRefusedError) return refused.reason;
    throw refused;
  }
}

describe('the TypeScript reference verifier', () => {
  it.each(file.vectors.map((v) => [v.name, v] as const))('answers "%s" as the vectors file says', async (_, vector) => {
    expect(await answer(vector)).toBe(vector.expect);
  });
});
