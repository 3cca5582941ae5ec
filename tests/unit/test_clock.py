"""The test clock stands still until moved, and only moves forward."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.fakes import ManualClock
from tests.support import START


def test_the_manual_clock_moves_only_when_and_as_far_as_told() -> None:
    clock = ManualClock(START)
    assert clock.now() == START
    assert clock.advance(timedelta(days=30)) == START + timedelta(days=30)
    assert clock.now() == START + timedelta(days=30)


def test_the_manual_clock_refuses_to_go_back() -> None:
    with pytest.raises(ValueError, match="forward"):
        ManualClock(START).advance(timedelta(seconds=-1))
