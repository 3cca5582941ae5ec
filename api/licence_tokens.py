"""The offline licence token an app gets with a valid answer (claims: domain/licences/offline.py)."""

from __future__ import annotations

import logging
from datetime import timedelta

from api.services import Services
from domain.licences.licence import Standing, UserLicence
from domain.licences.offline import TOKEN_TYPE, licence_claims

log = logging.getLogger(__name__)


def licence_token(services: Services, licence: UserLicence, device_id: str, standing: Standing) -> str | None:
    """A signed token for a device the licence is valid on (None otherwise)."""
    if standing is not Standing.VALID:
        return None
    try:
        proof = services.audit.latest_inclusion_of(licence.id)
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
