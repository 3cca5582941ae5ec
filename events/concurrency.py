"""Bounded retry of a command whose write lost a race with another writer."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from eventsourcing.persistence import IntegrityError

T = TypeVar("T")

DEFAULT_ATTEMPTS = 5


class ConflictPersistedError(Exception):
    """A command still conflicted after every allowed attempt."""


def retry_on_conflict(
    command: Callable[[], T],
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    base_delay: float = 0.01,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run ``command``; when its save raises IntegrityError, reload and run it again.

    The command must load the aggregates it changes itself, so that each attempt
    starts from the latest recorded version. Jittered exponential backoff keeps
    two racing writers from colliding forever.
    """
    for attempt in range(1, attempts + 1):
        try:
            return command()
        except IntegrityError as error:
            if attempt == attempts:
                raise ConflictPersistedError(f"gave up after {attempts} attempts") from error
            sleep(base_delay * (2 ** (attempt - 1)) * (1 + random.random()))
    raise AssertionError("unreachable")  # pragma: no cover
