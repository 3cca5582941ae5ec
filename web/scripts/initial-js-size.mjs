/**
 * After `vite build`: the gzipped size of the JavaScript the home page loads before anything lazy,
 * that is the entry script of dist/index.html and its modulepreloads.
 *
 *   node scripts/initial-js-size.mjs   ->   initial JS (gzip): 112.3 kB
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
// The page measured: the storefront's home page (index.html) by default, or another entry (admin.html).
const page = process.argv[2] ?? 'index.html';
const html = readFileSync(path.join(distDir, page), 'utf8');

const sources = new Set();
for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
  if (!/type=["']module["']/.test(tag)) continue;
  const src = /\ssrc=["']([^"']+)["']/.exec(tag)?.[1];
  if (src) sources.add(src);
}
for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
  if (!/rel=["']modulepreload["']/.test(tag)) continue;
  const href = /\shref=["']([^"']+)["']/.exec(tag)?.[1];
  if (href) sources.add(href);
}
if (sources.size === 0) {
  console.error(`initial JS: no entry script found in dist/${page}`);
  process.exit(1);
}

let raw = 0;
let gzipped = 0;
for (const source of sources) {
  const file = readFileSync(path.join(distDir, source.replace(/^\//, '')));
  raw += file.length;
  gzipped += gzipSync(file, { level: 9 }).length;
}
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
console.log(`${page === 'index.html' ? '' : `${page}: `}initial JS (gzip): ${kB(gzipped)}  (${sources.size} file${sources.size === 1 ? '' : 's'}, ${kB(raw)} raw)`);
