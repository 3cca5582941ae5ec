"""``python -m workers.reactor``: start the tasks that recorded events call for."""

from __future__ import annotations

import logging
import signal
import sys
import threading

from config.settings import load_settings
from events.application import EventLog
from projections.database import open_view_database
from projections.follower import follow
from workers.celery_app import create_celery
from workers.reactions import ReactionProcessor

HEALTHY_LAG = 1000


def main(argv: list[str] | None = None) -> int:
    """Entry point; ``--check`` exits 1 when the reactor trails the log by more than 1000 events."""
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s reactor %(levelname)s %(message)s")
    settings = load_settings()
    log_app = EventLog(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    celery = create_celery(settings)
    processor = ReactionProcessor(celery, db, log_app.name)
    if check:
        lag = log_app.max_notification_id() - processor.position()
        print(f"reactor lag: {lag}")
        db.close()
        log_app.close()
        return 0 if lag <= HEALTHY_LAG else 1
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    try:
        follow(log_app, processor, stop, settings.projector_poll_seconds)
    finally:
        db.close()
        log_app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
