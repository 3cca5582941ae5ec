/** The two words of marketing's nav links, apart from its dictionary so that the back office's first load carries
 * only these (the pages and their dictionary are lazy chunks). */
export const NAV_WORDS = {
  en: { couponGroups: 'Coupon groups', banners: 'Banners and notices' },
  ko: { couponGroups: '쿠폰 그룹', banners: '배너와 공지' },
  ja: { couponGroups: 'クーポングループ', banners: 'バナーとお知らせ' },
} as const;
