/**
 * The report form's local filter groups (spec section 3: products other than uncpa, uncpw, uncpi, uncpm use
 * local defaults): the basic apps' catalogues, copied from the server's versioned data file
 * (domain/reports/filters.json) into src/features/reports/localFilterGroups.json, shaped as
 * GET /reports/filter-groups answers.
 *
 *   npm run filters:generate
 *
 * src/features/reports/filters.test.ts checks that the committed copy is what this script writes now.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const catalogueFile = path.join(webDir, '..', 'domain', 'reports', 'filters.json');
export const localFiltersPath = path.join(webDir, 'src', 'features', 'reports', 'localFilterGroups.json');

/** The JSON text of the local defaults: each basic app's groups, by product code. */
export function renderLocalFilters() {
  const { catalogues } = JSON.parse(readFileSync(catalogueFile, 'utf8'));
  const byProduct = Object.fromEntries(catalogues.map((catalogue) => [catalogue.product, catalogue.groups]));
  return `${JSON.stringify(byProduct, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(localFiltersPath, renderLocalFilters());
  console.log(`wrote ${path.relative(webDir, localFiltersPath)}`);
}
