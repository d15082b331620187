import { defineConfig } from 'tsup';

// Three entries: the library (ESM + CJS + declarations; subpaths engine and client), the command line, and the worker-thread
// entry that Piscina loads by file name. All land flat in dist/ so `new URL('./worker.js',
// import.meta.url)` resolves from any bundled chunk.
// Small pure-JS dependencies are bundled: their ESM/CJS shapes differ (rbush is ESM only,
// @turf/distance has both), and esbuild's interop inside the bundle is right where a `require`
// of them from our CJS build was not (`import_rbush.default is not a constructor`).
// openapi-fetch (the typed client's runtime) too: its CommonJS build sets exports.default without
// __esModule, so a `require` of it from our CJS build got the module object, not the function.
const bundled = ['rbush', 'quickselect', '@turf/distance', '@turf/helpers', '@turf/invariant', 'fastpriorityqueue', 'openapi-fetch'];

export default defineConfig([
  {
    entry: { index: 'src/index.ts', engine: 'src/engine.ts', client: 'src/client.ts' },
    format: ['esm', 'cjs'],
    noExternal: bundled,
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    shims: true,
  },
  {
    entry: { cli: 'src/cli.ts', worker: 'src/pool/worker.ts' },
    format: ['esm'],
    noExternal: bundled,
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
