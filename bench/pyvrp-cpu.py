#!/usr/bin/env python3
"""
PyVRP with a CPU-time limit: runs ../shared/peers/pyvrp/run.py (same arguments, same JSON line)
with its MaxRuntime replaced by a stop on this process's CPU time (time.process_time: every thread).
bench/peers.ts --cpu-clock uses it, so that on a busy machine PyVRP and our `solve --cpu-clock`
each get the same CPU seconds, whatever else runs on their cores.

  python bench/pyvrp-cpu.py RUN_PY INSTANCE SECONDS SEED
"""
import importlib.util
import sys
import time

run_py = sys.argv.pop(1)
spec = importlib.util.spec_from_file_location("peer_run", run_py)
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)


class MaxCpuTime:
    """Stops once the process has used `seconds` of CPU time since it was made."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.start = time.process_time()

    def __call__(self, best_cost: float) -> bool:
        return time.process_time() - self.start >= self.seconds


run.MaxRuntime = MaxCpuTime
run.main()
