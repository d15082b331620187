// Loads the parallel worker from TypeScript source (tests, tsx): registers tsx in this worker
// thread, then re-exports the epoch function. A build uses parallel-worker.js or dist/worker.js.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./parallel-worker.ts');

export default worker.default;
