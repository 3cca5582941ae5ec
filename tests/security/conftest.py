"""The attacker's probe runs against the same desk as the purchase stories: the API over HTTP, the PortOne sandbox,
the workers' tasks, on each store."""

from __future__ import annotations

from tests.integration.purchases.conftest import (
    clock,
    desk,
    portone,
    portone_timeout,
    sandbox,
    start_sandbox,
    webhook_receiver,
)

__all__ = ["clock", "desk", "portone", "portone_timeout", "sandbox", "start_sandbox", "webhook_receiver"]
