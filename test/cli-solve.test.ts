import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from './helpers/run-cli.js';
import { cliArgs } from './helpers/cli-command.js';
import { randomProblem } from './helpers/problems.js';

describe('delivery-planner solve', () => {
  // one temporary directory for the file's tests (their file names differ), removed at the end
  const dir = mkdtempSync(join(tmpdir(), 'dp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('solves a Solomon file and prints routes with customer numbers', () => {
    const r = runCli(['solve', 'data/solomon/C101.txt', '--rounding', 'trunc1', '--iterations', '50', '--seed', '3']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const stops = out.routes.flatMap((x: { stops: string[] }) => x.stops).sort((a: string, b: string) => Number(a) - Number(b));
    expect(stops).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 1)));
    expect(out.vehicles).toBe(out.routes.length);
    expect(out.unassigned).toEqual([]);
    expect(typeof out.distance).toBe('number');
    expect(typeof out.elapsed_ms).toBe('number');
  });

  it('gives the same routes whether it starts itself again with synchronous compilation or not', () => {
    const args = [...cliArgs(), 'solve', 'data/solomon/R101.txt', '--rounding', 'trunc1', '--iterations', '40', '--seed', '2'];
    const again = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
    const inProcess = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000, env: { ...process.env, DELIVERY_PLANNER_SOLVE_IN_PROCESS: '1' } });
    expect(again.status).toBe(0);
    expect(inProcess.status).toBe(0);
    const routes = (out: string) => JSON.parse(out).routes;
    expect(routes(again.stdout)).toEqual(routes(inProcess.stdout));
    expect(routes(again.stdout).flatMap((r: { stops: string[] }) => r.stops)).toHaveLength(100);
  });

  it('--cpu-clock: the time limit counts the process CPU time; one thread only', () => {
    // the clock counts the process's own start too (a cold tsx load: tenths of a CPU second)
    const r = runCli(['solve', 'data/solomon/C101.txt', '--rounding', 'trunc1', '--time-limit', '1.5', '--cpu-clock']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.routes.flatMap((x: { stops: string[] }) => x.stops)).toHaveLength(100);
    expect(out.iterations).toBeGreaterThan(0);
    const bad = runCli(['solve', 'data/solomon/C101.txt', '--cpu-clock', '--threads', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--cpu-clock takes one thread');
  });

  it('runs on two worker threads with --threads 2', () => {
    const r = runCli(['solve', 'data/solomon/C201.txt', '--rounding', 'trunc1', '--iterations', '100', '--threads', '2']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.routes.flatMap((x: { stops: string[] }) => x.stops)).toHaveLength(100);
  });

  it('prints where a route goes back to load (reloads_after) for vehicles with maxTrips', () => {
    const file = join(dir, 'trips.json');
    const p = randomProblem({ orders: 30, vehicles: 1, seed: 4, capacity: 120 });
    p.vehicles[0]!.maxTrips = 4;
    p.vehicles[0]!.shift = [0, 5000];
    writeFileSync(file, JSON.stringify(p));
    const r = runCli(['solve', file, '--iterations', '50']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // about 300 in trips of 120: three trips, so two reloads between stops
    expect(out.unassigned).toEqual([]);
    const [route] = out.routes;
    expect(route.reloads_after.length).toBeGreaterThanOrEqual(2);
    for (const k of route.reloads_after) expect(k > 0 && k < route.stops.length).toBe(true);
  });

  it('reads JSON problems and writes --out', () => {
    const file = join(dir, 'p.json');
    writeFileSync(file, JSON.stringify(randomProblem({ orders: 12, vehicles: 3, seed: 2 })));
    const out = join(dir, 'out.json');
    const r = runCli(['solve', file, '--iterations', '20', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).routes.length).toBeGreaterThan(0);
  });

  it('prints its usage once on --help and exits 0', () => {
    const r = runCli(['solve', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('usage: delivery-planner solve FILE')).toBe(true);
    expect(r.stdout.match(/usage:/g)).toHaveLength(1);
  });

  it('exits 2 with one line on bad arguments', () => {
    for (const args of [['solve'], ['solve', 'x.txt', '--rounding', 'round'], ['solve', 'x.txt', '--time-limit', '-1'], ['solve', 'x.txt', '--bogus']]) {
      const r = runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits 1 with one line naming the problem on bad input', () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'X\r\nVEHICLE\r\nNUMBER CAPACITY\r\n25\r\n');
    const r = runCli(['solve', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.txt:4: expected two numbers/);
    const badJson = join(dir, 'bad.json');
    writeFileSync(badJson, JSON.stringify({ matrix: { kind: 'euclidean', coordinates: [] }, depots: [], vehicles: [], orders: [{ id: 'a' }] }));
    const r2 = runCli(['solve', badJson]);
    expect(r2.code).toBe(1);
    expect(r2.stderr.trim().split('\n')).toHaveLength(1);
    // every problem of the schema, not the first one only
    expect(r2.stderr).toMatch(/bad\.json: \d+ problems: .*orders\[0\]\.location: .*; .*orders\[0\]\.weight/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{\n  "depots": [\n    1,\n  ]\n}\n');
    const r3 = runCli(['solve', broken]);
    expect(r3.code).toBe(1);
    const lines = r3.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/broken\.json: not valid JSON \(.+\)$/);
  });
});
