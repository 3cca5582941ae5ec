import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FieldError, fieldErrorText } from './FieldError';
import { StatusLine } from './StatusLine';

describe('FieldError', () => {
  it('announces the inline error under its id, and is absent without one', () => {
    const { rerender } = render(<FieldError id="email-error">Invalid email.</FieldError>);
    expect(screen.getByRole('alert').id).toBe('email-error');
    rerender(<FieldError id="email-error">{undefined}</FieldError>);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('StatusLine', () => {
  it('says its message politely, in the tone asked', () => {
    render(<StatusLine tone="error">Failed.</StatusLine>);
    expect(screen.getByRole('status').className).toBe('status-line status-line--error');
  });
  it('is absent when there is nothing to say', () => {
    render(<StatusLine>{null}</StatusLine>);
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('fieldErrorText', () => {
  const messages = { required: 'Please enter it.', email: 'Invalid email.' };
  it('translates schema keys, falling back to required', () => {
    expect(fieldErrorText({ type: 'invalid_format', message: 'email' }, messages)).toBe('Invalid email.');
    expect(fieldErrorText({ type: 'custom', message: 'unknown' }, messages)).toBe('Please enter it.');
    expect(fieldErrorText(undefined, messages)).toBeUndefined();
  });
  it('shows a server message as it is', () => {
    expect(fieldErrorText({ type: 'server', message: 'This email is taken.' }, messages)).toBe('This email is taken.');
  });
});
