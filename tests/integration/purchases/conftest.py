"""Purchases run against the PortOne sandbox over real HTTP, on each store, on one test clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.catalogue.licences import Catalogue, load_catalogue
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.conftest import clock, portone, sandbox, start_sandbox, webhook_receiver
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.integration.purchases.desk import desk, portone_timeout

__all__ = ["clock", "desk", "portone", "portone_timeout", "sandbox", "start_sandbox", "webhook_receiver"]


@pytest.fixture
def gateway(sandbox: RunningSandbox) -> Iterator[PortOneGateway]:
    adapter = PortOneGateway(sandbox.client())
    yield adapter
    adapter.close()


@pytest.fixture
def domain_clock(clock: TestClock) -> SharedClock:
    return SharedClock(clock)


@pytest.fixture
def catalogue() -> Catalogue:
    return load_catalogue()
