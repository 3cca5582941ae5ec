"""A clock every process shares and a test harness can move forward (like Stripe's test clocks).

Only wired when ``TEST_CLOCK`` is on (never in production): its offset from the system time lives in the view
database, so the API, the workers, beat and the PortOne sandbox all see the same "now" when a test jumps a month
ahead to drive renewals and deadlines.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from eventlog.database import ViewDatabase

# Every process reads the stored offset again at most this long after its last read: a moved clock is seen by
# every process within this bound (tests wait it out rather than guess).
REFRESH_SECONDS = 0.2
TEST_CLOCK_DDL = "CREATE TABLE IF NOT EXISTS test_clock (id INTEGER PRIMARY KEY, offset_seconds BIGINT NOT NULL)"


class SharedTestClock:
    """System time plus a stored offset; reads the offset at most every ``refresh`` seconds."""

    def __init__(self, db: ViewDatabase, refresh: float = REFRESH_SECONDS) -> None:
        self._db = db
        self._refresh = refresh
        self._offset = timedelta(0)
        self._read_at = float("-inf")
        # Every process of a stack creates the table as it starts; on PostgreSQL two first creations can race
        # (the loser's catalogue conflict is harmless), so the loser tries once more, when the table exists.
        for attempt in range(2):
            try:
                with db.transaction() as cursor:
                    cursor.execute(TEST_CLOCK_DDL)
                    cursor.execute(
                        "INSERT INTO test_clock (id, offset_seconds) VALUES (1, 0) ON CONFLICT (id) DO NOTHING"
                    )
                return
            except Exception:
                if attempt:
                    raise

    def now(self) -> datetime:
        if time.monotonic() - self._read_at > self._refresh:
            with self._db.read() as cursor:
                cursor.execute("SELECT offset_seconds FROM test_clock WHERE id = 1")
                row = cursor.fetchone()
            self._offset = timedelta(seconds=int(row["offset_seconds"]) if row else 0)
            self._read_at = time.monotonic()
        return datetime.now(UTC) + self._offset

    def advance(self, delta: timedelta) -> datetime:
        """Move every process's time forward by ``delta`` (never backward)."""
        if delta < timedelta(0):
            raise ValueError("time only moves forward")
        with self._db.transaction() as cursor:
            cursor.execute(
                "UPDATE test_clock SET offset_seconds = offset_seconds + %(seconds)s WHERE id = 1",
                {"seconds": int(delta.total_seconds())},
            )
        self._read_at = float("-inf")
        return self.now()
