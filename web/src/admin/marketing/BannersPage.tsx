/**
 * Banners and notices: the board (every banner, shown or not), and a form to post or change one with its ko/en/ja
 * texts, colours, images and link, its window (+09:00), its countries and the coupon group it advertises, beside a
 * live preview drawn by the store's own component. Images are checked by the server as report images are.
 */
import { useQuery } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { DataTable } from '../DataTable';
import {
  type Banner,
  type BannerImages,
  type BannerLocalization,
  countryList,
  endBanner,
  fromKstInput,
  listBanners,
  listGroups,
  sendBanner,
  toKstInput,
} from './api';
import { BannerPreview, PREVIEW_LANGUAGES, type PreviewLanguage } from './BannerPreview';
import { Outcome, useChange } from './CouponPages';
import { type MarketingKey, useMarketingT } from './i18n';

const TEXT_FIELDS = [
  ['text', 'text'],
  ['subText', 'subText'],
  ['textColor', 'textColor'],
  ['subTextColor', 'subTextColor'],
  ['backgroundColor', 'backgroundColor'],
  ['closeButtonColor', 'closeButtonColor'],
  ['url', 'link'],
] as const satisfies readonly (readonly [keyof BannerLocalization, MarketingKey])[];
const IMAGE_SLOTS = [
  ['backgroundImage', 'backgroundImageUrl'],
  ['pcImage', 'pcImageUrl'],
  ['mobileImage', 'mobileImageUrl'],
] as const;

type Texts = Record<PreviewLanguage, BannerLocalization>;

interface BannerFields {
  type: 'event' | 'notice';
  active: boolean;
  startAt: string;
  endAt: string;
  applyCountry: string;
  couponGroupId: string;
}

function emptyTexts(): Texts {
  return { ko: { langCode: 'ko' }, en: { langCode: 'en' }, ja: { langCode: 'ja' } };
}

function textsOf(banner: Banner): Texts {
  const texts = emptyTexts();
  for (const item of banner.localizations) {
    if ((PREVIEW_LANGUAGES as readonly string[]).includes(item.langCode)) texts[item.langCode as PreviewLanguage] = { ...item };
  }
  return texts;
}

function fieldsOf(banner: Banner | null): BannerFields {
  if (!banner) return { type: 'event', active: true, startAt: '', endAt: '', applyCountry: '', couponGroupId: '' };
  return {
    type: banner.type === 'notice' ? 'notice' : 'event',
    active: banner.active,
    startAt: toKstInput(banner.startAt),
    endAt: toKstInput(banner.endAt),
    applyCountry: banner.applyCountry.join(', '),
    couponGroupId: banner.couponGroupId ?? '',
  };
}

/** Object URLs of the chosen files, so the preview shows an image before it is uploaded. */
function useLocalUrls(images: BannerImages): Record<string, string> {
  const urls = useMemo(() => Object.fromEntries(Object.entries(images).map(([name, file]) => [name, URL.createObjectURL(file)])), [images]);
  useEffect(() => () => Object.values(urls).forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

function BannerForm({ editing, onDone }: { editing: Banner | null; onDone: () => void }) {
  const t = useMarketingT();
  const groups = useQuery({ queryKey: ['marketing', 'groups'], queryFn: listGroups });
  const [fields, setFields] = useState<BannerFields>(() => fieldsOf(editing));
  const [texts, setTexts] = useState<Texts>(() => (editing ? textsOf(editing) : emptyTexts()));
  const [images, setImages] = useState<BannerImages>({});
  const [reason, setReason] = useState('');
  const localUrls = useLocalUrls(images);
  const send = useChange(
    () => {
      const localizations = PREVIEW_LANGUAGES.map((lang) => texts[lang]).filter((item) =>
        Object.entries(item).some(([key, value]) => key !== 'langCode' && value),
      );
      const banner = {
        type: fields.type,
        active: fields.active,
        startAt: fromKstInput(fields.startAt),
        endAt: fromKstInput(fields.endAt),
        applyCountry: countryList(fields.applyCountry),
        couponGroupId: fields.couponGroupId || null,
        localizations: localizations.map((item) =>
          Object.fromEntries(Object.entries(item).map(([key, value]) => [key, value === '' ? null : value])),
        ),
      };
      return sendBanner(banner, images, reason, editing?.id);
    },
    () => onDone(),
  );
  const setText = (lang: PreviewLanguage, key: keyof BannerLocalization, value: string) =>
    setTexts({ ...texts, [lang]: { ...texts[lang], [key]: value } });
  const preview = {
    id: editing?.id ?? 0,
    type: fields.type,
    localizations: PREVIEW_LANGUAGES.map((lang) => {
      const item = { ...texts[lang] };
      for (const [slot, field] of IMAGE_SLOTS) {
        const local = localUrls[`${lang}.${slot}`];
        if (local) item[field] = local;
      }
      return item;
    }),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(undefined);
  };
  return (
    <div className="marketing-banner-editor">
      <form onSubmit={submit} aria-label={t(editing ? 'editBanner' : 'newBanner')}>
        <h2>{editing ? `${t('editBanner')} ${editing.id}` : t('newBanner')}</h2>
        <label>
          {t('bannerType')}{' '}
          <select value={fields.type} onChange={(event) => setFields({ ...fields, type: event.target.value as BannerFields['type'] })}>
            <option value="event">{t('event')}</option>
            <option value="notice">{t('notice')}</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={fields.active} onChange={(event) => setFields({ ...fields, active: event.target.checked })} />{' '}
          {t('active')}
        </label>
        <label>
          {t('startAt')}{' '}
          <input type="datetime-local" value={fields.startAt} onChange={(event) => setFields({ ...fields, startAt: event.target.value })} />
        </label>
        <label>
          {t('endAt')}{' '}
          <input type="datetime-local" value={fields.endAt} onChange={(event) => setFields({ ...fields, endAt: event.target.value })} />
        </label>
        <label>
          {t('applyCountry')}{' '}
          <input value={fields.applyCountry} onChange={(event) => setFields({ ...fields, applyCountry: event.target.value })} />
        </label>
        <label>
          {t('couponGroup')}{' '}
          <select value={fields.couponGroupId} onChange={(event) => setFields({ ...fields, couponGroupId: event.target.value })}>
            <option value="">{t('noGroup')}</option>
            {(groups.data ?? []).map((row) => (
              <option key={row.couponGroup.id} value={row.couponGroup.id}>
                {row.couponGroup.name}
              </option>
            ))}
          </select>
        </label>
        {PREVIEW_LANGUAGES.map((lang) => (
          <fieldset key={lang}>
            <legend>{lang}</legend>
            {TEXT_FIELDS.map(([key, label]) => (
              <label key={key}>
                {t(label)}{' '}
                <input value={texts[lang][key] ?? ''} onChange={(event) => setText(lang, key, event.target.value)} />
              </label>
            ))}
            {IMAGE_SLOTS.map(([slot]) => (
              <label key={slot}>
                {t(slot)}{' '}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/gif"
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    const next = { ...images };
                    if (file) next[`${lang}.${slot}`] = file;
                    else delete next[`${lang}.${slot}`];
                    setImages(next);
                  }}
                />
              </label>
            ))}
          </fieldset>
        ))}
        <label>
          {t('reason')} <input maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>{' '}
        <button type="submit">{t(editing ? 'save' : 'post')}</button>{' '}
        {editing ? (
          <button type="button" onClick={onDone}>
            {t('cancel')}
          </button>
        ) : null}
        <Outcome error={send.error} done={false} />
      </form>
      <BannerPreview banner={preview} />
    </div>
  );
}

export function BannersPage() {
  const t = useMarketingT();
  const banners = useQuery({ queryKey: ['marketing', 'banners'], queryFn: listBanners });
  const [editing, setEditing] = useState<Banner | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [reason, setReason] = useState('');
  const end = useChange((id: number) => endBanner(id, reason));
  const columns = useMemo<ColumnDef<Banner>[]>(
    () => [
      { accessorKey: 'id', header: t('id') },
      { id: 'type', header: t('bannerType'), accessorFn: (row) => t(row.type === 'notice' ? 'notice' : 'event') },
      { id: 'active', header: t('active'), accessorFn: (row) => (row.active ? '✓' : '—') },
      {
        id: 'window',
        header: t('window'),
        accessorFn: (row) => `${toKstInput(row.startAt).replace('T', ' ') || '—'} – ${toKstInput(row.endAt).replace('T', ' ') || '—'}`,
      },
      { id: 'countries', header: t('applyCountry'), accessorFn: (row) => row.applyCountry.join(', ') },
      { id: 'text', header: t('text'), accessorFn: (row) => row.localizations.map((item) => item.text ?? '').join(' / ') },
      {
        id: 'actions',
        header: '',
        cell: ({ row }) => (
          <>
            <button
              type="button"
              onClick={() => {
                setEditing(row.original);
                setFormKey((key) => key + 1);
              }}
            >
              {`${t('edit')} ${row.original.id}`}
            </button>{' '}
            {row.original.active ? (
              <button type="button" onClick={() => end.mutate(row.original.id)}>
                {`${t('end')} ${row.original.id}`}
              </button>
            ) : null}
          </>
        ),
      },
    ],
    [t, end],
  );
  return (
    <section>
      <h1>{t('banners')}</h1>
      <label>
        {t('reason')} <input maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      {banners.data && banners.data.length === 0 ? <p>{t('noBanners')}</p> : null}
      <DataTable data={banners.data ?? []} columns={columns} label={t('banners')} />
      <Outcome error={end.error ?? banners.error} done={end.isSuccess} />
      <BannerForm
        key={`${editing?.id ?? 'new'}-${formKey}`}
        editing={editing}
        onDone={() => {
          setEditing(null);
          setFormKey((key) => key + 1);
        }}
      />
    </section>
  );
}
