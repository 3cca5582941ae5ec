import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Lang } from '../i18n/languages';

/** Renders `ui` on a /{lang} page, so that useT() and useLang() read that language. */
export function renderInLang(ui: ReactNode, lang: Lang = 'en') {
  const router = createMemoryRouter([{ path: '/:lang', element: ui }], { initialEntries: [`/${lang}`] });
  return render(<RouterProvider router={router} />);
}
