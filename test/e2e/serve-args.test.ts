/** The planning and webhook options of `serve`: bad values exit 2 with one line on stderr. */
import { describe, expect, it } from 'vitest';
import { parseFlowServeArgs } from '../../src/cli/options.js';
import { runCli } from '../helpers/run-cli.js';

const usage = (m: string) => new Error(m);

describe('serve options for planning and webhooks', () => {
  it('parses --job-time-limit, --webhook-timeout and --webhook-retry-delays', () => {
    expect(parseFlowServeArgs({ 'job-time-limit': '0.5', 'webhook-timeout': '1500', 'webhook-retry-delays': '200, 400,800' }, usage)).toEqual({
      jobTimeLimitSec: 0.5,
      webhookTimeoutMs: 1500,
      webhookRetryDelaysMs: [200, 400, 800],
    });
    expect(parseFlowServeArgs({}, usage)).toEqual({});
    expect(parseFlowServeArgs({ 'max-jobs-per-company': '2' }, usage)).toEqual({ maxJobsPerCompany: 2 });
    expect(parseFlowServeArgs({ 'position-retention-days': '7' }, usage)).toEqual({ positionRetentionDays: 7 });
    for (const bad of [{ 'job-time-limit': '0' }, { 'job-time-limit': 'fast' }, { 'webhook-timeout': '-5' }, { 'webhook-retry-delays': '1,,2' }, { 'webhook-retry-delays': 'soon' }, { 'max-jobs-per-company': '0' }, { 'max-jobs-per-company': 'lots' }, { 'position-retention-days': '0' }]) {
      expect(() => parseFlowServeArgs(bad, usage), JSON.stringify(bad)).toThrow(/^--/);
    }
  });

  it('serve refuses a bad value with exit 2 and one line', () => {
    const result = runCli(['serve', '--port', '0', '--db', ':memory:', '--webhook-retry-delays', 'later']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('--webhook-retry-delays')]);
  });
});
