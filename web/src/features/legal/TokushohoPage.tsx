/**
 * /ja/legal/tokushoho: 特定商取引法に基づく表記, what Japan's Act on Specified Commercial Transactions (Article 11) has a
 * seller of online subscriptions state (docs/legal.md). In Japanese whatever the address's language; the seller from
 * the deployment's settings (production refuses to start without them), the prices from the catalogue.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { JapanSeller } from '../../config/integrations';
import { bindPaths } from '../../routing/paths';
import { PageMeta } from '../../ui/PageMeta';
import { getJapanSeller, getLicencesOnSale } from './api';
import { japanesePrices, type JapanesePrice } from './prices';
import '../../ui/kit.css';
import './legal.css';

const HEADING = '特定商取引法に基づく表記';

function Row({ label, children, item }: { label: string; children: ReactNode; item: string }) {
  return (
    <div data-item={item}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default function TokushohoPage() {
  const paths = bindPaths({ lang: 'ja' });
  const [seller, setSeller] = useState<JapanSeller | undefined>(undefined);
  const [prices, setPrices] = useState<JapanesePrice[] | null | 'failed'>(null);

  useEffect(() => {
    let live = true;
    void getJapanSeller().then((found) => live && setSeller(found));
    getLicencesOnSale()
      .then((licences) => live && setPrices(japanesePrices(licences)))
      .catch(() => live && setPrices('failed'));
    return () => {
      live = false;
    };
  }, []);

  const listed = Array.isArray(prices) ? prices : [];
  const subscriptions = listed.filter((price) => price.renewal);
  return (
    <article className="page tokushoho" lang="ja">
      <PageMeta title={HEADING} />
      <h1 className="page__heading">{HEADING}</h1>
      <dl className="tokushoho__table">
        <Row item="seller" label="販売業者">{seller?.name}</Row>
        <Row item="responsible" label="運営統括責任者">{seller?.responsible}</Row>
        <Row item="address" label="所在地">{seller?.address}</Row>
        <Row item="phone" label="電話番号">
          {seller?.phone}
          <br />
          お問い合わせはメールでも承ります。
        </Row>
        <Row item="email" label="メールアドレス">
          {seller?.email && <a href={`mailto:${seller.email}`}>{seller.email}</a>}
        </Row>
        <Row item="prices" label="販売価格">
          {prices === 'failed' ? (
            <>
              各プランの価格は<Link to={paths.purchase()}>購入ページ</Link>に表示しています。
            </>
          ) : (
            <ul className="tokushoho__prices">
              {listed.map((price) => (
                <li key={price.id}>
                  {price.name}: {price.price}
                </li>
              ))}
            </ul>
          )}
          表示価格はすべて消費税を含む総額です。
        </Row>
        <Row item="fees" label="商品代金以外の必要料金">
          インターネット接続料金・通信料金はお客様のご負担となります。そのほかの手数料はいただきません。
        </Row>
        <Row item="methods" label="支払方法">
          クレジットカード
        </Row>
        <Row item="timing" label="支払時期">
          買い切りプランはご注文時にお支払いいただきます。月額・年額プラン(定期購入)は、初回はお申し込み時に、以後は各更新日に自動でお支払いいただきます。
        </Row>
        <Row item="starts" label="役務の提供時期">
          決済完了後ただちにライセンスキーを発行し、すぐにご利用いただけます。
        </Row>
        <Row item="subscription" label="定期購入(自動更新)について">
          <ul className="tokushoho__prices">
            {subscriptions.map((price) => (
              <li key={price.id}>
                {price.name}: {price.renewal}
              </li>
            ))}
          </ul>
          解除のお申し出があるまで、同じ周期と金額で自動更新されます。自動更新はライセンスページの「自動更新を解除」から、いつでも2回のクリックで停止できます(解約理由のご回答は任意です)。停止後もお支払い済みの期間の終わりまでご利用いただけ、以後の請求は発生しません。料金を改定する場合は、事前にメールとライセンスページでお知らせします。
        </Row>
        <Row item="refunds" label="申込みの撤回・返品・返金">
          デジタルコンテンツの性質上、ご購入後の返品はお受けしておりませんが、30日間返金保証により、初回のご購入から30日以内であればライセンスページから全額の返金をご請求いただけます(同じ製品につきお一人様1回)。詳しくは
          <Link to={paths.subscriptionPolicy()}>サブスクリプションライセンスポリシー</Link>と<Link to={paths.lifetimePolicy()}>買い切りライセンスポリシー</Link>
          をご覧ください。
        </Row>
        <Row item="environment" label="動作環境">
          Android、iOS、Mac、Windowsの各アプリの対応環境は、各ストアのページをご確認ください。
        </Row>
      </dl>
    </article>
  );
}
