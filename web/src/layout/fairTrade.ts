/**
 * The Korean Fair Trade Commission's page of a business (사업자정보확인), which Korea's E-Commerce Act has an online
 * store link from its first screen, looked up by the business registration number's ten digits.
 */
export function fairTradeBusinessPage(businessNumberDigits: string): string | undefined {
  const digits = businessNumberDigits.replace(/\D/g, '');
  return digits ? `https://www.ftc.go.kr/bizCommPop.do?wrkr_no=${digits}` : undefined;
}
