import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { LANGUAGES } from './src/i18n/languages';
import { routePatterns } from './src/routing/paths';

/**
 * dist/routes.json: the app's languages and route patterns (paths after /{lang}, `:name` one segment), so that the
 * server answers an address no page has with HTTP 404 (api/spa.py) while the app shows its not-found page.
 */
function routeManifest(): Plugin {
  return {
    name: 'route-manifest',
    apply: 'build',
    generateBundle() {
      const manifest = { languages: LANGUAGES, patterns: ['', ...Object.values(routePatterns)] };
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: `${JSON.stringify(manifest, null, 2)}\n` });
    },
  };
}

/** Path prefix of every backend call; the dev server forwards it to the API. */
const API_BASE_PATH = '/web/unicornpro/v1';
const DEV_API_TARGET = process.env.DEV_API_TARGET ?? 'http://127.0.0.1:8000';

export default defineConfig({
  // Text assets are also written gzip- and brotli-compressed, once, at build time; the API serves the smallest
  // one the browser accepts (api/spa.py), so nothing is compressed per request.
  plugins: [react(), routeManifest(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024, logLevel: 'silent' })],
  build: {
    outDir: 'dist',
    // Maps are written for error reporting but not referenced from the served bundles.
    sourcemap: 'hidden',
  },
  server: {
    proxy: {
      [API_BASE_PATH]: { target: DEV_API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      [API_BASE_PATH]: { target: DEV_API_TARGET, changeOrigin: false },
    },
  },
  test: {
    // A page test's first render imports the lazy page and its chunks; on a loaded 2-core machine
    // that alone can pass the default 5 s.
    testTimeout: 15_000,
    restoreMocks: true,
    // Components render in jsdom; pure modules run in Node, which starts far quicker (a module that
    // needs the browser's globals says so with a `@vitest-environment jsdom` comment).
    projects: [
      {
        extends: true,
        test: { name: 'dom', environment: 'jsdom', include: ['src/**/*.test.tsx'], setupFiles: ['src/test/setup.ts'] },
      },
      { extends: true, test: { name: 'pure', environment: 'node', include: ['src/**/*.test.ts'] } },
    ],
  },
});
