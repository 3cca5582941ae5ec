"""Rate-limit counters kept in the API process when there is no Redis (the embedded mode), for ``limits``.

``limits``' own memory storage re-arms a timer thread every 10 ms that walks every counter to drop expired
entries, and inserts each hit at the front of a list. Under app validations from thousands of clients that walk
took about a sixth of the API's CPU (bench/RESULTS.md). Here each moving window keeps only the newest ``limit``
hit times (a bounded deque: the only one a decision looks at is the ``limit``-th newest), and windows that have
run out are dropped by a sweep at most once a minute, on whichever call comes along, with no thread of its own.
The decisions are the library's moving window's: a hit is refused while ``limit`` hits lie within ``expiry``.

Memory is bounded: at most ``MAX_WINDOWS`` keys are kept. A new key beyond that sweeps at once, and if every key
is still live, the oldest key is forgotten (a flood of new identities relaxes the oldest counts rather than
growing the process without end; each window is at most ``limit`` floats).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from limits.storage import MovingWindowSupport, Storage

SWEEP_SECONDS = 60.0
MAX_WINDOWS = 100_000


class InProcessWindows(Storage, MovingWindowSupport):
    """Moving windows (and the fixed counters the storage interface also asks for) in this process's memory."""

    STORAGE_SCHEME = ["storefront-memory"]  # noqa: RUF012 - the library registers storages by this list

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        now: Callable[[], float] = time.time,
        max_windows: int = MAX_WINDOWS,
        **options: str,
    ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._now = now  # the wall clock, as the limits library's strategies read it
        self._lock = threading.Lock()
        self._windows: dict[str, deque[float]] = {}  # newest hit first
        self._counters: dict[str, int] = {}
        self._expires: dict[str, float] = {}  # when a key's window or counter has nothing left in it
        self._max_windows = max_windows
        self._next_sweep = now() + SWEEP_SECONDS

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Take ``amount`` places in the window unless ``limit`` hits already lie within ``expiry`` seconds."""
        if amount > limit:
            return False
        with self._lock:
            now = self._now()  # read under the lock: hits go in in the order of their times
            self._sweep_if_due(now)
            window = self._windows.get(key)
            if window is None:
                self._make_room(now)
                window = self._windows[key] = deque(maxlen=limit)
            elif window.maxlen != limit:
                window = self._windows[key] = deque(list(window)[:limit], maxlen=limit)  # the newest
            if len(window) > limit - amount and window[limit - amount] >= now - expiry:
                return False
            window.extendleft([now] * amount)
            self._expires[key] = now + expiry
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(time of the oldest hit still in the window, how many hits are in it); (now, 0) when empty."""
        with self._lock:
            now = self._now()
            inside = [hit for hit in self._windows.get(key, ()) if hit > now - expiry]
        return (inside[-1], len(inside)) if inside else (now, 0)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """A fixed-window counter: add ``amount``; a counter that has run out starts again for ``expiry`` s."""
        with self._lock:
            now = self._now()
            self._sweep_if_due(now)
            if key not in self._expires:
                self._make_room(now)
            if self._expires.get(key, 0) <= now:
                self._counters[key] = 0
                self._expires[key] = now + expiry
            self._counters[key] = self._counters.get(key, 0) + amount
            return self._counters[key]

    def get(self, key: str) -> int:
        """The fixed-window counter's value (0 once it has run out)."""
        with self._lock:
            return self._counters.get(key, 0) if self._expires.get(key, 0) > self._now() else 0

    def get_expiry(self, key: str) -> float:
        """When the key's counter or window runs out (now when it has)."""
        with self._lock:
            return self._expires.get(key, self._now())

    def check(self) -> bool:
        """Memory is always there."""
        return True

    def reset(self) -> int | None:
        """Forget every counter and window; how many keys there were."""
        with self._lock:
            count = len(self._expires)
            self._windows.clear()
            self._counters.clear()
            self._expires.clear()
            return count

    def clear(self, key: str) -> None:
        """Forget one key."""
        with self._lock:
            self._drop(key)

    def _sweep_if_due(self, now: float) -> None:
        # A wall clock stepped back by more than a sweep's interval sweeps too, rather than waiting to catch up.
        if self._next_sweep - 2 * SWEEP_SECONDS < now < self._next_sweep:
            return
        self._sweep(now)

    def _sweep(self, now: float) -> None:
        self._next_sweep = now + SWEEP_SECONDS
        for key in [key for key, until in self._expires.items() if until <= now]:
            self._drop(key)

    def _make_room(self, now: float) -> None:
        if len(self._expires) < self._max_windows:
            return
        self._sweep(now)
        while len(self._expires) >= self._max_windows:
            self._drop(next(iter(self._expires)))  # the key first counted longest ago

    def _drop(self, key: str) -> None:
        self._windows.pop(key, None)
        self._counters.pop(key, None)
        self._expires.pop(key, None)
