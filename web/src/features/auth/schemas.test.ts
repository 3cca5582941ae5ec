import { describe, expect, it } from 'vitest';
import { accountErrorMessage, errorDisplay } from '../../errors/accountErrors';
import { loginErrorMessage } from './loginError';
import { PASSWORD_RULE } from '../../forms/fields';
import { loginSchema, newPasswordSchema, registerSchema } from './schemas';
import { ko } from '../../i18n/ko';
import { en } from '../../i18n/en';

const validRegistration = {
  email: 'new@example.com',
  pw: 'abcd1234',
  pwConfirm: 'abcd1234',
  language: 'ko',
  marketingPushEnabled: false,
  agreeTerms: true,
  agreePurchase: true,
  agreePersonal: true,
  agreePrivacy: true,
};

function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('password rule: English letters and digits combined, 8-20 characters', () => {
  it.each(['abcd1234', 'A1b2C3d4', 'passw0rd!', 'a1234567890123456789'])('accepts %s', (pw) => {
    expect(PASSWORD_RULE.test(pw)).toBe(true);
  });
  it.each([
    ['too short', 'abc123'],
    ['too long', 'a12345678901234567890'],
    ['letters only', 'abcdefgh'],
    ['digits only', '12345678'],
    ['a space', 'abcd 1234'],
    ['non-English letters', '비밀번호1234'],
  ])('rejects %s', (_, pw) => {
    expect(PASSWORD_RULE.test(pw)).toBe(false);
  });
});

describe('registration schema', () => {
  it('accepts a complete form', () => {
    expect(registerSchema.safeParse(validRegistration).success).toBe(true);
  });
  it('requires a correct email', () => {
    expect(issues(registerSchema.safeParse({ ...validRegistration, email: '' }))).toMatchObject({ email: 'required' });
    expect(issues(registerSchema.safeParse({ ...validRegistration, email: 'a@b' }))).toMatchObject({ email: 'email' });
  });
  it('checks the password rule and its confirmation', () => {
    expect(issues(registerSchema.safeParse({ ...validRegistration, pw: 'short1', pwConfirm: 'short1' }))).toMatchObject({
      pw: 'password',
    });
    expect(issues(registerSchema.safeParse({ ...validRegistration, pwConfirm: 'abcd12345' }))).toMatchObject({
      pwConfirm: 'passwordMismatch',
    });
  });
  it('needs all four agreements, with the spec message', () => {
    const result = registerSchema.safeParse({ ...validRegistration, agreePersonal: false });
    expect(issues(result)).toEqual({ agreePersonal: 'agreements' });
    expect(en.auth.validation.agreements).toBe(
      'Please read the terms and tick each required agreement (or agree to all) to go on.',
    );
  });
  it('takes only the site languages', () => {
    expect(registerSchema.safeParse({ ...validRegistration, language: 'fr' }).success).toBe(false);
  });
});

describe('other forms', () => {
  it('login only needs both fields', () => {
    expect(loginSchema.safeParse({ email: 'a@example.com', pw: 'x' }).success).toBe(true);
    expect(issues(loginSchema.safeParse({ email: 'a@example.com', pw: '' }))).toEqual({ pw: 'required' });
  });
  it('a new password follows the rule and matches', () => {
    expect(newPasswordSchema.safeParse({ pw: 'abcd1234', pwConfirm: 'abcd1234' }).success).toBe(true);
    expect(issues(newPasswordSchema.safeParse({ pw: 'abcd1234', pwConfirm: 'x' }))).toEqual({ pwConfirm: 'passwordMismatch' });
  });
});

describe('error display of spec section 8', () => {
  it('registration: -402 and -407 inline, others alert', () => {
    expect(errorDisplay('signUp', -402)).toBe('text');
    expect(errorDisplay('signUp', -407)).toBe('text');
    expect(errorDisplay('signUp', -1)).toBe('alert');
  });
  it('login: 401 inline as a mismatch, others alert', () => {
    expect(errorDisplay('login', 401)).toBe('text');
    expect(loginErrorMessage(ko, { code: 401 })).toBe('이메일 또는 비밀번호가 일치하지 않습니다.');
    expect(errorDisplay('login', -4)).toBe('alert');
  });
  it('password reset request and resend: -4 as a message', () => {
    expect(errorDisplay('passwordReset', -4)).toBe('message');
    expect(errorDisplay('resendMail', -4)).toBe('message');
  });
  it('password check -406, nickname -411, email change -402/-406 inline', () => {
    expect(errorDisplay('passwordChange', -406)).toBe('text');
    expect(errorDisplay('accountModify', -411)).toBe('text');
    expect(errorDisplay('emailChange', -402)).toBe('text');
    expect(errorDisplay('emailChange', -406)).toBe('text');
    expect(errorDisplay('accountModify', -2)).toBe('alert');
  });
  it("messages come from the page language's catalogue, then the server, then the generic text", () => {
    expect(accountErrorMessage(en, { code: -402, body: { errorCode: -402, message: '이미 가입된 이메일입니다.' } })).toBe(
      'This email is already registered.',
    );
    expect(accountErrorMessage(en, { code: -9999, body: { errorCode: -9999, message: 'From server' } })).toBe('From server');
    expect(accountErrorMessage(en, { code: -9999 })).toBe(en.errors.generic);
  });
});
