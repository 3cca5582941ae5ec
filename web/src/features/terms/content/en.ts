import type { PolicyTexts } from './types';

export const en: PolicyTexts = {
  lifetime: {
    updated: '2026-11-01',
    intro:
      'This policy sets out the terms of the lifetime licences sold by Unicorn Inc. ("we"). By buying a licence you agree to it.',
    sections: [
      {
        id: 'scope',
        heading: '1. Scope',
        paragraphs: [
          'This policy applies to lifetime licences bought on the Unicorn website. Purchases made in an app store (App Store, Google Play and others) are also subject to that store’s terms.',
        ],
      },
      {
        id: 'licence',
        heading: '2. What a lifetime licence is',
        paragraphs: [
          'A lifetime licence is paid once and lets you use the product you bought for as long as we offer it, with no further charge. It never renews and is never billed again.',
          'The licence covers the product you bought (for example Unicorn Pro for Windows) and its number of devices.',
        ],
      },
      {
        id: 'devices',
        heading: '3. Devices',
        paragraphs: ['Each licence allows a set maximum number of devices.'],
        items: [
          'You can rename or remove devices on the licence management page.',
          'A removed device frees its place for another device.',
          'If you need more devices you can upgrade; the remaining value of your licence is deducted from the upgrade price.',
        ],
      },
      {
        id: 'updates',
        heading: '4. Updates and support',
        paragraphs: [
          'A lifetime licence includes feature improvements, filter updates and security updates for its product. Questions are answered through the Help Center.',
        ],
      },
      {
        id: 'refunds',
        heading: '5. Refunds',
        paragraphs: [
          'Within 30 days of purchase you get a full refund for any reason (30-day money-back guarantee). After 30 days, licences are not refunded except where the law requires it.',
          'Once a refund is made, the licence and all of its devices are deactivated.',
        ],
      },
      {
        id: 'restrictions',
        heading: '6. Restrictions',
        paragraphs: ['The following are not allowed and may lead to the licence being suspended:'],
        items: [
          'selling, transferring or publicly sharing a licence key;',
          'working around the device limit;',
          'modifying or reverse-engineering the software.',
        ],
      },
      {
        id: 'end-of-service',
        heading: '7. End of a product',
        paragraphs: [
          'If we stop offering a product we will announce it on the website and by email at least 30 days in advance. Installed apps may keep working with their last version, but filters will no longer be updated.',
        ],
      },
      {
        id: 'contact',
        heading: '8. Contact',
        paragraphs: ['Please send questions about this policy to the Help Center.'],
      },
    ],
  },
  subscription: {
    updated: '2026-11-01',
    intro:
      'This policy explains how Unicorn subscription licences (monthly and annual) are billed, renewed, cancelled and refunded.',
    sections: [
      {
        id: 'plans',
        heading: '1. Subscription periods',
        paragraphs: ['A subscription starts on the day of payment and runs for:'],
        items: ['monthly: 30 days;', 'annual: one year (365 days).'],
      },
      {
        id: 'renewal',
        heading: '2. Auto-renewal',
        paragraphs: [
          'At the end of each period (the next payment date) the subscription renews for the same period and is charged to your registered payment method. The renewal price is shown on the licence management page.',
        ],
      },
      {
        id: 'cancel',
        heading: '3. Cancelling auto-renewal',
        paragraphs: [
          'You can cancel auto-renewal at any time on the licence management page. You keep every feature until the next payment date, the end of the period already paid, and you are not charged again.',
        ],
      },
      {
        id: 'resume',
        heading: '4. Resuming and subscribing again',
        paragraphs: [
          'A cancelled subscription can be resumed before its next payment date. After it has ended you can subscribe again with a previously registered payment method or a new card.',
        ],
      },
      {
        id: 'payment-method',
        heading: '5. Payment methods and failed payments',
        paragraphs: [
          'You can change the payment method on the licence management page. If a renewal payment fails we let you know by email; if it cannot be completed the subscription may end.',
        ],
      },
      {
        id: 'price',
        heading: '6. Price changes',
        paragraphs: [
          'If the price of a subscription changes we tell you by email at least 30 days before your next renewal. If you do not accept the new price you can cancel auto-renewal before it applies.',
        ],
      },
      {
        id: 'refunds',
        heading: '7. Refunds',
        paragraphs: [
          'Within 30 days of the first payment you get a full refund (30-day money-back guarantee). Refunds of renewal payments are handled as consumer protection law provides; please ask the Help Center.',
        ],
      },
      {
        id: 'upgrade',
        heading: '8. Upgrades',
        paragraphs: [
          'You can upgrade a subscription to a longer period or more devices. The remaining value of your current licence is deducted from the upgrade price.',
        ],
      },
      {
        id: 'contact',
        heading: '9. Contact',
        paragraphs: ['Please send questions about subscriptions to the Help Center.'],
      },
    ],
  },
  privacy: {
    updated: '2026-11-01',
    intro:
      'Unicorn Inc. ("we") takes the protection of your personal information seriously and complies with the Korean Personal Information Protection Act and related laws. This policy explains what we collect, why, and how we protect it.',
    sections: [
      {
        id: 'collected',
        heading: '1. Information we collect',
        paragraphs: ['We collect only what we need to provide the service.'],
        items: [
          'Sign-up: email, password (stored encrypted), name or nickname, preferred language, marketing consent.',
          'Purchases: order history, type of payment method, payment approval details (we never store full card numbers).',
          'Licences: names and identifiers of registered devices.',
          'Reports and enquiries: the email, page address, description, images, app and device details you send.',
        ],
      },
      {
        id: 'purposes',
        heading: '2. Why we use it',
        paragraphs: [],
        items: [
          'to identify members, sign them in and manage accounts;',
          'to issue licences, process payments and refunds, and manage devices;',
          'to handle ad and misblock reports and improve our filters;',
          'to answer enquiries and send important notices;',
          'to send offers and events, only with your consent.',
        ],
      },
      {
        id: 'retention',
        heading: '3. How long we keep it',
        paragraphs: [
          'We delete personal information without delay when you delete your account, except for the following records, which the law requires us to keep:',
        ],
        items: [
          'records of contracts and cancellations: 5 years (E-Commerce Act);',
          'records of payments and supply of goods: 5 years (E-Commerce Act);',
          'records of consumer complaints and disputes: 3 years (E-Commerce Act);',
          'website visit logs: 3 months (Protection of Communications Secrets Act).',
        ],
      },
      {
        id: 'third-parties',
        heading: '4. Service providers',
        paragraphs: [
          'To run the service we entrust payment processors and easy-pay providers, an email delivery service and our help-desk tool with the information they need. We do not give your information to anyone else without your consent unless the law requires it.',
        ],
      },
      {
        id: 'cookies',
        heading: '5. Cookies',
        paragraphs: ['We use cookies for the following; you can refuse cookies in your browser settings.'],
        items: [
          'remembering your language (langCode);',
          'keeping you signed in;',
          'not showing a closed notice or banner again for one day.',
        ],
      },
      {
        id: 'rights',
        heading: '6. Your rights',
        paragraphs: [
          'You can view and correct your information at any time, delete your account or withdraw marketing consent in the account settings. Send any other request to the Help Center and we will handle it without delay.',
        ],
      },
      {
        id: 'security',
        heading: '7. Security',
        paragraphs: [
          'Passwords are stored in a form that cannot be decrypted, all traffic is encrypted, and access to personal information is limited to the staff who need it.',
        ],
      },
      {
        id: 'officer',
        heading: '8. Privacy officer',
        paragraphs: [
          'Questions, complaints and requests for redress about personal information can be sent to our privacy officer through the Help Center.',
        ],
      },
      {
        id: 'changes',
        heading: '9. Changes to this policy',
        paragraphs: [
          'We announce changes on the website 7 days before they take effect (30 days for significant changes).',
        ],
      },
    ],
  },
  terms: {
    updated: '2026-11-26',
    intro:
      'These terms set out how you may use the Unicorn website and the Unicorn apps (the "service") run by Unicorn Co., Ltd. (the "company"), and the rights and duties of the company and its users. They apply once you agree to them when you create an account or buy a licence.',
    sections: [
      {
        id: 'definitions',
        heading: '1. Definitions',
        paragraphs: ['In these terms:'],
        items: [
          'User: anyone who uses the service under these terms, with or without an account',
          'Member: a user who created an account with an email address and confirmed it',
          'Licence: the right to use a Unicorn app for a given product, period and number of devices (monthly subscription, annual subscription or lifetime)',
          'Licence key: the unique code you enter in an app to register a licence',
        ],
      },
      {
        id: 'effect',
        heading: '2. These terms and changes to them',
        paragraphs: [
          'The company publishes these terms on the website. Before changing them it announces the change and the date it takes effect on the website 7 days in advance (30 days for a change to your disadvantage), and tells members by email as well.',
          'If you do not agree to a change, you may stop using the service and delete your account before it takes effect. Using the service after that date means you agree to the new terms.',
        ],
      },
      {
        id: 'account',
        heading: '3. Accounts',
        paragraphs: [
          'You create an account by entering an email address and a password, agreeing to these terms and opening the link in the confirmation mail. A guest purchase creates an account for the email address used; setting a password from the link in the mail makes it a member account.',
          'Keep your account details accurate and your password to yourself. You may delete your account at any time in the account settings.',
        ],
      },
      {
        id: 'purchase',
        heading: '4. Buying a licence and paying',
        paragraphs: ['Prices, periods, numbers of devices and discounts are as shown on the purchase page. You may pay by:'],
        items: [
          'Credit or debit card, or an easy-payment service (Naver Pay, Kakao Pay)',
          'Real-time bank transfer',
          'Virtual account (an order not paid by its deadline is cancelled automatically)',
        ],
      },
      {
        id: 'subscription',
        heading: '5. Subscriptions and automatic renewal',
        paragraphs: [
          'Monthly and annual subscriptions renew automatically on the next payment date, charged to the payment method on file, until you cancel. You may cancel automatic renewal at any time under licence management and keep using the licence until the paid period ends. The subscription licence policy gives the details.',
        ],
      },
      {
        id: 'withdrawal',
        heading: '6. Withdrawal and refunds',
        paragraphs: [
          'You may withdraw from a purchase within 7 days of payment; beyond that, the company refunds in full, without asking why, any request made within 30 days of payment (30-day money-back guarantee). A refunded licence and its registered devices are released.',
          'Refunds go back to the payment method used and may take a few days depending on your card company or bank. Send refund requests to customer support.',
        ],
      },
      {
        id: 'devices',
        heading: '7. Licences and devices',
        paragraphs: [
          'Each licence allows a set number of devices. Under licence management you can rename a device or remove it, and register another device in its place.',
        ],
      },
      {
        id: 'obligations',
        heading: '8. What users must not do',
        paragraphs: ['The company may restrict a licence or an account used for any of the following:'],
        items: [
          "Using someone else's email address or payment details",
          'Selling a licence key or sharing it with the public',
          'Modifying or reverse-engineering an app, or getting around the device limit',
          'Disrupting the operation of the service',
        ],
      },
      {
        id: 'service',
        heading: '9. Providing and changing the service',
        paragraphs: [
          'The company aims to run the service around the clock, every day. Maintenance or faults may interrupt it; planned maintenance is announced on the website. The company announces the end of a product 30 days in advance.',
        ],
      },
      {
        id: 'liability',
        heading: '10. Limitation of liability',
        paragraphs: [
          "The company is not liable for losses from causes it cannot prevent, such as natural disasters, a user's own fault or changes to third-party websites, except for losses caused by its intent or gross negligence.",
        ],
      },
      {
        id: 'disputes',
        heading: '11. Complaints, disputes and jurisdiction',
        paragraphs: [
          'Please tell customer support first about any complaint or dispute. Disputes between the company and a user are governed by the laws of the Republic of Korea and brought before the court with jurisdiction under the Civil Procedure Act.',
        ],
      },
    ],
  },
};
