"""Use cases on licences a customer holds: devices, registering a key, the open beta, app activation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain.accounts.account import Account
from domain.catalogue.products import PRODUCTS, Platform
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.granting import new_licence
from domain.licences.keys import is_well_formed, normalise_licence_key
from domain.licences.licence import LicenceKeyIndex, LicenceState, LicenceTerms, OpenBetaMembership, UserLicence
from domain.licences.ownership import load_own_licence
from domain.store import Storefront
from domain.text import check_storable
from events.concurrency import retry_on_conflict

OPEN_BETA_TERMS = LicenceTerms(licence_id=900, product_code="uncpw", life=90, max_devices_count=1,
                               name="Unicorn Pro for Windows (open beta)")  # fmt: skip


@dataclass(frozen=True)
class Written:
    """A command's result: what changed and where in the log."""

    user_licence_id: UUID
    notification_id: int


def rename_device(
    store: Storefront, clock: Clock, *, account_id: UUID, user_licence_id: UUID, device_id: str, device_name: str
) -> Written:
    """Rename one of the caller's devices."""

    def attempt() -> Written:
        licence = load_own_licence(store, account_id, user_licence_id)
        licence.rename_device(device_id, device_name, clock.now())
        return Written(licence.id, store.save(licence)[-1].notification.id)

    return retry_on_conflict(attempt)


def remove_device(
    store: Storefront, clock: Clock, *, account_id: UUID, user_licence_id: UUID, device_id: str
) -> Written:
    """Remove one of the caller's devices, freeing its slot."""

    def attempt() -> Written:
        licence = load_own_licence(store, account_id, user_licence_id)
        licence.remove_device(device_id, clock.now())
        return Written(licence.id, store.save(licence)[-1].notification.id)

    return retry_on_conflict(attempt)


def licence_by_key(store: Storefront, licence_key: str) -> UserLicence:
    """The licence behind a key (404 when malformed or unknown)."""
    if not is_well_formed(licence_key):
        raise DomainError(ErrorCode.NOT_FOUND, "no such licence key")
    try:
        index: LicenceKeyIndex = store.repository.get(LicenceKeyIndex.id_for(licence_key))
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such licence key") from None
    licence: UserLicence = store.repository.get(index.user_licence_id)
    return licence


def take_licence_by_key(store: Storefront, account_id: UUID, licence_key: str, at: datetime) -> UserLicence:
    """The licence behind a key, moved to ``account_id`` (its transfer to be saved by the caller).

    A guest purchase's key moves to whoever registers it. 404 unknown key; -106 already the caller's;
    -100 expired, lapsed or revoked; -105 held by a confirmed account.
    """
    licence = licence_by_key(store, normalise_licence_key(licence_key))
    if licence.account_id == account_id:
        raise DomainError(ErrorCode.LICENSE_KEY_ALREADY_REGISTERED)
    if licence.state not in (LicenceState.ACTIVE, LicenceState.RESERVED) or (
        licence.state is LicenceState.ACTIVE and not licence.is_valid(at)
    ):
        raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE)
    holder: Account = store.repository.get(licence.account_id)
    if holder.is_member and holder.email_confirmed:  # an account nobody proved holds only a guest's purchases
        raise DomainError(ErrorCode.LICENSE_KEY_IN_USE)
    licence.transfer(account_id, at)
    return licence


def register_by_key(store: Storefront, clock: Clock, *, account_id: UUID, licence_key: str) -> Written:
    """Add a licence to the caller's account by its key (a guest purchase's key moves to the caller)."""

    def attempt() -> Written:
        licence = take_licence_by_key(store, account_id, licence_key, clock.now())
        return Written(licence.id, store.save(licence)[-1].notification.id)

    return retry_on_conflict(attempt)


def join_open_beta(store: Storefront, clock: Clock, *, account_id: UUID, ends_at: datetime) -> Written:
    """Give the caller the open-beta licence, once (-114 again, -1002 after the beta ended)."""
    now = clock.now()
    if now >= ends_at:
        # The spec's code for "the beta has ended, thanks"; a user condition, so Gone rather than its 500.
        raise DomainError(ErrorCode.OPEN_BETA_ENDED, "the open beta has ended", status=410)
    try:
        store.repository.get(OpenBetaMembership.id_for(account_id))
    except AggregateNotFoundError:
        pass
    else:
        raise DomainError(ErrorCode.ALREADY_IN_OPEN_BETA)
    licence, index = new_licence(
        account_id=account_id, terms=OPEN_BETA_TERMS, merchant_uid=None, source="open-beta", at=now,
        user_licence_id=uuid4(),
    )  # fmt: skip
    membership = OpenBetaMembership.join(account_id=account_id, user_licence_id=licence.id, at=now)
    try:
        recordings = store.save(licence, membership, index)
    except IntegrityError:
        raise DomainError(ErrorCode.ALREADY_IN_OPEN_BETA) from None
    return Written(licence.id, recordings[-1].notification.id)


@dataclass(frozen=True)
class Activation:
    """What an app learns when it activates a device."""

    user_licence_id: UUID
    expires_at: datetime | None
    devices_count: int
    max_devices_count: int
    newly_added: bool
    licence: UserLicence


def activate_device(
    store: Storefront, clock: Clock, *, licence_key: str, device_id: str, device_name: str, platform: str
) -> Activation:
    """An app activates a device against a licence key, within the licence's device limit."""
    try:
        wanted = Platform(platform.lower())
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"unknown platform {platform!r}") from None
    if not device_id.strip() or len(device_id) > 128:
        raise DomainError(ErrorCode.INVALID_VALUE, "device ids are 1-128 characters")
    check_storable(device_id, "device id")

    def attempt() -> Activation:
        licence = licence_by_key(store, licence_key)
        product = PRODUCTS.get(licence.product_code)
        if product is None or product.platform is not wanted:
            raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE, "the key is for another platform")
        added = licence.activate_device(device_id.strip(), device_name, wanted.value, clock.now())
        if added:
            store.save(licence)
        return Activation(
            licence.id, licence.expires_at, len(licence.devices), licence.max_devices_count, added, licence
        )

    return retry_on_conflict(attempt)


@dataclass(frozen=True)
class KeyHolder:
    """Who holds a licence key, as far as a licence link needs to know (never the address)."""

    registered: bool
    email_confirmed: bool


def key_holder(store: Storefront, licence_key: str) -> KeyHolder:
    """The account behind a licence link's key (404 when the key is unknown)."""
    licence = licence_by_key(store, normalise_licence_key(licence_key))
    account: Account = store.repository.get(licence.account_id)
    registered = account.is_member
    return KeyHolder(registered, registered and account.email_confirmed)
