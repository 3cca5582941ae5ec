import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vite';

/**
 * The back office (admin.html, served under /admin), built after the storefront into the same dist/ by a build of
 * its own: it shares no chunk with the storefront, so the storefront's files are byte for byte what they were
 * without it (a shared vendor chunk cost the home page's initial JS about 0.3 kB of gzip).
 */
export default defineConfig({
  plugins: [react(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024, logLevel: 'silent' })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: 'hidden',
    rollupOptions: { input: { admin: 'admin.html' } },
  },
});
