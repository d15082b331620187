// Loads the worker from TypeScript source (tests, tsx): registers tsx in this worker thread, then
// re-exports the one task function. The built package uses dist/worker.js instead.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');

export default worker.default;
