/**
 * The benchmarks' `k=v;k=v` settings with numbers for values: a CoopPlan (bench/jobs.ts `--plan`,
 * bench/coop-cpu.ts `plan:`) or coop-cpu's per-task settings (`task:`). Anything else throws, so a
 * mistyped setting stops the run instead of running the default.
 */
export function parseNumbers(spec: string, what: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kv of spec.split(';').filter(Boolean)) {
    const [k, v, ...rest] = kv.split('=');
    if (!k || v === undefined || rest.length > 0 || v.trim() === '' || !Number.isFinite(Number(v))) throw new Error(`${what} takes k=v;k=v with numbers, not ${kv}`);
    out[k] = Number(v);
  }
  return out;
}
