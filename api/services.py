"""What requests use: the composition root's services, plus the API's rate limits and read-your-writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any
from uuid import UUID

import anyio
from fastapi import Depends, Request

import bootstrap
from api.ratelimit import RateLimiter
from api.revocations import Revocations
from bootstrap.services import open_audit
from eventlog.audit import Audit
from eventlog.checkpoints import NewestCheckpoint
from eventlog.tracking import wait_for_views
from integrations.licence_signing import LicenceSigner
from integrations.redis_windows import SharedWindows

IMAGE_DECODES_AT_ONCE = 2


@dataclass(eq=False)
class Services(bootstrap.Services):
    """The process's services as routers see them (built with ``Services.build``, like every process's)."""

    limiter: RateLimiter = field(init=False)
    revocations: Revocations = field(init=False)
    # Uploaded images are decoded on threads, this many at once in a process; others wait their turn within
    # the request budget. With the pixel bound of domain.images that bounds the memory decoding can take.
    image_decodes: anyio.CapacityLimiter = field(init=False)

    def __post_init__(self) -> None:
        shared = SharedWindows(self.settings.redis_url) if self.settings.redis_url else None
        self.limiter = RateLimiter(self.rate_limits, self.settings.auth_secret, shared)
        self.image_decodes = anyio.CapacityLimiter(IMAGE_DECODES_AT_ONCE)
        # Started by the app's lifespan (or by the first token it reads), stopped by ``close``.
        self.revocations = Revocations(self.store, self.views, self.clock)

    def close(self) -> None:
        """Stop following revocations, then release what the composition root opened."""
        self.revocations.stop()
        self.limiter.close()
        if "audit" in self.__dict__:
            self.audit.close()
        super().close()

    @cached_property
    def log_proofs(self) -> dict[tuple[UUID, int], dict[str, Any] | None]:
        """Log proofs of licences' latest events by (licence, checkpoint size), for api/licence_tokens.py."""
        return {}

    @cached_property
    def newest_checkpoint(self) -> NewestCheckpoint:
        """The newest signed checkpoint as this process last read it, for api/licence_tokens.py."""
        return NewestCheckpoint(self.audit.checkpoints)

    @cached_property
    def licence_signer(self) -> LicenceSigner:
        """Signs the apps' offline licence tokens (LICENCE_SIGNING_SECRET; previous keys stay published)."""
        previous = self.settings.licence_previous_public_keys.split(",")
        return LicenceSigner(self.settings.licence_signing_secret, [k.strip() for k in previous])

    @cached_property
    def audit(self) -> Audit:
        """The transparency log and its signed checkpoints, for the proofs licence tokens carry."""
        return open_audit(self.settings, self.store)

    @property
    def secure_cookies(self) -> bool:
        """Cookies get the Secure flag when the site is served over HTTPS."""
        return self.settings.base_url.startswith("https://")

    def see_own_write(self, notification_id: int, *view_names: str) -> bool:
        """Wait (bounded) until the named views include the given log position."""
        return wait_for_views(self.views, self.store.name, view_names, notification_id, self.settings.view_wait_seconds)

    def see_latest_write(self, *view_names: str) -> bool:
        """Wait (bounded) until the named views include everything in the log so far.

        For writes whose own position the caller does not hold (a use case that may record nothing or several
        events): the next read, by this client or an app, is answered from those views.
        """
        return self.see_own_write(self.store.max_notification_id(), *view_names)


async def get_services(request: Request) -> Services:
    """FastAPI dependency: the app's services (async: a plain dependency would cost each request a thread hop)."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]
