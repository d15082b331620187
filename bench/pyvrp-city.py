#!/usr/bin/env python3
"""
PyVRP on the planning-job city (bench/city-peer.ts writes the input; run it with the peer build's
`venv-ils/bin/python` for 0.14, its iterated local search, or `venv-hgs/bin/python` for 0.12, its
hybrid genetic search; see ../shared/peers/pyvrp/). 0.14 indexes the matrices by location; 0.12 by
depot, then client, so there the matrices are taken in that order.

Usage: pyvrp-city.py EXPORT.json TIME_LIMIT_S SEED

EXPORT.json (integers only, built by bench/city-peer.ts from the job service's own problem):
  locations   number of locations; the matrices are row-major locations x locations
  distance    metres, rounded; duration: seconds, rounded up
  coordinates [latitude, longitude] of each location
  blocked     locations a van may not visit (orders that need a tail-lift): in the vans' profile
              every arc to or from them costs BLOCKED metres and seconds, so a van that visits one
              breaks its distance limit and the shift
  depots      their locations
  clients     {location, delivery: [grams, cm3, 1], service, tw: [early, late] | null}
  types       {num, capacity: [grams, cm3, max orders], depot, tw: [early, late], max_distance | null, van}

The third load dimension counts orders (each delivers 1): a van's limit of 40 orders a route.

Prints one JSON line: cost (PyVRP's distance, metres), feasible, iterations, runtime_s, and the
routes as {type, clients: [client index, ...]} in visiting order.
"""

import json
import sys
import time

import numpy as np

from pyvrp import Client, Depot, ProblemData, VehicleType, solve
from pyvrp.stop import MaxRuntime

try:
    from pyvrp import Location  # 0.14: locations apart from clients and depots
except ImportError:
    Location = None  # 0.12

BLOCKED = 10_000_000


def main() -> None:
    path, limit, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    with open(path) as f:
        x = json.load(f)
    n = x["locations"]
    dist = np.array(x["distance"], dtype=np.int64).reshape(n, n)
    dur = np.array(x["duration"], dtype=np.int64).reshape(n, n)
    van_dist, van_dur = dist.copy(), dur.copy()
    for loc in x["blocked"]:
        for m in (van_dist, van_dur):
            m[loc, :] = BLOCKED
            m[:, loc] = BLOCKED
            m[loc, loc] = 0

    # coordinates (longitude, latitude) for what PyVRP computes from them (SWAP*'s route sectors)
    xy = [(float(lon), float(lat)) for lat, lon in x["coordinates"]]
    if Location is None:
        # 0.12: matrix rows are depots, then clients
        order = list(x["depots"]) + [c["location"] for c in x["clients"]]
        ix = np.ix_(order, order)
        dist, dur, van_dist, van_dur = dist[ix], dur[ix], van_dist[ix], van_dur[ix]
        depots = [Depot(*xy[loc]) for loc in x["depots"]]
        at = lambda c: dict(zip(("x", "y"), xy[c["location"]]))
    else:
        depots = [Depot(location=loc) for loc in x["depots"]]
        at = lambda c: {"location": c["location"]}
    clients = []
    for c in x["clients"]:
        tw = c["tw"]
        kw = {} if tw is None else {"tw_early": tw[0], "tw_late": tw[1]}
        clients.append(Client(**at(c), delivery=c["delivery"], service_duration=c["service"], **kw))
    types = []
    for t in x["types"]:
        kw = {} if t["max_distance"] is None else {"max_distance": t["max_distance"]}
        types.append(
            VehicleType(
                num_available=t["num"],
                capacity=t["capacity"],
                start_depot=t["depot"],
                end_depot=t["depot"],
                tw_early=t["tw"][0],
                tw_late=t["tw"][1],
                profile=1 if t["van"] else 0,
                **kw,
            )
        )
    if Location is None:
        data = ProblemData(clients, depots, types, [dist, van_dist], [dur, van_dur])
    else:
        locations = [Location(*xy[loc]) for loc in range(n)]
        data = ProblemData(locations, clients, depots, types, [dist, van_dist], [dur, van_dur])

    t0 = time.perf_counter()
    res = solve(data, stop=MaxRuntime(limit), seed=seed, display=False)
    runtime = time.perf_counter() - t0
    best = res.best
    routes = []
    for r in best.routes():
        if Location is None:
            visits = [v - len(x["depots"]) for v in r.visits()]
        else:
            visits = [a.idx for a in r.schedule() if a.is_client()]
        routes.append({"type": r.vehicle_type(), "clients": visits})
    print(
        json.dumps(
            {
                "cost": best.distance(),
                "feasible": best.is_feasible(),
                "iterations": res.num_iterations,
                "runtime_s": runtime,
                "routes": routes,
            }
        )
    )


if __name__ == "__main__":
    main()
