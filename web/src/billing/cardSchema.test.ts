import { describe, expect, it } from 'vitest';
import { cardSchema, EXPIRY_MONTHS, expiryYears, toCardBody } from './cardSchema';

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('card fields', () => {
  const now = new Date(2026, 10, 22);
  const schema = cardSchema(now);
  const card = { cardNumber: '4111111111111111', expiryMonth: '09', expiryYear: '2030', password: '12', birth: '900101' };

  it('offers months 01 to 12 and the current year with the next 19', () => {
    expect(EXPIRY_MONTHS).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    const years = expiryYears(now);
    expect(years).toHaveLength(20);
    expect(years[0]).toBe('2026');
    expect(years[19]).toBe('2045');
  });

  it('accepts a complete card, with a birth date or a business number', () => {
    expect(schema.safeParse(card).success).toBe(true);
    expect(schema.safeParse({ ...card, birth: '1234567890' }).success).toBe(true);
  });

  it('takes the number with spaces and dashes as people type it, and sends the digits', () => {
    expect(schema.parse({ ...card, cardNumber: '4111-1111-1111-1111' }).cardNumber).toBe('4111111111111111');
    expect(schema.parse({ ...card, cardNumber: ' 4111 1111 1111 1111 ' }).cardNumber).toBe('4111111111111111');
    expect(messages(schema.safeParse({ ...card, cardNumber: '411111' }))).toEqual({ cardNumber: 'cardNumber' });
    expect(messages(schema.safeParse({ ...card, cardNumber: '4111 1111 1111 111a' }))).toEqual({ cardNumber: 'cardNumber' });
  });

  it('checks the validity month and year', () => {
    expect(messages(schema.safeParse({ ...card, expiryMonth: '13' }))).toEqual({ expiryMonth: 'expiryMonth' });
    expect(messages(schema.safeParse({ ...card, expiryMonth: '9' }))).toEqual({ expiryMonth: 'expiryMonth' });
    expect(messages(schema.safeParse({ ...card, expiryYear: '2025' }))).toEqual({ expiryYear: 'expiryYear' });
    expect(messages(schema.safeParse({ ...card, expiryYear: '2046' }))).toEqual({ expiryYear: 'expiryYear' });
    expect(schema.safeParse({ ...card, expiryYear: '2045' }).success).toBe(true);
  });

  it('wants 2 password digits and 6 or 10 birth digits', () => {
    expect(messages(schema.safeParse({ ...card, password: '1' }))).toEqual({ password: 'cardPassword' });
    expect(messages(schema.safeParse({ ...card, password: '123' }))).toEqual({ password: 'cardPassword' });
    expect(messages(schema.safeParse({ ...card, password: 'ab' }))).toEqual({ password: 'cardPassword' });
    expect(messages(schema.safeParse({ ...card, birth: '12345678' }))).toEqual({ birth: 'birth' });
    expect(messages(schema.safeParse({ ...card, birth: '90010a' }))).toEqual({ birth: 'birth' });
  });

  it('sends the validity as numbers to the billing-key call', () => {
    expect(toCardBody(schema.parse(card))).toEqual({
      cardNumber: '4111111111111111',
      expiryYear: 2030,
      expiryMonth: 9,
      password: '12',
      birth: '900101',
    });
  });
});
