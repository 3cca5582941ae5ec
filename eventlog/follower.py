"""Following the log: read notifications in order and hand each event to a processor.

On PostgreSQL a LISTEN on the log's channel wakes us (each commit NOTIFYs it); SQLite cannot notify, so its
writers ring a doorbell (eventlog/doorbell.py) and we poll as well. Each read takes what the log holds (up to
BATCH_SIZE), and a processor that can apply a batch in one transaction is given it whole. Processors keep their
own position, so a follower killed at any moment resumes exactly where its last committed transaction left off.
The views, the reactor and the transparency log follow the log this way.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from eventsourcing.persistence import Notification
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL, Identifier

from eventlog.application import EventLog
from eventlog.doorbell import DoorbellListener
from eventlog.tracking import PositionMovedError

log = logging.getLogger(__name__)

BATCH_SIZE = 200
STOP_CHECK_SECONDS = 1.0
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


CaughtUp = Callable[[float], None]


def _poll(
    log_app: EventLog, after: int, stop: threading.Event, interval: float, caught_up: CaughtUp | None
) -> Iterator[Sequence[Notification]]:
    doorbell = log_app.doorbell
    with doorbell.listen() if doorbell is not None else contextlib.nullcontext() as bell:
        position = after
        backoff = PollBackoff(interval)
        while not stop.is_set():
            started = time.monotonic()
            batch = log_app.recorder.select_notifications(start=position + 1, limit=BATCH_SIZE)
            if batch:
                yield batch
                position = batch[-1].id
            if len(batch) < BATCH_SIZE:
                if caught_up is not None:
                    caught_up(started)
                if bell is not None:
                    _wait_for_ring(bell, stop, interval)
                else:
                    stop.wait(backoff.after(found_news=bool(batch)))


def _wait_for_ring(bell: DoorbellListener | threading.Event, stop: threading.Event, interval: float) -> None:
    """Until a commit rings or ``interval`` passes (the safety net), looking at ``stop`` at least every second."""
    deadline = time.monotonic() + interval
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0 or bell.wait(min(remaining, STOP_CHECK_SECONDS)):
            return


class _Channel:
    """One LISTEN on the log's channel for every follower of that log in this process (PostgreSQL notifies after
    each commit): one connection however many views a projector runs, where a LISTEN per follower held a pooled
    connection each and, with as many views as the pool has connections, left none to read the log with."""

    def __init__(self, recorder: PostgresApplicationRecorder) -> None:
        self._recorder = recorder
        self._lock = threading.Lock()
        self._subscribers: set[_Subscription] = set()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._listening = threading.Event()

    @classmethod
    def of(cls, recorder: PostgresApplicationRecorder) -> _Channel:
        """The channel of this recorder's log (made on first use)."""
        with _CHANNELS_LOCK:
            channel: _Channel | None = getattr(recorder, "_storefront_channel", None)
            if channel is None:
                channel = cls(recorder)
                recorder._storefront_channel = channel  # type: ignore[attr-defined]
            return channel

    def subscribe(self) -> _Subscription:
        """A follower's ear on the channel, listening once this returns."""
        subscription = _Subscription(self)
        with self._lock:
            self._subscribers.add(subscription)
            if self._thread is None or not self._thread.is_alive():
                self._stopping, self._listening = threading.Event(), threading.Event()
                self._thread = threading.Thread(
                    target=self._listen, args=(self._stopping, self._listening), name="log-listen", daemon=True
                )
                self._thread.start()
            listening = self._listening
        listening.wait(30)
        return subscription

    def unsubscribe(self, subscription: _Subscription) -> None:
        """The follower stopped; the last one to leave closes the LISTEN."""
        with self._lock:
            self._subscribers.discard(subscription)
            thread = self._thread if not self._subscribers else None
            if thread is not None:
                self._stopping.set()
                self._thread = None
        if thread is not None:
            thread.join(timeout=5)

    def _listen(self, stopping: threading.Event, listening: threading.Event) -> None:
        try:
            with self._recorder.datastore.get_connection() as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(self._recorder.channel_name)))
                listening.set()
                while not stopping.is_set():
                    for _ in conn.notifies(timeout=0.1, stop_after=1):
                        self._ring()
        except BaseException as error:  # raised by each follower at its next wait; the next one listens again
            self._ring(error)
        finally:
            listening.set()
            self._ring()

    def _ring(self, error: BaseException | None = None) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            if error is not None:
                subscription.error = error
            subscription.news.set()


_CHANNELS_LOCK = threading.Lock()


class _Subscription:
    """One follower's ``news`` (set by each commit's notification) and the channel's ``error``, if it failed."""

    def __init__(self, channel: _Channel) -> None:
        self.news = threading.Event()
        self.error: BaseException | None = None
        self._channel = channel

    def close(self) -> None:
        self._channel.unsubscribe(self)


def _listen(
    recorder: PostgresApplicationRecorder,
    after: int,
    stop: threading.Event,
    interval: float,
    caught_up: CaughtUp | None,
) -> Iterator[Sequence[Notification]]:
    notified = _Channel.of(recorder).subscribe()
    try:
        position = after
        while not stop.is_set():
            notified.news.clear()  # before the read: a commit during it sets it again
            started = time.monotonic()
            batch = recorder.select_notifications(start=position + 1, limit=BATCH_SIZE)
            if batch:
                yield batch
                position = batch[-1].id
            if len(batch) < BATCH_SIZE:
                if caught_up is not None:
                    caught_up(started)
                _wait_for_ring(notified.news, stop, interval)  # the interval is the safety net
                if notified.error is not None:
                    raise notified.error
    finally:
        notified.close()


def notification_batches_after(
    log_app: EventLog,
    after: int,
    stop: threading.Event,
    poll_interval: float,
    caught_up: CaughtUp | None = None,
) -> Iterator[Sequence[Notification]]:
    """Every notification after ``after``, then the new ones as they are recorded, until stopped: in batches of
    what the log holds at each read (up to BATCH_SIZE), so a follower that fell behind or faces a busy log takes
    many events at a time.

    ``caught_up`` is told, after the consumer took a read's batch (or the read found nothing), the monotonic time
    at which that read began, when it held all there was: everything committed before that moment has been
    handed over. With nothing new it is told again every ``poll_interval`` (the safety-net read)."""
    recorder = log_app.recorder
    if isinstance(recorder, PostgresApplicationRecorder):
        return _listen(recorder, after, stop, poll_interval, caught_up)
    return _poll(log_app, after, stop, poll_interval, caught_up)


def follow(
    log_app: EventLog,
    processor: Processor,
    stop: threading.Event,
    poll_interval: float = 0.1,
) -> None:
    """Feed ``processor`` every event after its position until ``stop`` is set.

    A processor that takes batches (``process_batch``) gets every batch the log gives at once: one transaction
    for many events. If a batch fails it is rolled back whole and its events are given one at a time, so the
    processor stalls exactly before the event that fails, as it would without batches."""
    batched = getattr(processor, "process_batch", None)
    while not stop.is_set():
        previous = processor.position()
        batches = notification_batches_after(log_app, previous, stop, poll_interval)
        try:
            for batch in batches:
                events = decoded(log_app, processor, batch)
                if batched is not None and len(events) > 1:
                    try:
                        batched(events, previous)
                    except PositionMovedError:
                        raise
                    except Exception:
                        log.info("%s: a batch of %d events failed; applying them one at a time", processor.name,
                                 len(events))  # fmt: skip
                    else:
                        previous = events[-1][1]
                        continue
                for event, notification_id in events:
                    processor.process(event, notification_id, previous)
                    previous = notification_id
        except PositionMovedError:
            log.info("%s: position moved underneath us, resuming from the stored one", processor.name)
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()


def decoded(log_app: EventLog, processor: Processor, batch: Sequence[Notification]) -> list[tuple[Any, int]]:
    """Each notification's event and id; a processor that tells which topics it wants (``wants``) gets None for
    the others, which are never decoded (decoding is most of what following costs a view that skips an event)."""
    wants = getattr(processor, "wants", None)
    return [
        (log_app.mapper.to_domain_event(item) if wants is None or wants(item.topic) else None, item.id)
        for item in batch
    ]


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
            events = decoded(log_app, processor, batch)
            if batched is not None:
                batched(events, previous)
                previous = batch[-1].id
            else:
                for event, notification_id in events:
                    processor.process(event, notification_id, previous)
                    previous = notification_id
        except PositionMovedError:
            log.info("%s: position moved underneath us, resuming from the stored one", processor.name)
            previous = processor.position()
            continue
        if progressed is not None:
            progressed(len(batch))
