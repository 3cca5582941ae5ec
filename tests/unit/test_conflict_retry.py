"""A command that loses a write race is retried a bounded number of times."""

from __future__ import annotations

import pytest
from eventsourcing.persistence import IntegrityError

from events.concurrency import ConflictPersistedError, retry_on_conflict


def test_a_command_that_conflicts_twice_succeeds_on_the_third_attempt() -> None:
    attempts: list[int] = []
    pauses: list[float] = []

    def command() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise IntegrityError("someone else wrote first")
        return "saved"

    assert retry_on_conflict(command, sleep=pauses.append) == "saved"
    assert len(attempts) == 3
    assert len(pauses) == 2 and pauses[1] > pauses[0] * 1.0


def test_a_command_that_always_conflicts_gives_up() -> None:
    calls: list[int] = []

    def command() -> None:
        calls.append(1)
        raise IntegrityError("always")

    with pytest.raises(ConflictPersistedError):
        retry_on_conflict(command, attempts=4, sleep=lambda _: None)
    assert len(calls) == 4


def test_other_errors_are_not_retried() -> None:
    calls: list[int] = []

    def command() -> None:
        calls.append(1)
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):
        retry_on_conflict(command, sleep=lambda _: None)
    assert len(calls) == 1
