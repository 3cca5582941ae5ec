import { describe, expect, it } from 'vitest';
import { catalogues } from '../../test/catalogues';
import { deviceRenameMessage, LICENCE_REGISTER_TEXT_CODES, openBetaMessage } from './errors';

const ko = catalogues.ko;

describe('licence page errors', () => {
  it('says the open beta has ended for -1002', () => {
    expect(openBetaMessage(ko, { code: -1002 })).toBe(ko.payments.openBetaEnded);
    expect(openBetaMessage(ko, { code: -114 })).toBe('이미 오픈 베타에 참여하셨습니다.');
  });

  it('says the rename conditions are not met for -2', () => {
    expect(deviceRenameMessage(ko, { code: -2 })).toBe(ko.payments.deviceRenameRefused);
    expect(deviceRenameMessage(ko, { code: -1404 })).toBe('기기가 존재하지 않습니다.');
  });

  it('shows key registration refusals inline', () => {
    expect(LICENCE_REGISTER_TEXT_CODES).toEqual([404, -100, -105, -106]);
  });
});
