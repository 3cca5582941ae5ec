/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localFiltersPath, renderLocalFilters } from '../../../scripts/filter-defaults.mjs';
import { groupsFromServer, localGroups, shownGroups } from './filters';

describe('filter groups of the report form', () => {
  it('come from the server for the Pro apps and from the local defaults for the basic ones', () => {
    expect(['uncpa', 'uncpw', 'uncpi', 'uncpm'].every((code) => groupsFromServer(code as 'uncpa'))).toBe(true);
    expect(groupsFromServer('uncea')).toBe(false);
    expect(localGroups('uncpa')).toEqual([]);
    const mac = shownGroups(localGroups('uncem'), 'ja');
    expect(mac.map((group) => group.name)).toEqual(['基本フィルター', '追加フィルター']);
    expect(mac[1]?.filters.map((filter) => filter.name)).toContain('プライバシーフィルター');
    expect(shownGroups(localGroups('uncea'), 'ko')[1]?.filters.map((filter) => filter.id)).toEqual([106, 107]);
  });

  it('are the local copy of the server catalogue file (npm run filters:generate)', () => {
    expect(readFileSync(localFiltersPath, 'utf8')).toBe(renderLocalFilters());
  });
});
