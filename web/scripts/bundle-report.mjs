/**
 * What the initial JavaScript holds: builds the app in memory (nothing written to dist/) and prints, for the
 * entry chunk and its static imports, the minified bytes each package or source folder contributes (from the
 * chunk's source map) and their gzip size when compressed on their own (an upper bound: gzip of the whole file
 * is smaller than the sum of its parts).
 *
 *   node scripts/bundle-report.mjs
 */
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
import { build } from 'vite';

/** A package name (`react-dom`, `@scope/name`) or the source file's folder under src/. */
function group(source) {
  const inModules = source.split('node_modules/').at(-1);
  if (inModules !== source) {
    const parts = inModules.split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const inSrc = source.split('/src/').at(-1);
  return inSrc === source ? source : `src/${inSrc}`;
}

const report = {
  name: 'initial-js-report',
  generateBundle(_options, bundle) {
    const entry = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
    const initial = [entry.fileName, ...entry.imports];
    const pieces = new Map();
    let total = 0;
    for (const fileName of initial) {
      const chunk = bundle[fileName];
      total += gzipSync(chunk.code, { level: 9 }).length;
      const map = new SourceMapConsumer(chunk.map);
      const lines = chunk.code.split('\n');
      const mappings = [];
      map.eachMapping((m) => mappings.push(m));
      mappings.forEach((m, i) => {
        const next = mappings[i + 1];
        const line = lines[m.generatedLine - 1] ?? '';
        const end = next && next.generatedLine === m.generatedLine ? next.generatedColumn : line.length;
        const key = m.source ? group(m.source) : '(glue)';
        pieces.set(key, (pieces.get(key) ?? '') + line.slice(m.generatedColumn, end));
      });
    }
    console.log(`initial chunks: ${initial.join(', ')}; gzip ${(total / 1000).toFixed(1)} kB`);
    const rows = [...pieces].map(([key, code]) => [key, code.length, gzipSync(code, { level: 9 }).length]);
    rows.sort((a, b) => b[1] - a[1]);
    console.log('   min kB  gzip kB  part');
    for (const [key, raw, gz] of rows.slice(0, Number(process.env.ROWS ?? 30))) {
      console.log(`${(raw / 1000).toFixed(1).padStart(9)} ${(gz / 1000).toFixed(1).padStart(8)}  ${key}`);
    }
  },
};

await build({ logLevel: 'error', plugins: [report], build: { write: false, sourcemap: true } });
