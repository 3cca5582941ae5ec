"""A new licence comes with a new key and the key's index entry claiming it, saved together with the licence,
so that no key is ever held by two licences. Every path that makes a licence (a purchase, a deposit awaited, a
subscription, the App Store, the open beta) makes it here."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from domain.licences.keys import new_licence_key
from domain.licences.licence import LicenceKeyIndex, LicenceTerms, UserLicence


def new_licence(
    *,
    account_id: UUID,
    terms: LicenceTerms,
    merchant_uid: str | None,
    at: datetime,
    source: str = "purchase",
    user_licence_id: UUID | None = None,
    deposit_deadline: datetime | None = None,
) -> tuple[UserLicence, LicenceKeyIndex]:
    """A licence under a new key, and the key's index entry (both to be saved): valid from ``at`` for its life,
    or, with a ``deposit_deadline``, held for a virtual-account deposit (a purchase's, so ``merchant_uid`` is
    given)."""
    key = new_licence_key()
    if deposit_deadline is None:
        licence = UserLicence.grant(
            account_id=account_id, terms=terms, licence_key=key, merchant_uid=merchant_uid, source=source, at=at,
            user_licence_id=user_licence_id,
        )  # fmt: skip
    else:
        assert merchant_uid is not None, "a reserved licence is a purchase's"
        licence = UserLicence.reserve(
            account_id=account_id, terms=terms, licence_key=key, merchant_uid=merchant_uid,
            deposit_deadline=deposit_deadline, at=at, user_licence_id=user_licence_id,
        )  # fmt: skip
    return licence, LicenceKeyIndex.claim(licence_key=key, user_licence_id=licence.id, at=at)
