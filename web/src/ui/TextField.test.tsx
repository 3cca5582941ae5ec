import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from './TextField';

describe('TextField', () => {
  it('labels the input and describes it by its hint', () => {
    render(<TextField label="Email" hint="We send the key here." inputProps={{ name: 'email', type: 'email' }} />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByText('We send the key here.').id);
  });

  it('marks an error and adds it to the description, with a given id', () => {
    render(<TextField id="buyer" label="Email" hint="Hint" error="Invalid email." inputProps={{ name: 'email' }} />);
    const input = screen.getByLabelText('Email');
    expect(input.id).toBe('buyer');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('buyer-hint buyer-error');
    expect(screen.getByRole('alert').textContent).toBe('Invalid email.');
  });
});
