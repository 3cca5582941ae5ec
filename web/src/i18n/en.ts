import type { Catalogue } from './ko';

export const en: Catalogue = {
  meta: {
    brand: 'Unicorn',
    title: "Unicorn - Korea's No.1 ad-blocking app",
    description:
      "Unicorn, Korea's No.1 ad-blocking app. Enjoy a faster, cleaner web without ads on Android, iOS, Mac and Windows.",
    pageTitle: '{page} | Unicorn',
  },
  common: {
    loadingPage: 'Loading the page..',
    opensInNewWindow: '(opens in a new window)',
    newTag: 'New',
    comingSoon: 'This page is coming soon.',
  },
  header: {
    skipToContent: 'Skip to content',
    homeLabel: 'Unicorn home',
    mainNavigation: 'Main menu',
    purchase: 'Purchase',
    helpCenter: 'Help Center',
    reportBug: 'Report Bug',
    myAccount: 'My Account',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    closeOverlay: 'Close the open menu',
  },
  footer: {
    label: 'Site information',
    linksLabel: 'Quick links',
    company: {
      name: 'Unicorn Co., Ltd.',
      addressLabel: 'Address',
      address: 'To be announced',
      representativeLabel: 'CEO',
      representative: 'To be announced',
      businessNumberLabel: 'Business registration number',
      businessNumber: 'To be announced',
      salesNumberLabel: 'Mail-order sales registration number',
      salesNumber: 'To be announced',
      copyright: '© Unicorn. All rights reserved.',
    },
    links: {
      licensePurchase: 'Buy a license',
      customerSupport: 'Customer support',
      helpCenter: 'Help center',
      purchaseRefund: 'Purchase and refund information',
      community: 'Community',
      privacyPolicy: 'Privacy policy',
      terms: 'Terms of use',
      releaseNotes: 'Release notes',
      reportAds: 'Report ads and misblocking',
    },
  },
  home: {
    heading: "Korea's No.1 ad-blocking app",
    lead: 'Browse faster and cleaner without ads with Unicorn. Available for Android, iOS, Mac and Windows.',
    cta: 'Buy a license',
    guarantee: '30-day money-back guarantee',
    featuresHeading: 'What Unicorn does',
    features: {
      speed: 'Pages open faster because ads are blocked.',
      privacy: 'Tracking scripts are stopped to protect your privacy.',
      korea: 'Filters tuned for Korean websites block thoroughly.',
    },
    platformsHeading: 'Available on',
    platforms: {
      android: 'Android',
      ios: 'iOS',
      mac: 'Mac',
      windows: 'Windows',
    },
  },
  purchase: {
    heading: 'Purchase',
  },
  login: {
    heading: 'Log in',
  },
  license: {
    heading: 'License management',
  },
  terms: {
    privacyHeading: 'Privacy policy',
    termsHeading: 'Terms of use',
  },
  releaseNotes: {
    heading: 'Release notes',
  },
  report: {
    heading: 'Report ads and misblocking',
  },
  notFound: {
    heading: 'Page not found',
    body: 'Please check that the address is correct.',
    goHome: 'Go to home',
  },
  errors: {
    generic: 'Server response error. Please contact the administrator.',
  },
};
