import { render, screen } from '@testing-library/react';
import { createMemoryRouter, NavLink, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { NewTag } from './NewTag';

describe('NewTag', () => {
  it('adds the New tag to a link that marks the current page', () => {
    const router = createMemoryRouter(
      [
        {
          path: '/:lang/*',
          element: (
            <NavLink to="/en/purchase">
              Purchase
              <NewTag />
            </NavLink>
          ),
        },
      ],
      { initialEntries: ['/en/purchase'] },
    );
    render(<RouterProvider router={router} />);
    const link = screen.getByRole('link', { name: 'Purchase New' });
    expect(link.getAttribute('aria-current')).toBe('page');
  });
});
