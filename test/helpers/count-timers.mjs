// Loaded with `node --import` into a process under test: counts the timers (setTimeout and
// setInterval objects) the process creates, and prints the count so far as one JSON line on
// stderr on SIGUSR2.
import { createHook } from 'node:async_hooks';

let timers = 0;
createHook({
  init(_id, type) {
    if (type === 'Timeout') timers++;
  },
}).enable();
process.on('SIGUSR2', () => process.stderr.write(`${JSON.stringify({ timers })}\n`));
