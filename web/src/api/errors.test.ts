import { describe, expect, it } from 'vitest';
import { deriveErrorCode, deriveErrorMessage, FALLBACK_ERROR_CODE, isEmptyBody } from './errors';

describe('deriveErrorCode', () => {
  it('is -1002 when the status is missing', () => {
    expect(deriveErrorCode({})).toBe(-1002);
    expect(deriveErrorCode({ status: null, body: { errorCode: -400 } })).toBe(FALLBACK_ERROR_CODE);
  });

  it('is the status when the body is empty', () => {
    expect(deriveErrorCode({ status: 500 })).toBe(500);
    expect(deriveErrorCode({ status: 429, body: '' })).toBe(429);
    expect(deriveErrorCode({ status: 502, body: {} })).toBe(502);
  });

  it.each([401, 403, 404])('is the status %i even when the body has an errorCode', (status) => {
    expect(deriveErrorCode({ status, body: { errorCode: -400, message: 'x' } })).toBe(status);
  });

  it("is the body's errorCode otherwise", () => {
    expect(deriveErrorCode({ status: 400, body: { errorCode: -402, message: 'taken' } })).toBe(-402);
    expect(deriveErrorCode({ status: 409, body: { errorCode: '-613' } })).toBe(-613);
  });

  it('falls back to -1002 when a non-empty body has no usable errorCode', () => {
    expect(deriveErrorCode({ status: 400, body: { message: 'no code' } })).toBe(-1002);
    expect(deriveErrorCode({ status: 500, body: '<html>Bad gateway</html>' })).toBe(-1002);
    expect(deriveErrorCode({ status: 400, body: { errorCode: 'STOPPED' } })).toBe(-1002);
  });
});

describe('isEmptyBody', () => {
  it('sees absent, blank and empty bodies as empty', () => {
    for (const body of [undefined, null, '', '  ', {}, []]) expect(isEmptyBody(body)).toBe(true);
  });
  it('sees anything else as not empty', () => {
    for (const body of ['x', { a: 1 }, [1], 0, false]) expect(isEmptyBody(body)).toBe(false);
  });
});

describe('deriveErrorMessage', () => {
  const fallback = 'Server response error.';

  it('prefers the catalogue, then the server message, then the generic text', () => {
    expect(deriveErrorMessage({ catalogueMessage: 'Catalogue', body: { message: 'Server' }, fallback })).toBe('Catalogue');
    expect(deriveErrorMessage({ body: { message: 'Server' }, fallback })).toBe('Server');
    expect(deriveErrorMessage({ body: { message: '  ' }, fallback })).toBe(fallback);
  });

  it('has a variant that prefers the server message', () => {
    expect(
      deriveErrorMessage({ catalogueMessage: 'Catalogue', body: { message: 'Server' }, fallback, preferServerMessage: true }),
    ).toBe('Server');
    expect(deriveErrorMessage({ catalogueMessage: 'Catalogue', fallback, preferServerMessage: true })).toBe('Catalogue');
  });
});
