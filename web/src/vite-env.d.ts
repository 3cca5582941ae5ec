/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API host when it is not the page's own (for example in development). */
  readonly VITE_API_ORIGIN?: string;
  /** Base URL of the external support site (help centre, bug reports). */
  readonly VITE_SUPPORT_SITE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
