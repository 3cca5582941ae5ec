import { describe, expect, it } from 'vitest';
import { cashReceiptOf, purchaseSchema } from './schemas';

const valid = {
  guest: true,
  email: 'guest@example.com',
  paymentMethod: 'creditCard',
  agreeTerms: true,
  agreePurchase: true,
  agreePersonal: true,
  agreePrivacy: true,
};

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('purchaseSchema', () => {
  it('accepts a complete guest order and trims the email', () => {
    const result = purchaseSchema.safeParse({ ...valid, email: '  guest@example.com ' });
    expect(result.success).toBe(true);
    expect(result.data?.email).toBe('guest@example.com');
  });

  it('needs an email from guests: exact when empty, a valid format otherwise', () => {
    expect(messages(purchaseSchema.safeParse({ ...valid, email: '' }))).toEqual({ email: 'emailExact' });
    expect(messages(purchaseSchema.safeParse({ ...valid, email: 'guest@example' }))).toEqual({ email: 'email' });
    expect(messages(purchaseSchema.safeParse({ ...valid, email: 'no at sign' }))).toEqual({ email: 'email' });
  });

  it('does not ask a logged-in buyer for an email', () => {
    expect(purchaseSchema.safeParse({ ...valid, guest: false, email: '' }).success).toBe(true);
  });

  it('needs each of the four agreements', () => {
    for (const name of ['agreeTerms', 'agreePurchase', 'agreePersonal', 'agreePrivacy']) {
      expect(messages(purchaseSchema.safeParse({ ...valid, [name]: false }))).toEqual({ [name]: 'agreements' });
    }
  });

  it('takes only the known payment methods', () => {
    for (const method of ['creditCard', 'bankTransfer', 'virtualAccount', 'kakaopay', 'naverpay', 'point']) {
      expect(purchaseSchema.safeParse({ ...valid, paymentMethod: method }).success).toBe(true);
    }
    expect(messages(purchaseSchema.safeParse({ ...valid, paymentMethod: 'none' }))).toEqual({
      paymentMethod: 'selectMethod',
    });
  });
});

describe('the cash-receipt choice', () => {
  it('is none by default, and sent only with a bank transfer or a virtual account', () => {
    const plain = purchaseSchema.parse(valid);
    expect(cashReceiptOf(plain)).toBeUndefined();
    const chosen = { ...valid, cashReceiptType: 'business', cashReceiptNumber: ' 124-81-00998 ' };
    expect(cashReceiptOf(purchaseSchema.parse(chosen))).toBeUndefined();
    const vbank = purchaseSchema.parse({ ...chosen, paymentMethod: 'virtualAccount' });
    expect(cashReceiptOf(vbank)).toEqual({ type: 'business', number: '124-81-00998' });
  });

  it('needs the number once a kind is chosen', () => {
    const missing = { ...valid, paymentMethod: 'bankTransfer', cashReceiptType: 'personal', cashReceiptNumber: '' };
    expect(messages(purchaseSchema.safeParse(missing))).toEqual({ cashReceiptNumber: 'required' });
  });
});
