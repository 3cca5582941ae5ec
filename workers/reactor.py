"""``python -m workers.reactor``: start the tasks that recorded events call for."""

from __future__ import annotations

import logging
import signal
import sys
import threading

from bootstrap import Services
from eventlog.passed_over import keep_flushing
from projections.runner import StallLog, keep_following
from workers.celery_app import create_celery
from workers.reactions import ReactionProcessor
from workers.resends import MailResender, keep_sweeping

HEALTHY_LAG = 1000
# How long the position may stay before events that sent no task before it is recorded past them.
FLUSH_SECONDS = 0.05


def main(argv: list[str] | None = None) -> int:
    """Entry point; ``--check`` exits 1 when the reactor trails the log by more than 1000 events."""
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s reactor %(levelname)s %(message)s")
    services = Services.build()
    try:
        celery = create_celery(services.settings)
        processor = ReactionProcessor(celery, services.views, services.store.name)
        if check:
            lag = services.store.max_notification_id() - processor.position()
            print(f"reactor lag: {lag}")
            return 0 if lag <= HEALTHY_LAG else 1
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        # A broker that is down (or any failure) stalls the reactor, which retries the same event with
        # back-off until the tasks are sent: nothing is lost, the log is the outbox.
        stalls = StallLog(services.views, services.store.name)
        resender = MailResender(celery, services.views, services.store)
        sweeping = threading.Thread(
            target=keep_sweeping,
            args=(resender, processor.position, stop, services.settings.mail_resend_seconds),
            name="mail-resends",
            daemon=True,
        )
        sweeping.start()
        flushing = threading.Thread(
            target=keep_flushing, args=(lambda: [processor], stop, FLUSH_SECONDS), name="reactions-flush", daemon=True
        )
        flushing.start()
        keep_following(services.store, processor, stop, services.settings.projector_poll_seconds, stalls)
        sweeping.join(timeout=10)
        flushing.join(timeout=10)
        return 0
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
