import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NavLink } from '../routing/location';
import { renderAtAddress } from '../test/renderAtAddress';
import { NewTag } from './NewTag';

describe('NewTag', () => {
  it('adds the New tag to a link that marks the current page', () => {
    renderAtAddress(
      <NavLink to="/en/purchase">
        Purchase
        <NewTag />
      </NavLink>,
      '/en/purchase',
    );
    const link = screen.getByRole('link', { name: 'Purchase New' });
    expect(link.getAttribute('aria-current')).toBe('page');
  });
});
