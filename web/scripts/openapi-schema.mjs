/**
 * Generating src/api/schema.d.ts from the server's OpenAPI document with openapi-typescript.
 *
 *   ../.venv/bin/python -m api.openapi > openapi.json && node scripts/openapi-schema.mjs openapi.json
 *
 * That is `npm run api:generate`; without a file argument the script asks Python itself. It also writes
 * src/api/rules.ts, the catalogue's rules the web applies as the server does (`python -m api.web_rules`).
 * src/api/schema.test.ts uses `renderSchema` and `readWebRules` to check that the committed files are what the
 * current server produces.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const schemaPath = path.join(webDir, 'src', 'api', 'schema.d.ts');
export const openapiPath = path.join(webDir, 'openapi.json');
export const rulesPath = path.join(webDir, 'src', 'api', 'rules.ts');

function runPython(module) {
  const python = process.env.API_PYTHON ?? path.join(webDir, '..', '.venv', 'bin', 'python');
  return execFileSync(python, ['-m', module], {
    cwd: path.join(webDir, '..'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The OpenAPI document as `python -m api.openapi` prints it (run from web/, like the npm script). */
export function readOpenApiDocument() {
  return runPython('api.openapi');
}

/** rules.ts as `python -m api.web_rules` prints it. */
export function readWebRules() {
  return runPython('api.web_rules');
}

/** TypeScript declarations for an OpenAPI document, exactly as the openapi-typescript CLI writes them. */
export async function renderSchema(documentText) {
  const ast = await openapiTS(JSON.parse(documentText));
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const input = process.argv[2];
  const documentText = input ? readFileSync(input, 'utf8') : readOpenApiDocument();
  if (!input) writeFileSync(openapiPath, documentText, 'utf8');
  writeFileSync(schemaPath, await renderSchema(documentText), 'utf8');
  console.log(`wrote ${path.relative(webDir, schemaPath)}`);
  writeFileSync(rulesPath, readWebRules(), 'utf8');
  console.log(`wrote ${path.relative(webDir, rulesPath)}`);
}
