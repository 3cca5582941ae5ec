/**
 * The report form's images, checked in the browser before the server checks them again (spec section 5):
 * jpg, png or gif by their first bytes, not their name (-1401), 3MB or less (-1402), at most 5 (-1403).
 */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;
export const MAX_IMAGES = 5;
export const IMAGE_ERRORS = { type: -1401, size: -1402, count: -1403 } as const;
export type ImageErrorCode = (typeof IMAGE_ERRORS)[keyof typeof IMAGE_ERRORS];

const SIGNATURES: readonly (readonly number[])[] = [
  [0xff, 0xd8, 0xff], // jpg
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // png
  [0x47, 0x49, 0x46, 0x38], // gif: "GIF8" (GIF87a, GIF89a)
];

/** Whether the first bytes are those of a jpg, png or gif. */
export function looksLikeImage(head: Uint8Array): boolean {
  return SIGNATURES.some((signature) => signature.every((byte, index) => head[index] === byte));
}

/** The problem with a file the browser can see, or undefined: too big, or not a jpg, png or gif. */
export async function browserImageProblem(file: Blob): Promise<ImageErrorCode | undefined> {
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_ERRORS.size;
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return looksLikeImage(head) ? undefined : IMAGE_ERRORS.type;
}

/** How many of `adding` files fit beside `held` ones. */
export function roomFor(held: number, adding: number): number {
  return Math.max(0, Math.min(adding, MAX_IMAGES - held));
}

/** A preview address for the image (a data: URL, which the site's content security policy allows). */
export function previewUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}
