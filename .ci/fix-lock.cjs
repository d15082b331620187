#!/usr/bin/env node
// Adds lock entries for optional platform packages that this registry mirror does not serve,
// so that `npm ci` accepts the lock; npm skips them on install by their os/cpu fields.
const fs = require('fs');
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;
const guess = (name) => {
  const n = name.split('/').pop();
  const os = ['android','darwin','freebsd','linux','openbsd','netbsd','sunos','win32','aix','openharmony','cygwin'].find((o) => n.includes(o)) ?? (n.includes('windows') ? 'win32' : n.includes('wasi') || n.includes('wasm') ? undefined : undefined);
  const cpu = ['arm64','x64','ia32','arm','loong64','ppc64','riscv64','s390x','mips64el','mipsel','ppc','riscv','wasm32'].find((c) => n.includes('-' + c) || n.endsWith(c));
  return { os, cpu };
};
let added = 0;
for (const [path, entry] of Object.entries(pk)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = (path ? path + '/' : '') + 'node_modules/' + dep;
    if (pk[nested] || pk['node_modules/' + dep]) continue;
    const { os, cpu } = guess(dep);
    const e = { version: spec.replace(/^[\^~=]/, ''), optional: true };
    if (cpu) e.cpu = [cpu === 'ppc' ? 'ppc64' : cpu];
    if (os) e.os = [os];
    pk['node_modules/' + dep] = e;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
