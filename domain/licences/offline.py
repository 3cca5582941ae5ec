"""What an app's offline licence token says (the claims; integrations/licence_signing.py signs them).

An app runs offline until ``exp`` (now + the offline grace period) and while ``paidUntil`` has not passed; the
``log`` claim lets it (or support) check offline that the licence's latest recorded event is in the store's
signed log: the checkpoint note, and the event's record, leaf index and RFC 9162 inclusion path.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from domain.catalogue.entitlements import entitlements_of
from domain.licences.licence import Standing

TOKEN_TYPE = "unicornpro-licence+jwt"  # noqa: S105  (the JWS typ header, not a secret)


class ClaimedLicence(Protocol):
    """What a token says of a licence: the aggregate has it, and so does the licences view's row."""

    @property
    def id(self) -> UUID: ...
    @property
    def version(self) -> int: ...
    @property
    def product_code(self) -> str: ...
    @property
    def max_devices_count(self) -> int: ...
    @property
    def expires_at(self) -> datetime | None: ...


def licence_claims(
    licence: ClaimedLicence,
    *,
    device_id: str,
    standing: Standing,
    issuer: str,
    now: datetime,
    grace: timedelta,
    log_proof: dict[str, Any] | None,
) -> dict[str, Any]:
    """The token's claims for one device (times in seconds since the epoch, as JWT has them)."""
    paid_until = licence.expires_at
    return {
        "iss": issuer,
        "sub": str(licence.id),
        "iat": int(now.timestamp()),
        "exp": int((now + grace).timestamp()),
        "licence": str(licence.id),
        "device": device_id,
        "product": licence.product_code,
        "status": standing.value,
        "entitlements": entitlements_of(licence.product_code, licence.max_devices_count),
        "paidUntil": int(paid_until.timestamp()) if paid_until is not None else None,
        "graceSeconds": int(grace.total_seconds()),
        "log": _log_claim(log_proof, licence),
    }


def _log_claim(proof: dict[str, Any] | None, licence: ClaimedLicence) -> dict[str, Any] | None:
    if proof is None:
        return None
    return {
        "checkpoint": proof["checkpoint"],
        "size": proof["tree_size"],
        "root": proof["root_hash"],
        "leafIndex": proof["leaf_index"],
        "record": proof["record"],
        "proof": proof["inclusion_path"],
        "current": _proven_version(proof["record"]) == licence.version,
    }


def _proven_version(record: str) -> int:
    return int(json.loads(record)["originator_version"])
