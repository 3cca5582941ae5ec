import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { PaymentPapers as Papers, TaxInvoiceBody } from '../../api/models';
import { format } from '../../i18n/catalogues';
import { isLang, LANGUAGES, type Lang } from '../../i18n/languages';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { getAccessToken } from '../../session/session';
import { useBearerLoad } from '../../session/useBearerLoad';
import { appStore } from '../../store';
import { featureErrorMessage, toFeatureError } from '../../errors/featureError';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useAlert } from '../../ui/useAlert';
import { AlertDialog } from '../../ui/AlertDialog';
import { askTaxInvoice, fetchDocument, getPapers } from './papersApi';

/** Saves a downloaded file under its name (an anchor with `download`, as a browser saves any link). */
function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The papers of one payment on its purchase-history page: receipt and refund notes as PDF in the language the
 * customer picks, the cash receipt's state (its number masked), and the tax-invoice request when the API allows it. */
export function PaymentPapers({ merchantUid }: { merchantUid: string }) {
  const t = useT();
  const p = t.papers;
  const pageLang = useLang();
  const [documentLang, setDocumentLang] = useState<Lang>(pageLang);
  const [busy, setBusy] = useState<string | null>(null);
  const { alert, show, close } = useAlert();
  const onError = (error: ReturnType<typeof toFeatureError>) =>
    show({ title: p.errorTitle, message: featureErrorMessage(t, error) });
  const { state, reload } = useBearerLoad<Papers>((token) => getPapers(merchantUid, token), onError, `papers-${merchantUid}`);
  if (state.status !== 'ready') return null;
  const papers = state.data;

  const download = async (kind: string, number: number) => {
    setBusy(`${kind}-${number}`);
    try {
      const token = await getAccessToken(appStore);
      const { blob, fileName } = await fetchDocument(merchantUid, kind, number, documentLang, token);
      save(blob, fileName);
    } catch {
      show({ title: p.errorTitle, message: p.downloadError });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="content-section card" aria-labelledby="payment-papers-heading">
      <h2 id="payment-papers-heading" className="content-section__heading">
        {p.heading}
      </h2>
      {papers.documents.length === 0 ? (
        <p>{p.none}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="papers-language" className="field__label">
              {p.language}
            </label>
            <select
              id="papers-language"
              className="field__input"
              value={documentLang}
              onChange={(event) => isLang(event.target.value) && setDocumentLang(event.target.value)}
            >
              {LANGUAGES.map((lang) => (
                <option key={lang} value={lang}>
                  {t.account.language.names[lang]}
                </option>
              ))}
            </select>
          </div>
          <div className="button-row">
            {papers.documents.map((document) => (
              <Button
                key={`${document.kind}-${document.number}`}
                variant="secondary"
                loading={busy === `${document.kind}-${document.number}`}
                onClick={() => void download(document.kind, document.number)}
              >
                {document.kind === 'receipt' ? p.receipt : format(p.refundNote, { number: document.number })}
              </Button>
            ))}
          </div>
        </>
      )}
      {papers.cashReceipt && (
        <dl className="facts">
          <div>
            <dt>{p.cashReceipt.heading}</dt>
            <dd>
              {p.cashReceipt.kinds[papers.cashReceipt.kind as 'personal' | 'business'] ?? papers.cashReceipt.kind}{' '}
              {papers.cashReceipt.number} ·{' '}
              {p.cashReceipt.states[papers.cashReceipt.state as 'requested' | 'issued' | 'cancelled'] ??
                papers.cashReceipt.state}
            </dd>
          </div>
        </dl>
      )}
      {papers.taxInvoice && (
        <p>
          {p.taxInvoice.heading}:{' '}
          {format(papers.taxInvoice.state === 'withdrawn' ? p.taxInvoice.withdrawn : p.taxInvoice.requested, {
            company: papers.taxInvoice.companyName,
            number: papers.taxInvoice.businessNumber,
          })}
        </p>
      )}
      {papers.cashReceipt && !papers.taxInvoice && <p>{p.taxInvoice.notWithCashReceipt}</p>}
      {papers.allowed.includes('taxInvoice') && <TaxInvoiceForm merchantUid={merchantUid} onDone={reload} />}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

function TaxInvoiceForm({ merchantUid, onDone }: { merchantUid: string; onDone: () => void }) {
  const t = useT();
  const p = t.papers.taxInvoice;
  const { alert, show, close } = useAlert();
  const { register, handleSubmit, formState } = useForm<TaxInvoiceBody>({
    defaultValues: { businessNumber: '', companyName: '', representative: '', address: '', email: '' },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await askTaxInvoice(merchantUid, body, await getAccessToken(appStore));
      onDone();
    } catch (error) {
      show({ title: t.papers.errorTitle, message: featureErrorMessage(t, toFeatureError(error)) });
    }
  });
  const field = (name: keyof TaxInvoiceBody, label: string, type = 'text') => (
    <TextField label={label} inputProps={{ ...register(name, { required: true }), type, required: true }} />
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="tax-invoice-heading">
      <h3 id="tax-invoice-heading">{p.heading}</h3>
      <p>{p.lead}</p>
      {field('businessNumber', p.businessNumber)}
      {field('companyName', p.companyName)}
      {field('representative', p.representative)}
      {field('address', p.address)}
      {field('email', p.email, 'email')}
      <Button type="submit" loading={formState.isSubmitting}>
        {p.submit}
      </Button>
      <AlertDialog alert={alert} onClose={close} />
    </form>
  );
}
