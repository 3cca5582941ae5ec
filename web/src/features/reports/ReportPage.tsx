/**
 * The ad, misblock and bug report form (spec sections 3, 5 and 7): the app, what happened and where, the
 * filters in use (the server's groups for a Pro app, local defaults otherwise), images checked before they
 * are added, details, an optional email, and the agreement to collect it all. Logged-in members send their
 * bearer; anyone may report.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { toFeatureError } from '../../errors/featureError';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { FieldError, fieldErrorText, type FieldErrorLike } from '../../ui/FieldError';
import { PageMeta } from '../../ui/PageMeta';
import { StatusLine } from '../../ui/StatusLine';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { useReveal } from '../../ui/useReveal';
import { postReport } from './api';
import { FilterChoice } from './FilterChoice';
import { shownGroups } from './filters';
import { ImagePicker } from './ImagePicker';
import { APPLICATIONS, PROBLEMS, REPORT_PRODUCTS } from './products';
import { reportErrorMessage } from './reportError';
import { EMPTY_REPORT, reportBody, reportSchema, type ReportFormInput, type ReportFormValues } from './schemas';
import { useFilterGroups } from './useFilterGroups';
import { useReportImages } from './useReportImages';
import '../../ui/kit.css';
import './report.css';

export default function ReportPage() {
  const t = useT();
  const [sent, setSent] = useState(false);
  // The long form shrinks into a short message: the page's top (heading and message) comes into view.
  const heading = useReveal<HTMLHeadingElement>(sent);
  return (
    <div className="content-page content-page--narrow report-page">
      <PageMeta title={t.report.heading} />
      <h1 className="page__heading" ref={heading}>
        {t.report.heading}
      </h1>
      {sent ? (
        <section aria-labelledby="report-sent-heading" className="report-sent">
          <h2 id="report-sent-heading">{t.report.sentHeading}</h2>
          <StatusLine>{t.report.sentBody}</StatusLine>
          <Button variant="secondary" onClick={() => setSent(false)}>
            {t.report.another}
          </Button>
        </section>
      ) : (
        <ReportForm onSent={() => setSent(true)} />
      )}
    </div>
  );
}

function ReportForm({ onSent }: { onSent: () => void }) {
  const t = useT();
  const lang = useLang();
  const ids = useId();
  const alert = useAlert();
  const [sending, setSending] = useState(false);
  const images = useReportImages();
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm<ReportFormInput, unknown, ReportFormValues>({
    resolver: zodResolver(reportSchema),
    defaultValues: EMPTY_REPORT,
  });
  const text = (error: FieldErrorLike) => fieldErrorText(error, t.report.validation);
  const [product, problem, application] = watch(['product', 'problem', 'application']);
  const filterGroups = useFilterGroups(product);
  const groups = useMemo(() => shownGroups(filterGroups.groups, lang), [filterGroups.groups, lang]);

  useEffect(() => {
    setValue('filters', []);
  }, [product, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    setSending(true);
    try {
      await postReport(reportBody(values, images.images.map((image) => image.file)));
      onSent();
    } catch (failure) {
      alert.show({ title: t.report.errorTitle, message: reportErrorMessage(t, toFeatureError(failure)) });
    } finally {
      setSending(false);
    }
  });

  const productId = `${ids}-product`;
  const applicationId = `${ids}-application`;
  return (
    <>
      <p className="content-page__lead">{t.report.lead}</p>
      <form className="form-stack report-form" noValidate onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={productId} className="field__label">
            {t.report.product}
          </label>
          <select
            id={productId}
            aria-invalid={errors.product ? true : undefined}
            aria-describedby={errors.product ? `${productId}-error` : undefined}
            {...register('product')}
          >
            <option value="">{t.report.productPlaceholder}</option>
            {REPORT_PRODUCTS.map((code) => (
              <option key={code} value={code}>
                {t.home.products[code]}
              </option>
            ))}
          </select>
          <FieldError id={`${productId}-error`}>{text(errors.product)}</FieldError>
        </div>

        <fieldset className="report-problem">
          <legend className="field__label">{t.report.problem}</legend>
          {PROBLEMS.map((value) => (
            <label key={value} className="check">
              <input type="radio" value={value} {...register('problem')} />
              {t.report.problems[value]}
            </label>
          ))}
        </fieldset>

        <TextField
          label={t.report.url}
          hint={t.report.urlHint}
          error={text(errors.url)}
          inputProps={{ type: 'url', inputMode: 'url', autoComplete: 'url', ...register('url') }}
        />

        {problem !== 'bug' && (
          <div className="report-grid">
            <div className="field">
              <label htmlFor={applicationId} className="field__label">
                {t.report.application}
              </label>
              <select id={applicationId} {...register('application')}>
                <option value="">{t.report.applicationPlaceholder}</option>
                {APPLICATIONS.map((value) => (
                  <option key={value} value={value}>
                    {t.report.applications[value]}
                  </option>
                ))}
              </select>
            </div>
            {application === 'etc' && (
              <TextField
                label={t.report.applicationEtc}
                error={text(errors.applicationEtc)}
                inputProps={{ type: 'text', ...register('applicationEtc') }}
              />
            )}
            <label className="check report-grid__wide">
              <input type="checkbox" {...register('adult')} />
              {t.report.adult}
            </label>
          </div>
        )}

        {filterGroups.status === 'request' && <StatusLine>{t.report.filtersLoading}</StatusLine>}
        {filterGroups.status === 'failure' && filterGroups.error && (
          <StatusLine tone="error">{reportErrorMessage(t, filterGroups.error)}</StatusLine>
        )}
        {groups.length > 0 && <FilterChoice groups={groups} input={register('filters')} />}

        <TextAreaField
          label={t.report.customFilters}
          hint={t.report.customFiltersHint}
          error={text(errors.customFilters)}
          input={register('customFilters')}
          rows={3}
        />

        <fieldset className="report-device">
          <legend className="field__label">{t.report.deviceHeading}</legend>
          <div className="report-grid">
            <TextField label={t.report.version} error={text(errors.version)} inputProps={register('version')} />
            <TextField
              label={t.report.deviceModel}
              error={text(errors.deviceModel)}
              inputProps={register('deviceModel')}
            />
            <TextField label={t.report.osVersion} error={text(errors.osVersion)} inputProps={register('osVersion')} />
          </div>
        </fieldset>

        <TextAreaField
          label={t.report.comment}
          hint={t.report.commentHint}
          error={text(errors.comment)}
          input={register('comment')}
          rows={6}
        />

        <ImagePicker
          images={images.images}
          checking={images.checking}
          error={images.error ? reportErrorMessage(t, images.error) : undefined}
          onAdd={(files) => void images.add(files)}
          onRemove={images.remove}
        />

        <TextField
          label={t.report.email}
          hint={t.report.emailHint}
          error={text(errors.email)}
          inputProps={{ type: 'email', autoComplete: 'email', ...register('email') }}
        />

        <div className="field">
          <label className="check report-agreement">
            <input
              type="checkbox"
              aria-invalid={errors.checked ? true : undefined}
              aria-describedby={errors.checked ? `${ids}-checked-error` : undefined}
              {...register('checked')}
            />
            {t.report.checked}
          </label>
          <FieldError id={`${ids}-checked-error`}>{text(errors.checked)}</FieldError>
        </div>

        <Button type="submit" loading={sending} disabled={images.checking}>
          {t.report.submit}
        </Button>
      </form>
      <AlertDialog alert={alert.alert} onClose={alert.close} />
    </>
  );
}

function TextAreaField({
  label,
  hint,
  error,
  input,
  rows,
}: {
  label: string;
  hint: string;
  error: string | undefined;
  input: UseFormRegisterReturn;
  rows: number;
}) {
  const id = useId();
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <textarea id={id} rows={rows} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...input} />
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}
