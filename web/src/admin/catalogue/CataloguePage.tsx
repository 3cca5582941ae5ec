/**
 * The catalogue in the back office (docs/catalogue.md): every version with its effective time, who made it and why,
 * and a new version edited from the latest one (prices per country, base discounts, names) scheduled with a reason.
 * The rules (what may change, when it applies to subscribers) are the server's; this page only sends the edit.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { useT } from '../i18n';
import { useCatalogueT } from './i18n';

type CatalogueOut = components['schemas']['CatalogueOut'];
type VersionOut = components['schemas']['CatalogueVersionOut'];

type Price = { countryCode: string; currency: string; price: number };
type Localization = { langCode: string; name: string; description: string };
type Licence = Record<string, unknown> & {
  id: number;
  baseDiscount: string;
  prices: Price[];
  localizations: Localization[];
};

const KST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** An ISO instant as the `datetime-local` value of the same moment in +09:00. */
function toKstInput(iso: string): string {
  return new Date(new Date(iso).getTime() + KST_OFFSET_MS).toISOString().slice(0, 16);
}

/** A `datetime-local` value read as +09:00. */
function fromKstInput(value: string): string {
  return `${value}:00+09:00`;
}

function copyOf(licences: VersionOut['licences']): Licence[] {
  return structuredClone(licences) as Licence[];
}

/** The back office's navigation link to this page (shown to members who may change prices). */
export function CatalogueNavLink() {
  const c = useCatalogueT();
  return <Link href="/catalogue">{c('catalogue')}</Link>;
}

export function CataloguePage() {
  const t = useT();
  const c = useCatalogueT();
  const client = useQueryClient();
  const catalogue = useQuery({ queryKey: ['catalogue'], queryFn: () => staffCall<CatalogueOut>('GET', '/catalogue') });
  const latest = catalogue.data?.versions[0];
  const [draft, setDraft] = useState<Licence[]>([]);
  const [effectiveAt, setEffectiveAt] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (latest && catalogue.data) {
      setDraft(copyOf(latest.licences));
      setEffectiveAt(toKstInput(new Date(new Date(catalogue.data.now).getTime() + 60 * 60 * 1000).toISOString()));
    }
  }, [latest, catalogue.data]);
  const schedule = useMutation({
    mutationFn: () =>
      staffCall<VersionOut>('POST', '/catalogue/versions', { licences: draft, effectiveAt: fromKstInput(effectiveAt), reason }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['catalogue'] }),
  });
  const change = (index: number, update: (licence: Licence) => Licence) =>
    setDraft(draft.map((licence, at) => (at === index ? update(structuredClone(licence)) : licence)));
  if (!catalogue.data) return catalogue.error ? <p role="alert">{`${t('failed')}: ${String(catalogue.error)}`}</p> : null;
  return (
    <section>
      <h1>{c('catalogue')}</h1>
      <h2>{c('versions')}</h2>
      <table aria-label={c('versions')}>
        <thead>
          <tr>
            <th>{c('version')}</th>
            <th>{c('effectiveAt')}</th>
            <th>{c('recordedAt')}</th>
            <th>{c('reason')}</th>
          </tr>
        </thead>
        <tbody>
          {catalogue.data.versions.map((version) => (
            <tr key={version.version}>
              <td>
                {version.version}
                {version.version === catalogue.data.inForce ? ` (${c('inForce')})` : ''}
              </td>
              <td>{toKstInput(version.effectiveAt).replace('T', ' ')}</td>
              <td>{toKstInput(version.recordedAt).replace('T', ' ')}</td>
              <td>{version.actorId ? version.reason : c('shipped')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        aria-label={c('newVersion')}
        onSubmit={(event) => {
          event.preventDefault();
          schedule.mutate();
        }}
      >
        <h2>{c('newVersion')}</h2>
        <p>{c('newVersionHint')}</p>
        <table aria-label={c('newVersion')}>
          <thead>
            <tr>
              <th>{c('licence')}</th>
              <th>{c('baseDiscount')}</th>
              <th>{c('price')}</th>
              <th>{c('names')}</th>
            </tr>
          </thead>
          <tbody>
            {draft.map((licence, index) => (
              <tr key={licence.id}>
                <td>{licence.id}</td>
                <td>
                  <input
                    aria-label={`${c('baseDiscount')} ${licence.id}`}
                    value={licence.baseDiscount}
                    size={5}
                    onChange={(event) => change(index, (edited) => ({ ...edited, baseDiscount: event.target.value }))}
                  />
                </td>
                <td>
                  {licence.prices.map((price, at) => (
                    <label key={price.countryCode}>
                      {`${price.countryCode} ${price.currency}`}{' '}
                      <input
                        aria-label={`${c('price')} ${licence.id} ${price.countryCode}`}
                        inputMode="numeric"
                        size={7}
                        value={String(price.price)}
                        onChange={(event) =>
                          change(index, (edited) => {
                            edited.prices[at] = { ...price, price: Number(event.target.value) };
                            return edited;
                          })
                        }
                      />{' '}
                    </label>
                  ))}
                </td>
                <td>
                  {licence.localizations.map((item, at) => (
                    <label key={item.langCode}>
                      {item.langCode}{' '}
                      <input
                        aria-label={`${c('names')} ${licence.id} ${item.langCode}`}
                        size={32}
                        value={item.name}
                        onChange={(event) =>
                          change(index, (edited) => {
                            edited.localizations[at] = { ...item, name: event.target.value };
                            return edited;
                          })
                        }
                      />{' '}
                    </label>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <label>
          {c('effectiveAt')}{' '}
          <input type="datetime-local" value={effectiveAt} onChange={(event) => setEffectiveAt(event.target.value)} />
        </label>{' '}
        <label>
          {c('reason')} <input required value={reason} onChange={(event) => setReason(event.target.value)} size={40} />
        </label>{' '}
        <button type="submit" disabled={!reason.trim() || schedule.isPending}>
          {c('schedule')}
        </button>
        {!reason.trim() ? <p>{c('needsReason')}</p> : null}
        {schedule.data ? <p role="status">{`${c('scheduled')}: ${schedule.data.version}`}</p> : null}
        {schedule.error ? <p role="alert">{`${t('failed')}: ${schedule.error.message}`}</p> : null}
      </form>
    </section>
  );
}
