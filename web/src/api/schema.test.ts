/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOpenApiDocument, readWebRules, renderSchema, rulesPath, schemaPath } from '../../scripts/openapi-schema.mjs';

/** The first line where two texts differ, for a short failure message. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  const at = index < 0 ? left.length : index;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, server ${JSON.stringify(right[at])}`;
}

describe('src/api/schema.d.ts', () => {
  it('matches the OpenAPI document of the current server', async () => {
    const fresh = await renderSchema(readOpenApiDocument());
    const committed = readFileSync(schemaPath, 'utf8');
    const message = committed === fresh ? '' : `stale, run \`npm run api:generate\` (${firstDifference(committed, fresh)})`;
    expect(message).toBe('');
  }, 60_000);
});

describe('src/api/rules.ts', () => {
  it('holds the rules the current server applies', () => {
    const committed = readFileSync(rulesPath, 'utf8');
    const fresh = readWebRules();
    const message = committed === fresh ? '' : `stale, run \`npm run api:generate\` (${firstDifference(committed, fresh)})`;
    expect(message).toBe('');
  }, 60_000);
});
