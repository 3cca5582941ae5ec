import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Path prefix of every backend call; the dev server forwards it to the API. */
const API_BASE_PATH = '/web/unicornpro/v1';
const DEV_API_TARGET = process.env.DEV_API_TARGET ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
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
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A page test's first render imports the lazy page and its chunks; on a loaded 2-core machine
    // that alone can pass the default 5 s.
    testTimeout: 15_000,
    restoreMocks: true,
  },
});
