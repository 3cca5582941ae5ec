"""Links support opens a report's images with: time-limited, and never guessable.

An S3 bucket signs its own (a presigned GET). Files of the embedded default are served by the API at
``/web/unicornpro/v1/reports/images/{key}?expires=&signature=``, the signature an HMAC-SHA256 of key and expiry
with the server's secret, so a link works until it expires and cannot be made for another image.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta

from domain.errors import DomainError, ErrorCode
from domain.links import SiteLinks
from domain.ports import ObjectStore

LINK_LIFETIME = timedelta(days=7)
REPORT_KEY_PREFIX = "reports/"


def image_signature(secret: str, key: str, expires: int) -> str:
    """The signature of a link to ``key`` that expires at ``expires`` (seconds since the epoch)."""
    return hmac.new(secret.encode(), f"{key}\n{expires}".encode(), hashlib.sha256).hexdigest()


def image_link(
    objects: ObjectStore, key: str, *, links: SiteLinks, secret: str, now: datetime, lifetime: timedelta
) -> str:
    """Where support opens a report's image: the store's own link, else a signed link to the API."""
    direct = objects.link(key, lifetime)
    if direct is not None:
        return direct
    expires = int((now + lifetime).timestamp())
    return links.report_image(key, expires=expires, signature=image_signature(secret, key, expires))


def check_image_link(secret: str, key: str, expires: int, signature: str, now: datetime) -> None:
    """403 unless the link names a report's image, was signed by us, and has not expired."""
    expected = image_signature(secret, key, expires)
    if not key.startswith(REPORT_KEY_PREFIX) or not hmac.compare_digest(expected.encode(), signature.encode()):
        raise DomainError(ErrorCode.FORBIDDEN, "not a link we made")
    if now.timestamp() >= expires:
        raise DomainError(ErrorCode.FORBIDDEN, "the link has expired")
