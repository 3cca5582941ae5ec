import { describe, expect, it } from 'vitest';
import { catalogues } from '../test/catalogues';
import { accountErrorMessage, errorDisplay } from './accountErrors';

describe('account errors', () => {
  it('shows the spec-named codes inline, mail throttling as a message, the rest as alerts', () => {
    expect(errorDisplay('signUp', -402)).toBe('text');
    expect(errorDisplay('signUp', -407)).toBe('text');
    expect(errorDisplay('signUp', -1)).toBe('alert');
    expect(errorDisplay('login', 401)).toBe('text');
    expect(errorDisplay('accountModify', -411)).toBe('text');
    expect(errorDisplay('emailChange', -406)).toBe('text');
    expect(errorDisplay('passwordReset', -4)).toBe('message');
    expect(errorDisplay('resendMail', -4)).toBe('message');
    expect(errorDisplay('logout', -4)).toBe('alert');
  });

  it('reads the catalogue, then the server message, then the generic text', () => {
    expect(accountErrorMessage(catalogues.en, { code: -402 })).toBe('This email is already registered.');
    expect(accountErrorMessage(catalogues.en, { code: -9, body: { message: 'from the server' } })).toBe('from the server');
    expect(accountErrorMessage(catalogues.ja, { code: -9 })).toBe(catalogues.ja.errors.generic);
  });
});
