"""The projector: keeps every view following the log, one thread per view."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from events.application import EventLog
from projections.database import ViewDatabase
from projections.follower import ViewProcessor, follow
from projections.view import View

log = logging.getLogger(__name__)


class Projector:
    """Runs a set of views against one log and one view database."""

    def __init__(
        self,
        log_app: EventLog,
        db: ViewDatabase,
        views: Sequence[View],
        poll_interval: float = 0.1,
    ) -> None:
        self._log = log_app
        self._poll_interval = poll_interval
        self.processors = {view.name: ViewProcessor(view, db, log_app.name) for view in views}
        self.errors: list[BaseException] = []

    def setup(self) -> None:
        """Create every view's tables (idempotent)."""
        for processor in self.processors.values():
            processor.setup()

    def run(self, stop: threading.Event) -> None:
        """Follow the log until ``stop`` is set; a view that fails stops them all."""
        self.setup()
        threads = [
            threading.Thread(target=self._follow, args=(processor, stop), name=f"view-{name}")
            for name, processor in self.processors.items()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if self.errors:
            raise self.errors[0]

    def _follow(self, processor: ViewProcessor, stop: threading.Event) -> None:
        try:
            follow(self._log, processor, stop, self._poll_interval)
        except BaseException as error:  # the whole projector stops, and its supervisor restarts it
            log.exception("view %s failed", processor.name)
            self.errors.append(error)
            stop.set()

    def rebuild(self, names: Sequence[str]) -> None:
        """Empty the named views (all when none named) and rewind them to the start of the log."""
        chosen = names or list(self.processors)
        unknown = [name for name in chosen if name not in self.processors]
        if unknown:
            raise KeyError(f"unknown views: {', '.join(unknown)}")
        for name in chosen:
            self.processors[name].setup()
            self.processors[name].drop_and_reset()

    def catch_up(self, names: Sequence[str] = ()) -> None:
        """Process everything recorded so far, then return."""
        target = self._log.max_notification_id()
        for name in names or list(self.processors):
            processor = self.processors[name]
            stop = threading.Event()
            watcher = threading.Thread(target=_stop_when_reached, args=(processor, target, stop), daemon=True)
            watcher.start()
            follow(self._log, processor, stop, self._poll_interval)


def _stop_when_reached(processor: ViewProcessor, target: int, stop: threading.Event) -> None:
    while processor.position() < target:
        if stop.wait(0.05):
            return
    stop.set()
