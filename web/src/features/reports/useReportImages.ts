/**
 * The images of the report form: each is checked in the browser, then by the server (POST /reports/validate),
 * before it is added with its preview; at most five are held.
 */
import { useRef, useState } from 'react';
import { toFeatureError, type FeatureError } from '../../errors/featureError';
import { postValidateImage } from './api';
import { browserImageProblem, IMAGE_ERRORS, MAX_IMAGES, previewUrl, roomFor } from './images';

export interface AttachedImage {
  id: number;
  file: File;
  preview: string;
}

export function useReportImages(validate: (file: File) => Promise<unknown> = postValidateImage) {
  const [images, setImages] = useState<AttachedImage[]>([]);
  const [error, setError] = useState<FeatureError | undefined>();
  const [checking, setChecking] = useState(false);
  const nextId = useRef(1);

  /** Check and add the chosen files; the first problem found is kept as `error`. */
  const add = async (files: readonly File[]) => {
    setError(undefined);
    setChecking(true);
    const fits = roomFor(images.length, files.length);
    let problem: FeatureError | undefined = fits < files.length ? { code: IMAGE_ERRORS.count } : undefined;
    const added: AttachedImage[] = [];
    try {
      for (const file of files.slice(0, fits)) {
        const local = await browserImageProblem(file);
        if (local !== undefined) {
          problem ??= { code: local };
          continue;
        }
        try {
          await validate(file);
        } catch (failure) {
          problem ??= toFeatureError(failure);
          continue;
        }
        added.push({ id: nextId.current++, file, preview: await previewUrl(file) });
      }
    } finally {
      setImages((current) => [...current, ...added].slice(0, MAX_IMAGES));
      setError(problem);
      setChecking(false);
    }
  };

  const remove = (id: number) => {
    setImages((current) => current.filter((image) => image.id !== id));
    setError(undefined);
  };

  const clear = () => {
    setImages([]);
    setError(undefined);
  };

  return { images, error, checking, add, remove, clear };
}
