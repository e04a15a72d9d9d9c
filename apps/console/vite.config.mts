import path from 'node:path';
import { defineConfig } from 'vite';

// The merchant console's single-page app: bundled whole (scripts, styles, the font stack is the system's), nothing
// loaded from elsewhere, served by apps/console-server from dist/apps/console.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  resolve: { alias: [{ find: /^@pixauto\/api-client$/, replacement: path.resolve(import.meta.dirname, '../../libs/api-client/src/index.ts') }] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: { outDir: path.resolve(import.meta.dirname, '../../dist/apps/console'), emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0 },
});
