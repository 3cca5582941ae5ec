"""The catalogue in the back office (docs/catalogue.md): every version with its effective time, who made it and why,
and scheduling a new one (``change-prices``, with a reason). The rules are domain/catalogue/versions.py's."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from fastapi import APIRouter
from pydantic import Field

from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.catalogue.versions import CatalogueVersion, load_versions, schedule_version

router = APIRouter(prefix="/staff/catalogue", tags=["staff"], responses=STAFF_ERRORS)


class CatalogueVersionOut(CamelModel):
    """One catalogue version: its licences in the shipped JSON's shape (prices per country, localizations, base
    discounts), when it takes effect, and who made it and why (no actor: the shipped version)."""

    version: int
    effective_at: datetime
    recorded_at: datetime
    actor_id: UUID | None
    reason: str
    licences: list[dict[str, Any]]

    @classmethod
    def of(cls, item: CatalogueVersion) -> CatalogueVersionOut:
        return cls(
            version=item.version,
            effective_at=item.effective_at,
            recorded_at=item.recorded_at,
            actor_id=item.actor_id,
            reason=item.reason,
            licences=item.catalogue.model_dump(mode="json", by_alias=True)["licences"],
        )


class CatalogueOut(CamelModel):
    """Every version, newest first, and the one in force now."""

    in_force: int
    now: datetime
    versions: list[CatalogueVersionOut]


class VersionIn(CamelModel):
    """A new version: the whole catalogue (the latest version's licences, edited), from when, and why."""

    licences: list[dict[str, Any]] = Field(min_length=1, max_length=200)
    effective_at: datetime
    reason: str = Field(min_length=1, max_length=500)


@router.get("")
def catalogue_versions(caller: StaffDep, services: ServicesDep) -> CatalogueOut:
    """Every catalogue version, and which is in force now."""
    versions = load_versions(services.store)
    now = services.clock.now()
    ordered = sorted(versions.versions, key=lambda item: item.version, reverse=True)
    return CatalogueOut(
        in_force=versions.in_force(now).version, now=now, versions=[CatalogueVersionOut.of(item) for item in ordered]
    )


@router.post("/versions", status_code=201)
def schedule_a_version(body: VersionIn, caller: StaffDep, services: ServicesDep) -> CatalogueVersionOut:
    """Schedule a new catalogue version from ``effectiveAt`` (now or later; -2 for the past or an invalid catalogue)."""
    made = schedule_version(
        services.store,
        services.clock,
        caller.member.id,
        licences=body.licences,
        effective_at=body.effective_at,
        reason=body.reason,
    )
    return CatalogueVersionOut.of(made)
