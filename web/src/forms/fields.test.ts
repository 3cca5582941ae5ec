import { describe, expect, it } from 'vitest';
import { AGREEMENTS, emailField, missingAgreement, passwordField } from './fields';

describe('shared field rules', () => {
  it('tells an empty email from a malformed one', () => {
    expect(emailField.safeParse(' a@b.co ').data).toBe('a@b.co');
    expect(emailField.safeParse('').error?.issues[0]?.message).toBe('required');
    expect(emailField.safeParse('a@b').error?.issues[0]?.message).toBe('email');
  });
  it('checks the password rule', () => {
    expect(passwordField.safeParse('abcd1234').success).toBe(true);
    expect(passwordField.safeParse('abcdefgh').error?.issues[0]?.message).toBe('password');
  });
});

describe('agreements', () => {
  it('names the first one missing', () => {
    const all = Object.fromEntries(AGREEMENTS.map((name) => [name, true])) as Record<(typeof AGREEMENTS)[number], boolean>;
    expect(missingAgreement(all)).toBeUndefined();
    expect(missingAgreement({ ...all, agreePurchase: false, agreePrivacy: false })).toBe('agreePurchase');
  });
});
