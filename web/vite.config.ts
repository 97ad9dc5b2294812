import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The writers' web app. Built into dist/web, which the server serves at `/`
 * (src/http/web-app.ts). No plugin is needed: esbuild compiles the TSX, and
 * the editor is split into its own chunk by the dynamic import in routes.tsx.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The app's CSP forbids inline scripts; Vite's output uses external module scripts only.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      onwarn(warning, warn) {
        // React libraries mark modules "use client" for server-component bundlers; meaningless here.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
        warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
