import type { Catalogue } from './ko';

export const ja: Catalogue = {
  meta: {
    brand: 'ユニコーン',
    title: 'ユニコーン - 韓国No.1の広告ブロックアプリ',
    description:
      '韓国No.1の広告ブロックアプリ、ユニコーン。Android、iOS、Mac、Windowsで広告のない快適なウェブをお楽しみください。',
    pageTitle: '{page} | ユニコーン',
  },
  common: {
    loadingPage: 'ページを読み込んでいます..',
    opensInNewWindow: '(新しいウィンドウで開きます)',
    newTag: 'New',
    comingSoon: 'このページは準備中です。',
  },
  header: {
    skipToContent: '本文へスキップ',
    homeLabel: 'ユニコーン ホーム',
    mainNavigation: 'メインメニュー',
    purchase: '購入する',
    helpCenter: 'ヘルプセンター',
    reportBug: 'バグ報告',
    myAccount: 'マイアカウント',
    openMenu: 'メニューを開く',
    closeMenu: 'メニューを閉じる',
    closeOverlay: '開いているメニューを閉じる',
  },
  footer: {
    label: 'サイト情報',
    linksLabel: 'クイックリンク',
    company: {
      name: 'ユニコーン株式会社',
      addressLabel: '所在地',
      address: '追ってお知らせします',
      representativeLabel: '代表者',
      representative: '追ってお知らせします',
      businessNumberLabel: '事業者登録番号',
      businessNumber: '追ってお知らせします',
      salesNumberLabel: '通信販売業申告番号',
      salesNumber: '追ってお知らせします',
      copyright: '© Unicorn. All rights reserved.',
    },
    links: {
      licensePurchase: 'ライセンス購入',
      customerSupport: 'カスタマーサポート',
      helpCenter: 'ヘルプセンター',
      purchaseRefund: '購入・返金のご案内',
      community: 'コミュニティ',
      privacyPolicy: 'プライバシーポリシー',
      terms: '利用規約',
      releaseNotes: 'リリースノート',
      reportAds: '広告・誤ブロックの報告',
    },
  },
  home: {
    heading: '韓国No.1の広告ブロックアプリ',
    lead: 'ユニコーンで広告のない快適なウェブを。Android、iOS、Mac、Windowsに対応しています。',
    cta: 'ライセンスを購入',
    guarantee: '30日間返金保証',
    featuresHeading: 'ユニコーンでできること',
    features: {
      speed: '広告をブロックしてページをすばやく表示します。',
      privacy: 'トラッキングスクリプトを止めてプライバシーを守ります。',
      korea: '韓国のサイトに合わせたフィルターでしっかりブロックします。',
    },
    platformsHeading: '対応プラットフォーム',
    platforms: {
      android: 'Android',
      ios: 'iOS',
      mac: 'Mac',
      windows: 'Windows',
    },
  },
  purchase: {
    heading: '購入',
  },
  login: {
    heading: 'ログイン',
  },
  license: {
    heading: 'ライセンス管理',
  },
  terms: {
    privacyHeading: 'プライバシーポリシー',
    termsHeading: '利用規約',
  },
  releaseNotes: {
    heading: 'リリースノート',
  },
  report: {
    heading: '広告・誤ブロックの報告',
  },
  notFound: {
    heading: 'ページが見つかりません',
    body: 'アドレスが正しいかご確認ください。',
    goHome: 'ホームへ',
  },
  errors: {
    generic: 'サーバー応答エラーです。管理者にお問い合わせください。',
  },
};
