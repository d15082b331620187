import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

describe('delivery-planner command', () => {
  it('prints its usage with --help and exits 0', () => {
    const r = runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: delivery-planner <command>/);
  });

  it('--help on every command prints its usage on stdout and exits 0', () => {
    for (const command of ['solve', 'serve', 'admin', 'demo']) {
      const r = runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stderr, command).toBe('');
      expect(r.stdout, command).toMatch(new RegExp(`${command}`));
      expect(r.stdout, command).toMatch(/--/); // names its options
    }
  });

  it('exits 2 with one line on an unknown command', () => {
    const r = runCli(['no-such-command']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/unknown command 'no-such-command'/);
  });

  it('exits 2 without a command', () => {
    expect(runCli([]).code).toBe(2);
  });
});
