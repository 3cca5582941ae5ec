"""The user licence: granted or reserved, activated or lapsed, shortened or revoked by refunds, its
device slots, extensions, and what its holder may do with it (``domain.licences.actions``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import uuid4

import pytest

from domain.catalogue.licences import load_catalogue
from domain.errors import ErrorCode
from domain.licences.actions import Action, LicenceFacts, in_display_order, licence_actions
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence
from tests.support import START
from tests.unit.billing_world import refused

ANNUAL_TERMS = LicenceTerms(licence_id=121, product_code="uncpa", life=365, max_devices_count=1, name="Pro annual")
MONTHLY_3_TERMS = LicenceTerms(licence_id=113, product_code="uncpa", life=30, max_devices_count=3, name="Pro monthly")
LIFETIME_3_TERMS = LicenceTerms(licence_id=133, product_code="uncpa", life=36500, max_devices_count=3, name="Pro life")
CATALOGUE = load_catalogue()


def _granted(terms: LicenceTerms = ANNUAL_TERMS, source: str = "purchase", at: datetime = START) -> UserLicence:
    return UserLicence.grant(
        account_id=uuid4(), terms=terms, licence_key="AAAA-BBBB-CCCC-DDDD", merchant_uid="unc-1", source=source, at=at
    )


def _reserved() -> UserLicence:
    return UserLicence.reserve(
        account_id=uuid4(),
        terms=ANNUAL_TERMS,
        licence_key="AAAA-BBBB-CCCC-DDDD",
        merchant_uid="unc-1",
        deposit_deadline=START + timedelta(days=3),
        at=START,
    )


def _event_names(licence: UserLicence) -> list[str]:
    return [type(event).__name__ for event in licence.collect_events()]


# -- life ------------------------------------------------------------------------------


def test_a_granted_licence_is_valid_from_now_for_its_life() -> None:
    licence = _granted()
    assert (licence.state, licence.starts_at, licence.expires_at) == (
        LicenceState.ACTIVE,
        START,
        START + timedelta(days=365),
    )
    assert licence.is_valid(START + timedelta(days=364, hours=23))
    assert not licence.is_valid(START + timedelta(days=365))


def test_a_reserved_licence_is_not_valid_until_the_deposit_activates_it_from_that_day() -> None:
    licence = _reserved()
    assert (licence.state, licence.expires_at, licence.deposit_deadline) == (
        LicenceState.RESERVED,
        None,
        START + timedelta(days=3),
    )
    assert not licence.is_valid(START)
    paid_at = START + timedelta(days=2)
    licence.activate(paid_at)
    licence.activate(paid_at + timedelta(hours=1))  # a repeated deposit report changes nothing
    assert (licence.state, licence.starts_at, licence.expires_at) == (
        LicenceState.ACTIVE,
        paid_at,
        paid_at + timedelta(days=365),
    )
    assert _event_names(licence) == ["LicenceReserved", "LicenceActivated"]


def test_an_unpaid_reservation_lapses_and_then_cannot_be_activated() -> None:
    licence = _reserved()
    licence.lapse("not paid", START + timedelta(days=3))
    assert licence.state is LicenceState.LAPSED
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        licence.activate(START + timedelta(days=4))
    active = _granted()
    active.lapse("not paid", START)
    assert active.state is LicenceState.ACTIVE, "only a reservation lapses"


# -- refunds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("refunded", "kept_days"),
    [(12180, 182), (6090, 273), (1, 364)],
    ids=["half: 182.5 days rounded down", "a quarter", "one won: a day less"],
)
def test_a_licence_shortened_after_a_partial_refund_keeps_what_is_left_paid_for(refunded: int, kept_days: int) -> None:
    licence = _granted()
    at = START + timedelta(days=10)
    until = licence.shortened_expiry(24360, refunded, at)
    assert until == START + timedelta(days=kept_days)
    assert licence.shorten_to(until, "asked", at)
    assert (licence.state, licence.expires_at) == (LicenceState.ACTIVE, START + timedelta(days=kept_days))


def test_a_shortening_never_ends_a_licence_before_now_nor_lengthens_it() -> None:
    licence = _granted()
    late = START + timedelta(days=300)
    until = licence.shortened_expiry(24360, 12180, late)  # half the life is already used up
    assert until == late
    assert licence.shorten_to(until, "asked", late)
    assert licence.expires_at == late
    assert licence.shortened_expiry(24360, 12180, late) is None, "no shorter than it is now"
    assert not licence.shorten_to(late + timedelta(days=1), "asked again", late)
    assert _event_names(licence) == ["LicenceGranted", "LicenceShortened"]


def test_a_revoked_licence_ends_at_once_and_only_once() -> None:
    licence = _granted()
    refunded_at = START + timedelta(days=10)
    assert licence.revoke("asked", refunded_at)
    assert (licence.state, licence.expires_at) == (LicenceState.REVOKED, refunded_at)
    assert not licence.is_valid(refunded_at)
    assert not licence.revoke("again", refunded_at)
    assert _event_names(licence) == ["LicenceGranted", "LicenceRevoked"]


# -- extensions ------------------------------------------------------------------------


def test_a_licence_is_extended_only_while_active_and_only_when_the_end_moves() -> None:
    licence = _granted(MONTHLY_3_TERMS)
    licence.extend_to(START + timedelta(days=60), START)
    licence.extend_to(START + timedelta(days=60), START)
    assert licence.expires_at == START + timedelta(days=60)
    assert _event_names(licence) == ["LicenceGranted", "LicenceExtended"]
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _reserved().extend_to(START + timedelta(days=60), START)
    revoked = _granted()
    revoked.revoke("asked", START)
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        revoked.extend_to(START + timedelta(days=60), START)


# -- devices ---------------------------------------------------------------------------


def test_a_device_takes_a_slot_and_the_same_device_again_takes_none() -> None:
    licence = _granted(MONTHLY_3_TERMS)
    assert licence.activate_device("phone-1", "My phone", "android", START) is True
    assert licence.activate_device("phone-1", "Another name", "android", START) is False
    assert list(licence.devices) == ["phone-1"] and licence.devices["phone-1"].device_name == "My phone"
    assert _event_names(licence) == ["LicenceGranted", "DeviceActivated"]


def test_a_full_licence_refuses_another_device_until_a_slot_is_freed() -> None:
    licence = _granted()  # one device
    licence.activate_device("phone-1", "Phone", "android", START)
    with refused(ErrorCode.DEVICE_LIMIT_REACHED):
        licence.activate_device("phone-2", "Phone 2", "android", START)
    licence.remove_device("phone-1", START)
    assert licence.activate_device("phone-2", "Phone 2", "android", START) is True
    assert list(licence.devices) == ["phone-2"]


def test_an_expired_or_reserved_licence_takes_no_device() -> None:
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _granted().activate_device("phone-1", "Phone", "android", START + timedelta(days=365))
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _reserved().activate_device("phone-1", "Phone", "android", START)


def test_renaming_or_removing_a_device_the_licence_does_not_have_is_1404() -> None:
    licence = _granted()
    with refused(ErrorCode.DEVICE_NOT_FOUND):
        licence.rename_device("ghost", "Name", START)
    with refused(ErrorCode.DEVICE_NOT_FOUND):
        licence.remove_device("ghost", START)


@pytest.mark.parametrize(
    ("name", "kept"),
    [("a", "a"), ("x" * 50, "x" * 50), ("  My   phone  ", "My phone")],
    ids=["one character", "fifty characters", "spaces collapsed"],
)
def test_device_names_of_one_to_fifty_characters_are_kept_with_their_spaces_collapsed(name: str, kept: str) -> None:
    licence = _granted(MONTHLY_3_TERMS)
    licence.activate_device("phone-1", "Phone", "android", START)
    licence.rename_device("phone-1", name, START)
    assert licence.devices["phone-1"].device_name == kept


@pytest.mark.parametrize(
    ("name", "code"),
    [("", ErrorCode.EMPTY_PARAMETER), ("   ", ErrorCode.EMPTY_PARAMETER), ("x" * 51, ErrorCode.INVALID_VALUE)],
    ids=["empty", "only spaces", "fifty-one characters"],
)
def test_a_device_name_that_is_empty_or_longer_than_fifty_characters_is_refused(name: str, code: ErrorCode) -> None:
    licence = _granted(MONTHLY_3_TERMS)
    with refused(code):
        licence.activate_device("phone-1", name, "android", START)
    licence.activate_device("phone-1", "Phone", "android", START)
    with refused(code):
        licence.rename_device("phone-1", name, START)
    assert licence.devices["phone-1"].device_name == "Phone"


# -- what the holder may do ------------------------------------------------------------


def test_the_licence_facts_are_what_the_aggregate_says() -> None:
    licence = _granted(MONTHLY_3_TERMS, source="subscription")
    licence.activate_device("phone-1", "Phone", "android", START)
    assert licence.facts == LicenceFacts(
        state="active",
        expires_at=START + timedelta(days=30),
        devices_count=1,
        max_devices_count=3,
        source="subscription",
        product_code="uncpa",
        life=30,
    )


def test_a_device_can_be_registered_only_while_the_licence_is_valid_and_has_a_free_slot() -> None:
    licence = _granted()
    assert Action.REGISTER_DEVICE in licence.allowed_actions(CATALOGUE, START)
    assert Action.REGISTER_DEVICE not in licence.allowed_actions(CATALOGUE, START + timedelta(days=365))
    licence.activate_device("phone-1", "Phone", "android", START)
    assert Action.REGISTER_DEVICE not in licence.allowed_actions(CATALOGUE, START), "the only slot is taken"
    assert _reserved().allowed_actions(CATALOGUE, START) == set()


def test_devices_can_be_renamed_or_removed_whenever_the_licence_has_any() -> None:
    licence = _granted()
    assert not {Action.RENAME_DEVICE, Action.REMOVE_DEVICE} & licence.allowed_actions(CATALOGUE, START)
    licence.activate_device("phone-1", "Phone", "android", START)
    expired = START + timedelta(days=400)
    assert {Action.RENAME_DEVICE, Action.REMOVE_DEVICE} <= licence.allowed_actions(CATALOGUE, expired)


@pytest.mark.parametrize(
    ("terms", "source", "upgradable"),
    [
        (ANNUAL_TERMS, "purchase", True),
        (MONTHLY_3_TERMS, "subscription", True),
        (LIFETIME_3_TERMS, "purchase", False),
        (LicenceTerms(900, "uncpw", 90, 1, "Open beta"), "open-beta", False),
    ],
    ids=["a bought annual plan", "a subscribed monthly plan", "the biggest plan", "an open-beta licence"],
)
def test_only_a_paid_licence_with_a_bigger_plan_of_its_product_can_be_upgraded(
    terms: LicenceTerms, source: str, upgradable: bool
) -> None:
    licence = _granted(terms, source)
    assert (Action.UPGRADE in licence.allowed_actions(CATALOGUE, START)) is upgradable
    assert Action.UPGRADE not in licence.allowed_actions(CATALOGUE, START + timedelta(days=terms.life)), "expired"


def test_the_same_rules_answer_for_a_view_rows_facts_in_the_pages_order() -> None:
    facts = LicenceFacts("active", START + timedelta(days=30), 1, 3, "purchase", "uncpa", 30)
    allowed = licence_actions(facts, CATALOGUE, START)
    assert [action.value for action in in_display_order(allowed)] == [
        "registerDevice",
        "renameDevice",
        "removeDevice",
        "upgrade",
    ]
    revoked = LicenceFacts("revoked", START, 0, 3, "purchase", "uncpa", 30)
    assert licence_actions(revoked, CATALOGUE, START - timedelta(days=1)) == set()
