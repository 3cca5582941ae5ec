import { describe, expect, it } from 'vitest';
import { deleteSchema, emailChangeSchema, nameSchema } from './schemas';

function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('account forms', () => {
  it('an email change needs the new address and the password', () => {
    expect(issues(emailChangeSchema.safeParse({ email: 'bad', pw: '' }))).toEqual({ email: 'email', pw: 'required' });
  });
  it('a name is required and at most 50 characters', () => {
    expect(nameSchema.safeParse({ name: '  Minji ' }).data).toEqual({ name: 'Minji' });
    expect(issues(nameSchema.safeParse({ name: ' ' }))).toEqual({ name: 'required' });
    expect(nameSchema.safeParse({ name: 'x'.repeat(51) }).success).toBe(false);
  });
  it('a deletion needs the password and the acknowledgement', () => {
    expect(issues(deleteSchema.safeParse({ deletedReason: '', pw: '', acknowledge: false }))).toEqual({
      pw: 'required',
      acknowledge: 'required',
    });
  });
});
