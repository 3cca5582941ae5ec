"""``python -m projections``: run the projector, rebuild views, or show their positions and stalls.

A process entry point: it takes the log and the view database from the composition
root (``bootstrap``), which import-linter allows this module alone in ``projections``.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import ExitStack

from tqdm import tqdm

from bootstrap import Services
from bootstrap.services import open_audit
from config.settings import load_settings
from eventlog.audit import Audit
from eventlog.database import ViewDatabase
from eventlog.tracking import positions
from projections.catalogue import all_views
from projections.leases import AlwaysHeld, Leases, PostgresLeases
from projections.runner import Projector, retrying
from projections.stalls import stalled

TREE = "transparency_log"  # the lease of the transparency log's follower


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m projections")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="follow the log and keep every view up to date (default)")
    rebuild = commands.add_parser("rebuild", help="empty views and replay the whole log into them")
    rebuild.add_argument("views", nargs="*", help="view names (default: all)")
    rebuild.add_argument("--no-catch-up", action="store_true", help="only reset; let a running projector replay")
    commands.add_parser("status", help="print each view's position and the log's head")
    commands.add_parser("stalls", help="print each stalled follower: where, why, since when (exit 1 when any)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s projector %(levelname)s %(message)s")

    views = all_views()
    # A connection for each view's follower (each LISTENs on one of its own), the transparency log's thread, the
    # leases and a spare.
    services = Services.build(load_settings().with_connections_for(len(views) + 3))
    log_app, db, settings = services.store, services.views, services.settings
    leases = _leases(db, log_app.name, [view.name for view in views]) if args.command in (None, "run") else None
    projector = Projector(log_app, db, views, settings.projector_poll_seconds, leases)
    try:
        if args.command == "rebuild":
            projector.rebuild(args.views)
            if not args.no_catch_up:
                with ExitStack() as bars:
                    projector.catch_up(args.views, lambda view, total: _bar(bars, view, total))
            print(f"rebuilt {', '.join(args.views) or 'all views'} up to {log_app.max_notification_id()}")
            return 0
        if args.command == "stalls":
            return _print_stalls(db, log_app.name)
        if args.command == "status":
            print(f"log head: {log_app.max_notification_id()}")
            for name, position in sorted(positions(db, log_app.name).items()):
                print(f"{name}: {position}")
            return 0
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        logging.getLogger(__name__).info("following the %s log", settings.store_kind)
        audit = open_audit(settings, log_app)
        assert leases is not None
        tree = threading.Thread(target=_follow_tree, args=(audit, leases, stop), name="transparency-log")
        tree.start()
        try:
            projector.run(stop)
        finally:
            stop.set()
            tree.join()
            audit.close()
        return 0
    finally:
        if leases is not None:
            leases.close()
        services.close()


def _print_stalls(db: ViewDatabase, application_name: str) -> int:
    """One line a stalled follower (the projector's views and the reactor); 1 when any is stalled."""
    found = stalled(db, application_name)
    for name, stall in sorted(found.items()):
        print(
            f"{name}: stalled after {stall['position']} since {stall['since']}, "
            f"{stall['attempts']} attempts: {stall['error']}"
        )
    if not found:
        print("no follower is stalled")
    return 1 if found else 0


def _bar(bars: ExitStack, view: str, total: int) -> Callable[[int], None]:
    """A progress bar on stderr for one view's replay (events applied of ``total``)."""
    bar = bars.enter_context(tqdm(total=total, desc=view, unit="event", unit_scale=True, file=sys.stderr))

    def applied(count: int) -> None:
        bar.update(count)

    return applied


def _leases(db: ViewDatabase, application_name: str, views: list[str]) -> Leases:
    """Advisory locks on PostgreSQL, so that replicas of the projector run each view once; on SQLite, none."""
    conninfo = getattr(db, "conninfo", None)
    if conninfo is None:
        return AlwaysHeld()
    return PostgresLeases(conninfo, application_name, [*views, TREE])


def _follow_tree(audit: Audit, leases: Leases, stop: threading.Event) -> None:
    """Append every new event to the transparency log whenever this replica holds its lease; a failure is retried
    with back-off, as a view's is."""
    while (tenure := leases.tenure(TREE, stop)) is not None:
        _follow_tree_while(audit, tenure)


def _follow_tree_while(audit: Audit, stop: threading.Event) -> None:
    attempts = 0

    def failed(error: Exception) -> int:
        nonlocal attempts
        attempts += 1
        logging.getLogger(__name__).exception("the transparency log stalled (attempt %s); retrying", attempts)
        return attempts

    retrying(lambda: audit.tree.follow(stop), stop, failed)


if __name__ == "__main__":
    sys.exit(main())
