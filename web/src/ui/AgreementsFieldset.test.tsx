import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInLang } from '../test/renderInLang';
import { AgreementsFieldset } from './AgreementsFieldset';

const input = (name: string) => ({ name, onChange: vi.fn(async () => undefined), onBlur: vi.fn(async () => undefined), ref: () => undefined });

describe('AgreementsFieldset', () => {
  it('lists each agreement with a link that opens it in a new window, and agree-all', async () => {
    const onAllChange = vi.fn();
    renderInLang(
      <AgreementsFieldset
        legend="Agreements"
        agreeAllLabel="Agree to all"
        allChecked={false}
        onAllChange={onAllChange}
        rows={[
          { label: 'Terms of use', href: '/en/terms', input: input('agreeTerms') },
          { label: 'Privacy policy', href: '/en/terms/privacy', input: input('agreePrivacy') },
        ]}
        viewLabel="View"
        error={undefined}
        errorId="agreements-error"
      />,
    );
    const group = await screen.findByRole('group', { name: 'Agreements' });
    expect(group.getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByLabelText('Terms of use')).toBeTruthy();
        const links = screen.getAllByRole('link', { name: /^View ?\(opens in a new window\)$/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/en/terms', '/en/terms/privacy']);
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByLabelText('Agree to all'));
    expect(onAllChange).toHaveBeenCalledWith(true);
  });

  it('describes the group by its error', async () => {
    renderInLang(
      <AgreementsFieldset
        legend="Agreements"
        agreeAllLabel="Agree to all"
        allChecked
        onAllChange={() => undefined}
        rows={[]}
        viewLabel="View"
        error="Please agree."
        errorId="agreements-error"
      />,
    );
    const group = await screen.findByRole('group', { name: 'Agreements' });
    expect(group.getAttribute('aria-describedby')).toBe('agreements-error');
    expect(screen.getByRole('alert').textContent).toBe('Please agree.');
  });
});
