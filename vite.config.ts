import { defineConfig } from 'vite';

// The browser bundle, built to dist/client with a manifest the server reads to emit the script and stylesheet tags;
// served under /client/ (see src/server/routes/assets.ts). Three entries: every page's islands (main), the checkout
// page's island (checkout), so that checkout code never loads on a product page, and the owner's area (admin); what
// they share (React, the core's rules) lands in shared chunks that the server preloads.
export default defineConfig({
  base: '/client/',
  publicDir: false,
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // No preload lists for dynamic imports (measurement, the consent banner, the error reporter, the CAPTCHA widget):
    // they are imported by main, whose chunks and stylesheet the page has already loaded.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? [] : deps),
    },
    rollupOptions: {
      input: { main: 'src/client/main.tsx', checkout: 'src/client/checkout.tsx', admin: 'src/client/admin.tsx' },
      // The one chunk both entries import (React, the core's shared rules) and its stylesheet, named for what they are.
      output: {
        chunkFileNames: 'assets/shared-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css'))
            ? 'assets/styles-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
      },
    },
  },
});
