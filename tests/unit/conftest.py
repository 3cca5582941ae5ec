"""Fixtures of the unit suite."""

from __future__ import annotations

import pytest

from tests.unit.billing_world import World


@pytest.fixture
def world() -> World:
    """A fresh billing world: the in-memory log, a clock standing at START, the fake gateway, the catalogue."""
    return World()
