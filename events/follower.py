"""Following the log: read notifications in order and hand each event to a processor.

On PostgreSQL the library's LISTEN/NOTIFY subscription wakes us; SQLite cannot notify, so its writers ring a
doorbell (events/doorbell.py) and we poll as well. Processors keep their own position, so a follower killed at
any moment resumes exactly where its last committed transaction left off. The views and the transparency log
follow the log this way.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from eventsourcing.persistence import Notification

from events.application import EventLog
from events.tracking import PositionMovedError

log = logging.getLogger(__name__)

BATCH_SIZE = 200
BUSY_POLL_SECONDS = 0.01  # how soon to look again after finding news; backs off to the idle interval


class Processor(Protocol):
    """Something that handles events in log order and remembers how far it got."""

    name: str

    def position(self) -> int: ...

    def process(self, event: Any, notification_id: int, previous: int) -> None: ...


@dataclass
class PollBackoff:
    """How long to wait before the next look at the log: soon after news, so that a busy log is followed within
    about BUSY_POLL_SECONDS (a purchase's confirm waits for the views and should not wait out a whole idle
    interval), doubling while there is none, up to the idle interval."""

    idle_interval: float
    wait: float = field(init=False)

    def __post_init__(self) -> None:
        self.wait = self.idle_interval

    def after(self, found_news: bool) -> float:
        """The wait after a look that did or did not find new notifications."""
        quickest = min(BUSY_POLL_SECONDS, self.idle_interval)
        self.wait = quickest if found_news else min(max(self.wait, quickest) * 2, self.idle_interval)
        return self.wait


def _poll(log_app: EventLog, after: int, stop: threading.Event, interval: float) -> Iterator[Notification]:
    doorbell = log_app.doorbell
    with doorbell.listen() if doorbell is not None else contextlib.nullcontext() as bell:
        position = after
        backoff = PollBackoff(interval)
        while not stop.is_set():
            batch = log_app.recorder.select_notifications(start=position + 1, limit=BATCH_SIZE)
            for notification in batch:
                yield notification
                position = notification.id
            if len(batch) < BATCH_SIZE:
                if bell is not None:
                    bell.wait(interval)  # a commit rings; the interval is the safety net and the stop check
                else:
                    stop.wait(backoff.after(found_news=bool(batch)))


def _listen(subscription: Any, stop: threading.Event) -> Iterator[Notification]:
    finished = threading.Event()

    def stop_when_asked() -> None:
        while not (stop.wait(0.1) or finished.is_set()):
            pass
        subscription.stop()

    threading.Thread(target=stop_when_asked, daemon=True).start()
    try:
        with subscription:
            yield from subscription
    finally:
        finished.set()


def notifications_after(
    log_app: EventLog, after: int, stop: threading.Event, poll_interval: float
) -> Iterator[Notification]:
    """Every notification after ``after``, then each new one as it is recorded, until stopped."""
    try:
        subscription = log_app.recorder.subscribe(gt=after)
    except NotImplementedError:
        return _poll(log_app, after, stop, poll_interval)
    return _listen(subscription, stop)


def follow(
    log_app: EventLog,
    processor: Processor,
    stop: threading.Event,
    poll_interval: float = 0.1,
) -> None:
    """Feed ``processor`` every event after its position until ``stop`` is set."""
    while not stop.is_set():
        previous = processor.position()
        notifications = notifications_after(log_app, previous, stop, poll_interval)
        try:
            for notification in notifications:
                event = log_app.mapper.to_domain_event(notification)
                processor.process(event, notification.id, previous)
                previous = notification.id
        except PositionMovedError:
            log.info("%s: position moved underneath us, resuming from the stored one", processor.name)
        finally:
            close = getattr(notifications, "close", None)
            if close is not None:
                close()


def process_until(
    log_app: EventLog, processor: Processor, target: int, progressed: Callable[[int], None] | None = None
) -> None:
    """Feed ``processor`` every event after its position up to ``target``, then return (no waiting).

    A processor that can take a batch (``process_batch``: the events and their ids, applied with the position
    in one transaction) gets up to BATCH_SIZE events at a time, which is what makes a rebuild fast; the others
    get one event at a time. ``progressed`` is told how many events each step applied (a progress bar)."""
    previous = processor.position()
    batched = getattr(processor, "process_batch", None)
    while previous < target:
        batch = log_app.recorder.select_notifications(start=previous + 1, limit=BATCH_SIZE, stop=target)
        if not batch:
            return
        try:
            if batched is not None:
                batched([(log_app.mapper.to_domain_event(item), item.id) for item in batch], previous)
                previous = batch[-1].id
            else:
                for notification in batch:
                    processor.process(log_app.mapper.to_domain_event(notification), notification.id, previous)
                    previous = notification.id
        except PositionMovedError:
            log.info("%s: position moved underneath us, resuming from the stored one", processor.name)
            previous = processor.position()
            continue
        if progressed is not None:
            progressed(len(batch))
