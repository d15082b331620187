/**
 * The `delivery-planner` command. Each subcommand lives in its own module, loaded on demand, and
 * exports `main(argv): Promise<number>` returning the exit code. A subcommand reports bad input
 * by throwing a `UsageError` (exit 2) or any Error (exit 1): one line on stderr, never a stack.
 */
import { UsageError } from './cli/usage-error.js';
import { installProcessPolicy } from './cli/process-policy.js';
import { redactText } from './io/redact.js';

interface CommandModule {
  main(argv: string[]): Promise<number>;
}

const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  // Each part of the project registers its subcommand here, one line each.
  solve: { summary: 'solve a Solomon or JSON problem file and print the routes as JSON', load: () => import('./cli/solve.js') },
  serve: { summary: 'run the HTTP API on an embedded SQLite file (--demo for a demo company and key)', load: () => import('./cli/serve.js') },
  worker: { summary: 'run planning jobs, webhook deliveries and geocoding from the database, no HTTP (beside serve --jobs off)', load: () => import('./cli/worker.js') },
  admin: { summary: 'create companies, API keys, warehouses, vehicles, webhook subscriptions', load: () => import('./cli/admin.js') },
  demo: { summary: 'run the whole flow on demo data against a real local server (upload, geocode, plan, routes, GeoJSON, webhooks)', load: () => import('./cli/demo.js') },
};

function help(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`);
  return ['usage: delivery-planner <command> [options]', '', 'commands:', ...lines].join('\n');
}

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help() + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command '${name}' (try: ${Object.keys(commands).join(', ')})`);
  const module = await command.load();
  return module.main(rest);
}

installProcessPolicy();
run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message = redactText(err instanceof Error ? err.message : String(err));
    process.stderr.write(`delivery-planner: ${message.split('\n')[0]}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
