import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanyBlock } from '../config/integrations';
import { jaShell } from '../i18n/shell/ja';
import { koShell } from '../i18n/shell/ko';
import { renderInLang } from '../test/renderInLang';
import Footer from './Footer';
import { fairTradeBusinessPage } from './fairTrade';

/** Korea's E-Commerce Act: the store's first screen shows who sells, with the FTC's page of the business. */

const company: CompanyBlock = {
  name: '유니콘 주식회사',
  representative: '김유니',
  address: '서울특별시 강남구 테헤란로 123',
  phone: '02-1234-5678',
  email: 'help@unicornpro.example',
  businessNumber: '123-45-67890',
  businessNumberDigits: '1234567890',
  mailOrderNumber: '제2026-서울강남-01234호',
  hostingProvider: '예시 클라우드 주식회사',
};

afterEach(cleanup);

describe('the footer', () => {
  it('shows every detail the Korean display rules ask for and links the FTC page of the registration number', async () => {
    renderInLang(<Footer company={company} />, 'ko');
    const block = await screen.findByRole('region', { name: koShell.footer.label });
    for (const value of [
      company.name,
      company.representative,
      company.address,
      company.phone,
      company.email,
      company.businessNumber,
      company.mailOrderNumber,
      company.hostingProvider,
    ]) {
      expect(within(block).getByText(value)).toBeTruthy();
    }
    const check = within(block).getByRole('link', { name: new RegExp(koShell.footer.company.businessInfoLink) });
    expect(check.getAttribute('href')).toBe('https://www.ftc.go.kr/bizCommPop.do?wrkr_no=1234567890');
    expect(screen.queryByRole('link', { name: koShell.footer.links.tokushoho })).toBeNull();
  });

  it('links the 特定商取引法に基づく表記 page in Japanese', async () => {
    renderInLang(<Footer company={company} />, 'ja');
    const link = await screen.findByRole('link', { name: jaShell.footer.links.tokushoho });
    expect(link.getAttribute('href')).toBe('/ja/legal/tokushoho');
  });

  it('builds the FTC address from the digits alone, and none without a number', () => {
    expect(fairTradeBusinessPage('123-45-67890')).toBe('https://www.ftc.go.kr/bizCommPop.do?wrkr_no=1234567890');
    expect(fairTradeBusinessPage('')).toBeUndefined();
  });
});
