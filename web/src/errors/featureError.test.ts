import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { catalogues } from '../test/catalogues';
import { featureErrorMessage, isNotFoundGoingHome, isSilentLoadError, parseErrorCode, toFeatureError } from './featureError';

const ko = catalogues.ko;
const en = catalogues.en;

describe('feature errors', () => {
  it('keeps the code and body of an ApiError, anything else is -1002', () => {
    expect(toFeatureError(new ApiError(-300, 400, { errorCode: -300 }, 'response'))).toEqual({
      code: -300,
      body: { errorCode: -300 },
    });
    expect(toFeatureError(new Error('boom'))).toEqual({ code: -1002 });
  });

  it('takes the catalogue message, then the server message, then the generic text', () => {
    expect(featureErrorMessage(ko, { code: 'STOP' })).toBe('사용자가 결제를 취소했습니다.');
    expect(featureErrorMessage(en, { code: -300 })).toBe(en.payments.errorCodes['-300']);
    expect(featureErrorMessage(en, { code: -300 })).toContain('another card');
    // No answer at all is the connection's failure, whatever the code.
    expect(featureErrorMessage(ko, { code: -1002, network: true })).toBe(ko.errors.network);
    expect(featureErrorMessage(ko, { code: -999, body: { message: 'from the server' } })).toBe('from the server');
    expect(featureErrorMessage(ko, { code: -999 })).toBe(ko.errors.generic);
  });

  it('has a message for every payment code of the spec in every language', () => {
    for (const code of ['STOP', -300, -301, -302, -303, -304, -305, -306, -308, -10002, -100, -105, -106, -114, -1404]) {
      for (const t of Object.values(catalogues)) {
        expect(featureErrorMessage(t, { code: code as number })).not.toBe(t.errors.generic);
      }
    }
  });

  it('reads a code from a query', () => {
    expect(parseErrorCode('STOP')).toBe('STOP');
    expect(parseErrorCode('stop')).toBe('STOP');
    expect(parseErrorCode('-300')).toBe(-300);
    expect(parseErrorCode('abc')).toBeUndefined();
    expect(parseErrorCode(null)).toBeUndefined();
  });

  it('knows the silent and going-home cases', () => {
    expect(isSilentLoadError({ code: 401 })).toBe(true);
    expect(isSilentLoadError({ code: 403 })).toBe(true);
    expect(isSilentLoadError({ code: 404 })).toBe(false);
    expect(isNotFoundGoingHome({ code: 404 })).toBe(true);
    expect(isNotFoundGoingHome({ code: -109 })).toBe(true);
    expect(isNotFoundGoingHome({ code: -2 })).toBe(false);
  });
});
