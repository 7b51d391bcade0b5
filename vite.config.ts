import { defineConfig } from 'vite';

// The browser bundle: the island entry only (React + islands + the pure core they call), built to dist/client with a
// manifest the server reads to emit the script and stylesheet tags. Served under /client/ (see src/server/routes/assets.ts).
export default defineConfig({
  base: '/client/',
  publicDir: false,
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: { input: 'src/client/main.tsx' },
  },
});
