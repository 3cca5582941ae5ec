"""The faults suite runs on PostgreSQL (with Redis where a test needs the broker), as production does."""

from __future__ import annotations

import pytest

from tests.conftest import postgres_available, require
from tests.integration.portone.conftest import clock, sandbox, start_sandbox, webhook_receiver
from tests.integration.purchases.desk import desk, portone_timeout

__all__ = ["clock", "desk", "portone_timeout", "sandbox", "start_sandbox", "webhook_receiver"]


@pytest.fixture
def store_kind() -> str:
    """Only PostgreSQL: the faults are production's."""
    require("PostgreSQL", postgres_available())
    return "postgres"
