"""``python -m bench``: run the benchmarks on SQLite and PostgreSQL and print each figure beside its baseline.

    python -m bench                       # every benchmark, both stores
    python -m bench reads --stores sqlite --seconds 5
    python -m bench reads --stores sqlite --profile   # and where the API's time goes (py-spy)
    python -m bench apps --stores postgres+redis       # as deployed: PostgreSQL, and Redis for broker and limits
    python -m bench followers --events 20000           # our followers against eventsourcing.projection
    python -m bench appends --stores postgres          # the log's one-writer ceiling against bare INSERTs
    python -m bench --smoke --stores sqlite            # every benchmark at its smallest size: does each still run?
    python -m bench compare bench/results/A.json bench/results/B.json

Not part of ``make test``: figures are judged by ratios against baselines measured in the same run, never
by timed assertions. Results are also written to bench/results/<UTC time>.json. A smoke run (``--smoke``) is part
of ``make test`` (tests/integration/test_bench_smoke.py): each benchmark at its smallest size (one second of load, a few
subscriptions, a few hundred events), on SQLite one stack shared by every benchmark that needs one, wrk's load made
with httpx when wrk is missing and Lighthouse's audit left out (see bench/lighthouse.py); its figures mean nothing
and are not kept.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from bench import (
    app_licensing,
    appends,
    finance_ledger,
    followers,
    lag,
    lighthouse,
    purchases,
    reads,
    rebuild,
    renewals,
)
from bench.harness import SMOKE, Result, host_speed, keep, shared_stack, store_settings, table

Benchmark = Callable[..., list[Result]]
BENCHMARKS: dict[str, Benchmark] = {
    "reads": reads.run,
    "apps": app_licensing.run,
    "purchases": purchases.run,
    "rebuild": rebuild.run,
    "lag": lag.run,
    "lighthouse": lighthouse.run,
    "ledger": finance_ledger.run,
    "followers": followers.run,
    "appends": appends.run,
    "renewals": renewals.run,  # last: it moves the stack's shared test clock months on (a smoke run shares the stack)
}


def compare(first: Path, second: Path) -> str:
    """Two result files side by side: each figure's ratio then and now, under how fast each run's host was."""
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in (first, second)]
    before, after = ({(item["benchmark"], item["store"]): item["ratio"] for item in run["results"]} for run in runs)

    def loop(run: dict[str, dict[str, dict[str, float]]]) -> str:
        seconds = run.get("host", {}).get("at_start", {}).get("loop_seconds")
        return f"{seconds:.2f} s" if seconds else "-"

    lines = [
        f"{'10 million additions at the start':<50} {loop(runs[0]):>7} {loop(runs[1]):>7}",
        f"{'benchmark':<40} {'store':<9} {'before':>7} {'after':>7}",
    ]
    for key in sorted(before.keys() | after.keys()):
        then = f"{before[key]:.2f}" if key in before else "-"
        now = f"{after[key]:.2f}" if key in after else "-"
        lines.append(f"{key[0]:<40} {key[1]:<9} {then:>7} {now:>7}")
    return "\n".join(lines)


def main() -> None:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "names", nargs="*", help=f"benchmarks (default: all of {', '.join(BENCHMARKS)}), or compare A B"
    )
    parser.add_argument("--stores", default="sqlite,postgres", help="of sqlite, postgres, postgres+redis")
    parser.add_argument("--seconds", type=int, default=10, help="how long each load runs")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="sample the API with py-spy while it is measured")
    parser.add_argument("--events", type=int, help="events in the followers benchmark's log (BENCH_FOLLOWERS_EVENTS)")
    parser.add_argument("--smoke", action="store_true", help="every benchmark at its smallest size, nothing kept")
    args = parser.parse_args()
    if args.smoke:
        os.environ[SMOKE] = "1"
        args.seconds, args.connections = 1, 2
    if args.events:
        os.environ["BENCH_FOLLOWERS_EVENTS"] = str(args.events)
    if args.names[:1] == ["compare"]:
        print(compare(Path(args.names[1]), Path(args.names[2])))
        return
    unknown = set(args.names) - set(BENCHMARKS)
    if unknown:
        parser.error(f"unknown benchmarks: {', '.join(sorted(unknown))}")
    if args.smoke:
        _smoke(args.names or list(BENCHMARKS), args.stores.split(","))
        return
    at_start = host_speed()
    print(f"host: {os.cpu_count()} cores, 10 million additions in {at_start['loop_seconds']} s", flush=True)
    results: list[Result] = []
    options: dict[str, object] = {"seconds": args.seconds, "connections": args.connections}
    if args.profile:
        options["profile"] = True
    for store in args.stores.split(","):
        for name in args.names or list(BENCHMARKS):
            print(f"running {name} on {store}...", flush=True)
            with store_settings(store) as env:  # a fresh store each: no backlog of an earlier benchmark's work
                figures = BENCHMARKS[name](store, env, **options)
            print(table(figures), flush=True)
            results += figures
    at_end = host_speed()
    print(table(results))
    print(f"host at the end: 10 million additions in {at_end['loop_seconds']} s")
    print(f"written to {keep(results, {'cores': os.cpu_count() or 0, 'at_start': at_start, 'at_end': at_end})}")


def _smoke(names: list[str], stores: list[str]) -> None:
    """Run each benchmark at its smallest size and say how long each took; a benchmark that fails stops the run
    with its error."""
    for store in stores:
        with shared_stack(store):
            for name in names:
                started = time.monotonic()
                with store_settings(store) as env:
                    figures = BENCHMARKS[name](store, env, seconds=1, connections=2)
                print(
                    f"smoke: {name} on {store}: {len(figures)} figures in {time.monotonic() - started:.1f} s",
                    flush=True,
                )
    print("smoke: every benchmark ran")


if __name__ == "__main__":
    main()
