"""The offline licence token an app gets with a valid answer (claims: domain/licences/offline.py)."""

from __future__ import annotations

import logging
from contextlib import suppress
from datetime import timedelta
from typing import Any

from starlette.concurrency import run_in_threadpool

from api.services import Services
from domain.licences.licence import Standing
from domain.licences.offline import TOKEN_TYPE, ClaimedLicence, licence_claims

log = logging.getLogger(__name__)
PROOFS_KEPT = 10_000  # log proofs kept per process (oldest dropped first)


def licence_token(services: Services, licence: ClaimedLicence, device_id: str, standing: Standing) -> str | None:
    """A signed token for a device the licence is valid on (None otherwise); may read the audit store."""
    if standing is not Standing.VALID:
        return None
    try:
        proof = _log_proof(services, licence)
    except Exception:  # the token is still useful without the log's proof; the app can ask again later
        log.exception("no log proof for licence %s", licence.id)
        proof = None
    return _signed(services, licence, device_id, proof)


async def seated_token(services: Services, licence: ClaimedLicence, device_id: str) -> str | None:
    """The token of a valid answer from an async route: signed on the loop when the checkpoint and the proof are
    already held (almost always), else made on a worker thread, which reads them."""
    fresh, checkpoint = services.newest_checkpoint.known()
    if fresh:
        if checkpoint is None:
            return _signed(services, licence, device_id, None)
        held = services.log_proofs.get((licence.id, checkpoint.checkpoint.size), _MISSING)
        if held is not _MISSING:
            return _signed(services, licence, device_id, held)
    return await run_in_threadpool(licence_token, services, licence, device_id, Standing.VALID)


_MISSING: dict[str, Any] = {}


def _signed(services: Services, licence: ClaimedLicence, device_id: str, proof: dict[str, Any] | None) -> str:
    claims = licence_claims(
        licence,
        device_id=device_id,
        standing=Standing.VALID,
        issuer=services.settings.base_url,
        now=services.clock.now(),
        grace=timedelta(days=services.settings.licence_offline_grace_days),
        log_proof=proof,
    )
    return services.licence_signer.sign(claims, TOKEN_TYPE)


def _log_proof(services: Services, licence: ClaimedLicence) -> dict[str, Any] | None:
    """The proof of the licence's latest event in the newest checkpoint: computed once per licence and checkpoint
    (a tree never changes, so neither does the proof), so a validation usually reads nothing."""
    latest = services.newest_checkpoint.read()
    if latest is None:
        return None
    key = (licence.id, latest.checkpoint.size)
    cache = services.log_proofs
    if key not in cache:
        if len(cache) >= PROOFS_KEPT:
            with suppress(KeyError, RuntimeError, StopIteration):  # another thread dropped it first
                cache.pop(next(iter(cache)))
        cache[key] = services.audit.inclusion_of_latest_event(licence.id, latest)
    return cache[key]
