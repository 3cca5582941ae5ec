/**
 * Korean catalogue: the reference for the catalogue's shape.
 * en.ts and ja.ts are typed against it, and a unit test checks that all three hold the same keys.
 */
export const ko = {
  meta: {
    brand: '유니콘',
    title: '유니콘 - 대한민국 1등 광고 차단 앱',
    description:
      '대한민국 1등 광고 차단 앱 유니콘. 안드로이드, iOS, Mac, Windows에서 광고 없이 빠르고 쾌적하게 웹을 이용하세요.',
    pageTitle: '{page} | 유니콘',
  },
  common: {
    loadingPage: '페이지를 불러오는 중입니다..',
    opensInNewWindow: '(새 창에서 열림)',
    newTag: 'New',
    comingSoon: '준비 중인 페이지입니다.',
  },
  header: {
    skipToContent: '본문 바로가기',
    homeLabel: '유니콘 홈',
    mainNavigation: '주 메뉴',
    purchase: '구매하기',
    helpCenter: '고객센터',
    reportBug: '버그 신고',
    myAccount: '내 계정',
    openMenu: '메뉴 열기',
    closeMenu: '메뉴 닫기',
    closeOverlay: '열린 메뉴 닫기',
  },
  footer: {
    label: '사이트 정보',
    linksLabel: '바로가기',
    company: {
      // Placeholder values until the legal company details are supplied.
      name: '유니콘 주식회사',
      addressLabel: '주소',
      address: '추후 안내',
      representativeLabel: '대표',
      representative: '추후 안내',
      businessNumberLabel: '사업자등록번호',
      businessNumber: '추후 안내',
      salesNumberLabel: '통신판매업 신고번호',
      salesNumber: '추후 안내',
      copyright: '© 유니콘. All rights reserved.',
    },
    links: {
      licensePurchase: '라이선스 구매',
      customerSupport: '고객 지원',
      helpCenter: '도움말 센터',
      purchaseRefund: '구매 및 환불 안내',
      community: '커뮤니티',
      privacyPolicy: '개인정보처리방침',
      terms: '이용약관',
      releaseNotes: '릴리스 노트',
      reportAds: '광고 및 오차단 신고',
    },
  },
  home: {
    heading: '대한민국 1등 광고 차단 앱',
    lead: '유니콘으로 광고 없이 빠르고 쾌적하게 웹을 이용하세요. 안드로이드, iOS, Mac, Windows를 지원합니다.',
    cta: '라이선스 구매하기',
    guarantee: '30일 환불 보장',
    featuresHeading: '유니콘이 하는 일',
    features: {
      speed: '광고를 차단해 페이지가 더 빨리 열립니다.',
      privacy: '추적 스크립트를 막아 개인정보를 지킵니다.',
      korea: '국내 사이트에 맞춘 필터로 꼼꼼하게 차단합니다.',
    },
    platformsHeading: '지원 플랫폼',
    platforms: {
      android: 'Android',
      ios: 'iOS',
      mac: 'Mac',
      windows: 'Windows',
    },
  },
  purchase: {
    heading: '구매하기',
  },
  login: {
    heading: '로그인',
  },
  license: {
    heading: '라이선스 관리',
  },
  terms: {
    privacyHeading: '개인정보처리방침',
    termsHeading: '이용약관',
  },
  releaseNotes: {
    heading: '릴리스 노트',
  },
  report: {
    heading: '광고 및 오차단 신고',
  },
  notFound: {
    heading: '페이지를 찾을 수 없습니다',
    body: '주소가 바르게 입력되었는지 확인해 주세요.',
    goHome: '홈으로 가기',
  },
  errors: {
    generic: '서버 응답 오류입니다. 관리자에게 문의해 주세요.',
  },
};

/** Shape every catalogue must have: the Korean one with its leaves widened to string. */
export type Catalogue = typeof ko;
