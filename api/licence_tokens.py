"""The offline licence token an app gets with a valid answer (claims: domain/licences/offline.py)."""

from __future__ import annotations

import logging
from contextlib import suppress
from datetime import timedelta
from typing import Any

from api.services import Services
from domain.licences.licence import Standing, UserLicence
from domain.licences.offline import TOKEN_TYPE, licence_claims

log = logging.getLogger(__name__)
PROOFS_KEPT = 10_000  # log proofs kept per process (oldest dropped first)


def licence_token(services: Services, licence: UserLicence, device_id: str, standing: Standing) -> str | None:
    """A signed token for a device the licence is valid on (None otherwise)."""
    if standing is not Standing.VALID:
        return None
    try:
        proof = _log_proof(services, licence)
    except Exception:  # the token is still useful without the log's proof; the app can ask again later
        log.exception("no log proof for licence %s", licence.id)
        proof = None
    claims = licence_claims(
        licence,
        device_id=device_id,
        standing=standing,
        issuer=services.settings.base_url,
        now=services.clock.now(),
        grace=timedelta(days=services.settings.licence_offline_grace_days),
        log_proof=proof,
    )
    return services.licence_signer.sign(claims, TOKEN_TYPE)


def _log_proof(services: Services, licence: UserLicence) -> dict[str, Any] | None:
    """The proof for the licence as it is now in the newest checkpoint: computed once per licence version and
    checkpoint (a proof never changes), so a validation reads one row, the newest checkpoint's, most of the time."""
    latest = services.audit.checkpoints.latest()
    if latest is None:
        return None
    key = (licence.id, licence.version, latest.checkpoint.size)
    cache = services.log_proofs
    if key not in cache:
        if len(cache) >= PROOFS_KEPT:
            with suppress(KeyError, RuntimeError, StopIteration):  # another thread dropped it first
                cache.pop(next(iter(cache)))
        cache[key] = services.audit.inclusion_of_latest_event(licence.id, latest)
    return cache[key]
