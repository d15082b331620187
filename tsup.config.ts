import { defineConfig } from 'tsup';

// Three entries: the library (ESM + CJS + declarations), the command line, and the worker-thread
// entry that Piscina loads by file name. All land flat in dist/ so `new URL('./worker.js',
// import.meta.url)` resolves from any bundled chunk.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    shims: true,
  },
  {
    entry: { cli: 'src/cli.ts', worker: 'src/pool/worker.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
