"""Benchmark (not part of ``make test``): verify and export a log of 100,000 events, with progress, and print the times.

    .venv/bin/python bench/audit_100k.py                    # a throwaway SQLite log under a temporary directory
    DATABASE_URL=postgresql://... .venv/bin/python bench/audit_100k.py   # an empty PostgreSQL database you made

It records 100,000 account registrations through the log (500 aggregates a transaction), appends them to the
transparency log, signs a checkpoint, then runs ``python -m eventlog.audit verify`` and ``export`` (JSONL and
Parquet) in-process, timing each step.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from config.settings import Settings
from domain.accounts.account import Account
from domain.store import Storefront
from eventlog.audit import __main__ as audit_cli
from events.values import Language

EVENTS = int(os.environ.get("BENCH_EVENTS", "100000"))
BATCH = 500
NO_LOGIN = "-"  # the benchmark's accounts never log in


def timed(label: str, step: object) -> object:
    started = time.perf_counter()
    result = step() if callable(step) else step
    print(f"{label}: {time.perf_counter() - started:.1f} s", flush=True)
    return result


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="audit-bench-") as var:
        settings = Settings(APP_VAR_DIR=var, APP_ENV="bench")
        print(f"store: {settings.store_kind}, {EVENTS} events", flush=True)
        store = Storefront(settings.event_store_env)
        start = datetime(2026, 1, 1, tzinfo=UTC)

        def record() -> None:
            for first in range(0, EVENTS, BATCH):
                accounts = [
                    Account.register(
                        email=f"bench{n}@example.com",
                        password_hash=NO_LOGIN,
                        language=Language.KO,
                        marketing_push_enabled=False,
                        at=start + timedelta(minutes=n),
                    )
                    for n in range(first, min(first + BATCH, EVENTS))
                ]
                store.save(*accounts)

        timed("record the events", record)
        audit = audit_cli.open_audit(settings)
        try:
            timed("append them to the transparency log", audit.tree.extend)
            timed("sign a checkpoint", lambda: audit.sign_checkpoint(datetime.now(UTC)))
            code = timed(
                "verify (every leaf and the root)", lambda: audit_cli.run(audit_cli.parse_args(["verify"]), audit)
            )
            assert code == 0
            for fmt in ("jsonl", "parquet"):
                output = Path(var) / f"export.{fmt}"
                code = timed(
                    f"export {fmt}", lambda o=output: audit_cli.run(audit_cli.parse_args(["export", str(o)]), audit)
                )
                assert code == 0
                print(f"  {output.stat().st_size / 1e6:.1f} MB", flush=True)
        finally:
            audit.close()
            store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
