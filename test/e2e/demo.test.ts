/** `delivery-planner demo` end to end: a real child process that starts its own server. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('delivery-planner demo', () => {
  it('runs the whole flow, prints the routes, writes a GeoJSON route and exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dp-demo-'));
    try {
      const out = join(dir, 'route.geojson');
      const db = join(dir, 'demo.db');
      const result = runCli(['demo', '--db', db, '--out', out, '--job-time-limit', '1']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const text = result.stdout;
      expect(text).toMatch(/uploaded 41 orders for \d{4}-\d\d-\d\d: 41 created, 0 existing, 0 failed/);
      expect(text).toContain('geocoded 41 addresses');
      expect(text).toMatch(/planning_job\.finished: done after [\d.]+ s, via webhook \(signature verified\)/);
      expect(text).toMatch(/route\s+name\s+stops\s+km\s+min\s+kg\s+planned arrivals \(local\)/);
      expect(text).toMatch(/order\.status_changed in_route -> confirmed/);
      expect(text).toContain('all signatures valid');
      const geo = JSON.parse(readFileSync(out, 'utf8'));
      expect(geo.type).toBe('FeatureCollection');
      expect(geo.features[0].geometry.type).toBe('LineString');
      const points = geo.features.slice(1);
      expect(points[0].properties.stop_type).toBe('start_depot');
      expect(points.at(-1).properties.stop_type).toBe('end_depot');
      expect(geo.features[0].geometry.coordinates).toHaveLength(points.length);

      // a second run on the same database plans the next free day
      const again = runCli(['demo', '--db', db, '--out', out, '--job-time-limit', '1']);
      expect(again.code).toBe(0);
      const day = (s: string) => /uploaded 41 orders for (\S+):/.exec(s)![1];
      expect(day(again.stdout) > day(text)!).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad arguments exit 2 with one line', () => {
    const result = runCli(['demo', '--orders', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
