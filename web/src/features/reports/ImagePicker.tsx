/** The report's images: add (checked before they are added), previews, and removal. */
import { useId, useRef } from 'react';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { FieldError } from '../../ui/FieldError';
import { StatusLine } from '../../ui/StatusLine';
import { MAX_IMAGES } from './images';
import type { AttachedImage } from './useReportImages';

export function ImagePicker({
  images,
  checking,
  error,
  onAdd,
  onRemove,
}: {
  images: readonly AttachedImage[];
  checking: boolean;
  error: string | undefined;
  onAdd: (files: File[]) => void;
  onRemove: (id: number) => void;
}) {
  const t = useT();
  const headingId = useId();
  const hintId = `${headingId}-hint`;
  const errorId = `${headingId}-error`;
  const input = useRef<HTMLInputElement>(null);
  const full = images.length >= MAX_IMAGES;
  return (
    <div className="field report-images" role="group" aria-labelledby={headingId}>
      <p id={headingId} className="field__label">
        {t.report.images}
      </p>
      <p id={hintId} className="field__hint">
        {t.report.imagesHint}
      </p>
      {/* The browser's own file control would show its own words; this button shows ours. */}
      <label className={`button button--secondary report-images__add${checking || full ? ' is-disabled' : ''}`}>
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png,image/gif"
          multiple
          disabled={checking || full}
          aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) onAdd(files);
          }}
        />
        {t.report.addImages}
      </label>
      {checking && <StatusLine>{t.report.checkingImages}</StatusLine>}
      <FieldError id={errorId}>{error}</FieldError>
      {images.length > 0 && (
        <ul className="report-images__list">
          {images.map((image) => (
            <li key={image.id} className="report-images__item">
              <img src={image.preview} alt={format(t.report.imagePreview, { name: image.file.name })} />
              <button
                type="button"
                className="report-images__remove"
                aria-label={format(t.report.removeImage, { name: image.file.name })}
                onClick={() => {
                  onRemove(image.id);
                  input.current?.focus();
                }}
              >
                <span className="report-images__remove-icon" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
