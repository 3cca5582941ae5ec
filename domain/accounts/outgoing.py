"""Which account mail goes out, to whom, with which link: decided here from the log, so the mail tasks only
deliver (once per task id) what these functions answer. None means there is nothing to send: the account is
gone, deleted or already confirmed, or the request was replaced or used meanwhile."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.accounts.claims import claim_link_token
from domain.accounts.mails import (
    render_account_notice,
    render_claim_mail,
    render_confirmation_mail,
    render_email_change_mail,
    render_password_reset_mail,
)
from domain.accounts.notices import NoticeKind, account_notice
from domain.accounts.recovery import email_change_link_token, reset_link_token
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from domain.links import SiteLinks
from domain.ports import MailMessage
from domain.store import Storefront
from events.values import Language

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outgoing:
    """A mail to send, and its kind (how the sent-mail ledger names it)."""

    kind: str
    message: MailMessage


def confirmation_link(secret: str, links: SiteLinks, account: Account, now: datetime) -> str:
    """The signed link that confirms the account's current address."""
    token = sign_link(secret, CONFIRM_EMAIL, account.id, now, CONFIRMATION_LINK_LIFETIME, email=account.email)
    return links.account_confirmation(token)


def confirmation_mail(
    store: Storefront, secret: str, links: SiteLinks, now: datetime, *, account_id: UUID, claim_id: str | None = None
) -> Outgoing | None:
    """The confirmation link to the account's address, in its language. A guest's account gets a claim's link
    instead (``claim_id``'s, else the latest claim's), in the claimant's language; nothing for a claim no longer
    pending."""
    account = _account(store, account_id)
    if account is None or account.email_confirmed:
        return None
    if account.is_guest:
        pending = account.pending_claims
        claim_id = claim_id or next(reversed(pending), None)
        claim = pending.get(claim_id) if claim_id else None
        if claim_id is None or claim is None:
            return None
        token = claim_link_token(secret, account.id, account.email, claim_id, now)
        link = links.claim(claim.language, token)
        return Outgoing("claim", render_claim_mail(to=account.email, language=claim.language, link=link))
    link = confirmation_link(secret, links, account, now)
    return Outgoing("confirmation", render_confirmation_mail(to=account.email, language=account.language, link=link))


def password_reset_mail(
    store: Storefront,
    secret: str,
    links: SiteLinks,
    now: datetime,
    *,
    account_id: UUID,
    reset_id: str,
    language: Language,
) -> Outgoing | None:
    """The reset link, unless the request was replaced or used meanwhile."""
    account = _account(store, account_id)
    if account is None or account.pending_reset_id != reset_id:
        return None
    link = links.password_reset(language, reset_link_token(secret, account.id, reset_id, now))
    return Outgoing("password-reset", render_password_reset_mail(to=account.email, language=language, link=link))


def email_change_mail(
    store: Storefront, secret: str, links: SiteLinks, now: datetime, *, account_id: UUID, change_id: str
) -> Outgoing | None:
    """The change link to the new address, unless the request was replaced or used meanwhile."""
    account = _account(store, account_id)
    if account is None or account.pending_change_id != change_id or not account.pending_email:
        return None
    token = email_change_link_token(secret, account.id, change_id, account.pending_email, now)
    message = render_email_change_mail(
        to=account.pending_email, language=account.language, link=links.email_change(token)
    )
    return Outgoing("email-change", message)


def notice_mail(
    store: Storefront, links: SiteLinks, *, support: str, account_id: UUID, kind: NoticeKind, version: int
) -> Outgoing | None:
    """The notice of the account's change at ``version`` (a new address: to the old one; a new password: to the
    account's address), in the account's language."""
    notice = account_notice(store, account_id, kind, version)
    if notice is None:
        return None
    message = render_account_notice(notice, support=support, reset=links.password_find(notice.language))
    return Outgoing(f"notice-{kind.value}", message)


def _account(store: Storefront, account_id: UUID) -> Account | None:
    try:
        account: Account = store.repository.get(account_id)
    except AggregateNotFoundError:
        log.warning("mail for unknown account %s", account_id)
        return None
    return None if account.deleted else account
