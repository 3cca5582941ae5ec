"""The apps' validation limits shared by every API process through Redis, without a Redis round trip per validation.

Validations are the most frequent call by far: counting each in Redis (two round trips with ``limits``, or one with a
script of our own, awaited) cost a third to a half of a validation's throughput, and on a busy host a validation then
waits on the Redis server's turn for the CPU (bench/RESULTS.md). So each process decides at once from its own exact
windows (``integrations.rate_windows``), as without Redis, and once a second a thread adds what the process let
through to counts in Redis (per identity, in buckets of a minute) and learns which identities are over their budget
across every process; those are refused here until their oldest counted minute leaves the window. A client spreading
its calls over N processes therefore gets its budget, plus what it can send in about a second, not N budgets.
A Redis that does not answer leaves each process counting for itself until it does.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

import redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

PREFIX = "LIMITS:storefront:shared"
BUCKET_SECONDS = 60
SYNC_SECONDS = 1.0
KEYS_PER_CALL = 500
TIMEOUT_SECONDS = 1.0

# KEYS: the identities; ARGV: now, the bucket's seconds, then hits, limit and window seconds per identity. Adds the
# hits to the identity's current bucket and answers, for each identity whose buckets in the window add up to its
# limit, its index and when its oldest counted bucket leaves the window.
ADD_AND_COUNT = """
local now = tonumber(ARGV[1])
local width = tonumber(ARGV[2])
local current = math.floor(now / width)
local over = {}
for i, key in ipairs(KEYS) do
  local at = 2 + (i - 1) * 3
  local hits, limit, expiry = tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local span = math.ceil(expiry / width)
  if hits > 0 then
    redis.call('incrby', key .. ':' .. current, hits)
    redis.call('expire', key .. ':' .. current, expiry + width)
  end
  local names = {}
  for bucket = current - span + 1, current do
    names[#names + 1] = key .. ':' .. bucket
  end
  local counts = redis.call('mget', unpack(names))
  local total, oldest = 0, nil
  for index, count in ipairs(counts) do
    local n = tonumber(count or '0') or 0
    if n > 0 then
      total = total + n
      if oldest == nil then oldest = current - span + index end
    end
  end
  if total >= limit then
    over[#over + 1] = i - 1
    over[#over + 1] = tostring((oldest + span) * width)
  end
end
return over
"""


class SharedWindows:
    """Counts of identities (a client, a licence key) shared through Redis, synced once a second by a thread."""

    def __init__(self, url: str, now: Callable[[], float] = time.time, sync_seconds: float = SYNC_SECONDS) -> None:
        client = redis.Redis.from_url(url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS)
        self._script = client.register_script(ADD_AND_COUNT)
        self._client = client
        self._now = now
        self._sync_seconds = sync_seconds
        self._lock = threading.Lock()
        self._pending: dict[str, list[int]] = {}  # identity -> [hits since the last sync, limit, window seconds]
        self._over: dict[str, float] = {}  # identity -> until when every process refuses it (wall time)
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._warned_at = -math.inf

    def wait(self, identity: str) -> int:
        """Seconds the shared count says ``identity`` must still wait (0: it may go on)."""
        until = self._over.get(identity)
        if until is None:
            return 0
        left = until - self._now()
        if left <= 0:
            self._over.pop(identity, None)
            return 0
        return max(1, math.ceil(left))

    def count(self, identity: str, limit: int, expiry: int) -> None:
        """A hit this process let through, for the next sync (which this starts, the first time)."""
        with self._lock:
            pending = self._pending.get(identity)
            if pending is None:
                self._pending[identity] = [1, limit, expiry]
            else:
                pending[0] += 1
        if self._thread is None:
            self._start()

    def sync(self) -> None:
        """Add this process's counts to Redis and learn which identities are over their budget everywhere."""
        with self._lock:
            pending, self._pending = self._pending, {}
        identities = list(pending)
        now = self._now()
        for start in range(0, len(identities), KEYS_PER_CALL):
            chunk = identities[start : start + KEYS_PER_CALL]
            args: list[float | int] = [now, BUCKET_SECONDS]
            for identity in chunk:
                args += pending[identity]
            over = self._script(keys=[f"{PREFIX}/{identity}" for identity in chunk], args=args)
            for index, until in zip(over[::2], over[1::2], strict=True):
                self._over[chunk[int(index)]] = float(until)

    def close(self) -> None:
        """Stop syncing (the process stops); what was not synced yet is not counted."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._client.close()

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._sync_every_while, name="shared-windows", daemon=True)
        self._thread.start()

    def _sync_every_while(self) -> None:
        while not self._stopped.wait(self._sync_seconds):
            try:
                self.sync()
            except (RedisError, OSError) as down:
                if time.monotonic() - self._warned_at > 60:
                    self._warned_at = time.monotonic()
                    log.warning("validations are counted in each process only: Redis does not answer (%s)", down)
