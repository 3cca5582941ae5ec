"""Access tokens ended before they expire, known to every API process within seconds.

Each API process keeps the revocation list (``domain.accounts.revocations``) in memory, so checking a token costs
two dictionary look-ups. A thread of its own fills it: first from the revocations view (the last half hour, and
the log position the view had reached), then by following the log from there, as the views do: woken by
PostgreSQL's NOTIFY or SQLite's doorbell within milliseconds of a commit, reading at least once a second
otherwise, at most twenty times a second when the log is busy, decoding only the events that revoke.

The list is *current* while its last read that found nothing more began less than ``FRESH_WITHIN`` seconds ago:
every revocation committed before then is in it. A token is refused (401) when the list ends it. While the list
is not current (the database out of reach, the thread dead) a call with a token waits up to ``CURRENT_WAIT_SECONDS``
for it and then answers 503 (-1002, try again): the check fails closed, without telling a client whose token may
be good that it is logged out. So a revocation
committed at T refuses its tokens in every process from T + ``FRESH_WITHIN`` at the latest, and in practice
within a few tens of milliseconds.

Why 5 seconds: a healthy follower reports in at least every second (its safety-net read) and within 50 ms of a
commit; the log's own reads retry a dropped connection for two seconds before they fail; 5 s rides out one such
retry and a busy machine's scheduling without refusing good tokens, and still ends a stolen token within seconds
where it lived half an hour.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from domain.accounts.revocations import KEPT_FOR, REVOKING_TOPICS, RevocationList, revocation_of
from domain.accounts.tokens import AccessClaims
from domain.clock import Clock
from eventlog.application import EventLog
from eventlog.database import ViewDatabase
from eventlog.follower import decoded, notification_batches_after
from projections.revocations import recent_revocations

log = logging.getLogger(__name__)

FRESH_WITHIN = 5.0
SAFETY_NET_SECONDS = 1.0
READ_SPACING = 0.05
FIRST_CATCH_UP_SECONDS = 30.0  # how long a starting API waits for the list before it serves tokens
CURRENT_WAIT_SECONDS = 3.0  # how long a call waits for a list that fell behind (a database back from a restart)
PRUNE_EVERY_SECONDS = 60.0
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0)


class RevocationsUnavailableError(Exception):
    """The revocation list is not current, so no token can be checked now (the API answers 503, try again)."""


class Revocations:
    """The process's revocation list and the thread that keeps it current."""

    name = "revocations"

    def __init__(
        self,
        store: EventLog,
        views: ViewDatabase,
        clock: Clock,
        *,
        fresh_within: float = FRESH_WITHIN,
        current_wait: float = CURRENT_WAIT_SECONDS,
    ):
        self._store = store
        self._views = views
        self._clock = clock
        self._fresh_within = fresh_within
        self._current_wait = current_wait
        self._list = RevocationList()
        self._position: int | None = None
        self._caught_up_at: float | None = None
        self._pruned_at = 0.0
        self._first_catch_up = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def start(self) -> None:
        """Start following (once; later calls do nothing)."""
        with self._starting:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._follow, name="revocations", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop following; the list then goes stale and refuses every token."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def is_current(self) -> bool:
        """Has the list caught up with the log within the last ``fresh_within`` seconds?"""
        at = self._caught_up_at
        return at is not None and time.monotonic() - at <= self._fresh_within

    def ends(self, claims: AccessClaims) -> bool:
        """Does a revocation end this token? (Ask ``is_current`` first: a stale list may not know.)"""
        return self._list.ends(claims)

    def wait_for_first_catch_up(self, timeout: float = FIRST_CATCH_UP_SECONDS) -> bool:
        """Start following if not yet, and wait until the list has caught up once (False when it timed out)."""
        self.start()
        return self._first_catch_up.wait(timeout)

    async def until_caught_up_once(self, timeout: float = FIRST_CATCH_UP_SECONDS) -> bool:
        """``wait_for_first_catch_up`` without blocking the event loop (an API started without its lifespan)."""
        if self._first_catch_up.is_set():
            return True
        return await asyncio.to_thread(self.wait_for_first_catch_up, timeout)

    async def until_current(self) -> bool:
        """Wait (without blocking the event loop) until the list is current, or the process's bound passes."""
        if not await self.until_caught_up_once():
            return False
        deadline = time.monotonic() + self._current_wait
        while not self.is_current():
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(READ_SPACING)
        return True

    # As a processor of eventlog.follower: only the revoking topics are decoded.
    def wants(self, topic: str) -> bool:
        """Is ``topic`` one that revokes?"""
        return topic in REVOKING_TOPICS

    def position(self) -> int:
        """How far in the log the list has read."""
        return self._position or 0

    def process(self, event: Any, notification_id: int, previous: int) -> None:
        """Note the revocation an event makes, if any."""
        revocation = revocation_of(event) if event is not None else None
        if revocation is not None:
            self._list.note(revocation)
        self._position = notification_id

    def _follow(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                if self._position is None:
                    self._load_recent()
                for batch in notification_batches_after(
                    self._store, self.position(), self._stop, SAFETY_NET_SECONDS, self._caught_up
                ):
                    self._take(batch)
                    failures = 0
                    self._stop.wait(READ_SPACING)  # a busy log: the next read takes what came meanwhile
            except Exception:
                log.warning("revocations: following the log failed; trying again", exc_info=True)
                self._stop.wait(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1

    def _load_recent(self) -> None:
        recent = recent_revocations(self._views, self._store.name, self._clock.now().timestamp() - KEPT_FOR)
        for revocation in recent.revocations:
            self._list.note(revocation)
        self._position = recent.position
        log.info("revocations: %d from the view, following the log after %d", len(recent.revocations), recent.position)

    def _take(self, batch: Sequence[Any]) -> None:
        for event, notification_id in decoded(self._store, self, batch):
            self.process(event, notification_id, notification_id - 1)

    def _caught_up(self, read_began: float) -> None:
        self._caught_up_at = read_began
        self._first_catch_up.set()
        if read_began - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = read_began
            self._list.forget_before(self._clock.now().timestamp())
