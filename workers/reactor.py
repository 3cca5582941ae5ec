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


def main() -> int:
    """Entry point."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s reactor %(levelname)s %(message)s")
    settings = load_settings()
    log_app = EventLog(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    celery = create_celery(settings)
    processor = ReactionProcessor(celery, db, log_app.name)
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
