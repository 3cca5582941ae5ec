/** The brand mark; decorative, so the link around it carries the accessible name. */
export function LogoMark() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 8v9a7 7 0 0 0 14 0V8h-4v9a3 3 0 0 1-6 0V8z" fill="#fff" />
    </svg>
  );
}
