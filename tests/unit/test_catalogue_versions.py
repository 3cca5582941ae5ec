"""The catalogue as versions in the log: a fresh install's first version is the shipped JSON, later ones take effect
when staff said, and the renewal price rule of docs/catalogue.md decides what a subscriber pays."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.catalogue.licences import CATALOGUE_FILE, Catalogue, load_catalogue
from domain.catalogue.versions import (
    SHIPPED_SINCE,
    CatalogueVersion,
    CatalogueVersions,
    FollowedCatalogue,
    load_versions,
    schedule_version,
    seed_catalogue,
)
from domain.errors import DomainError, ErrorCode
from domain.pricing.quotes import quote_licence
from domain.staff.member import create_first_owner, invite_member
from domain.subscriptions.price_mails import PRICE_RISE_MAIL_KINDS, render_price_rise_mail
from domain.subscriptions.price_rule import (
    NOTICE_PERIOD,
    Answer,
    PriceRiseAsk,
    RiseKind,
    price_rise_to_ask,
    renewal_price,
)
from events.values import Currency, Language
from tests.fakes import ManualClock, in_memory_store
from tests.support import START

MONTHLY = 111


def _with_price(licence_id: int, country: str, price: int) -> list[dict[str, Any]]:
    """The shipped licences with one price changed, as the back office sends them."""
    licences: list[dict[str, Any]] = load_catalogue().model_dump(mode="json", by_alias=True)["licences"]
    for licence in licences:
        if licence["id"] == licence_id:
            for item in licence["prices"]:
                if item["countryCode"] == country:
                    item["price"] = price
    return licences


def test_a_fresh_install_records_the_shipped_json_as_its_first_version_once() -> None:
    store, clock = in_memory_store(), ManualClock(START)
    assert seed_catalogue(store, clock) is True
    assert seed_catalogue(store, clock) is False  # every start seeds; only the first records anything
    [first] = load_versions(store).versions
    assert (first.version, first.effective_at, first.actor_id) == (1, SHIPPED_SINCE, None)
    assert first.catalogue == load_catalogue()
    shipped = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    assert (
        first.catalogue.model_dump(mode="json", by_alias=True)["licences"]
        == load_catalogue().model_dump(mode="json", by_alias=True)["licences"]
    )
    assert [licence["id"] for licence in shipped["licences"]] == [licence.id for licence in first.catalogue.licences]
    topics = [n.topic for n in store.recorder.select_notifications(start=1, limit=10)]
    assert topics == ["catalogue.Opened", "catalogue.VersionScheduled"]


def test_a_version_takes_effect_at_its_time_and_names_who_made_it_and_why() -> None:
    store, clock = in_memory_store(), ManualClock(START)
    seed_catalogue(store, clock)
    owner = create_first_owner(store, clock, email="boss@example.com", name="Boss")
    tomorrow = START + timedelta(days=1)
    made = schedule_version(
        store, clock, owner.id, licences=_with_price(MONTHLY, "KR", 3500), effective_at=tomorrow, reason="costs"
    )
    versions = load_versions(store)
    assert made.version == 2 and made.actor_id == owner.id and made.reason == "costs"
    assert versions.in_force(START).version == 1
    assert versions.in_force(tomorrow).version == 2
    monthly = versions.in_force(tomorrow).catalogue.get(MONTHLY)
    assert monthly is not None and monthly.price_for("KR").price == 3500
    acted = [n for n in store.recorder.select_notifications(start=1, limit=100) if n.topic == "staff.Acted"]
    assert len(acted) == 1, "the staff action is saved with the version"


def test_a_version_needs_a_reason_a_future_time_a_valid_catalogue_and_the_permission() -> None:
    store, clock = in_memory_store(), ManualClock(START)
    owner = create_first_owner(store, clock, email="boss@example.com", name="Boss")
    later = START + timedelta(hours=1)
    with pytest.raises(DomainError) as no_reason:
        schedule_version(store, clock, owner.id, licences=_with_price(MONTHLY, "KR", 1), effective_at=later, reason=" ")
    assert no_reason.value.code is ErrorCode.EMPTY_PARAMETER
    with pytest.raises(DomainError) as past:
        schedule_version(
            store,
            clock,
            owner.id,
            licences=_with_price(MONTHLY, "KR", 1),
            effective_at=START - timedelta(1),
            reason="x",
        )
    assert past.value.code is ErrorCode.INVALID_VALUE
    with pytest.raises(DomainError) as negative:
        schedule_version(
            store, clock, owner.id, licences=_with_price(MONTHLY, "KR", -5), effective_at=later, reason="x"
        )
    assert negative.value.code is ErrorCode.INVALID_VALUE
    changed = _with_price(MONTHLY, "KR", 100)
    changed[0]["life"] = 365
    with pytest.raises(DomainError) as other_plan:
        schedule_version(store, clock, owner.id, licences=changed, effective_at=later, reason="x")
    assert other_plan.value.code is ErrorCode.INVALID_VALUE
    for role in ("support", "finance"):
        member = invite_member(store, clock, owner.id, email=f"{role}@example.com", name=role, roles=[role], reason="x")
        with pytest.raises(DomainError) as refused:
            schedule_version(
                store, clock, member.id, licences=_with_price(MONTHLY, "KR", 1), effective_at=later, reason="x"
            )
        assert refused.value.code is ErrorCode.FORBIDDEN
    assert len(load_versions(store).versions) == 1, "nothing was scheduled; not even the shipped one was recorded"
    assert not [n for n in store.recorder.select_notifications(start=1, limit=100) if n.topic.startswith("catalogue")]


def test_a_process_copy_follows_the_log() -> None:
    store, clock = in_memory_store(), ManualClock(START)
    followed = FollowedCatalogue(store, follow_seconds=0)
    assert followed.in_force(START) == load_catalogue(), "unseeded: the shipped JSON"
    owner = create_first_owner(store, clock, email="boss@example.com", name="Boss")
    schedule_version(store, clock, owner.id, licences=_with_price(MONTHLY, "KR", 3500), effective_at=START, reason="x")
    monthly = followed.in_force(START).get(MONTHLY)
    assert monthly is not None and monthly.price_for("KR").price == 3500
    assert [item.version for item in followed.versions().versions] == [1, 2]


def _version(number: int, price: int, effective_days: int = 0) -> CatalogueVersion:
    """A version pricing the monthly plan at ``price`` won in Korea, in force ``effective_days`` after START."""
    catalogue = Catalogue.model_validate({"version": number, "licences": _with_price(MONTHLY, "KR", price)})
    return CatalogueVersion(number, START + timedelta(days=effective_days), catalogue, None, "", START)


def test_the_renewal_rule_charges_a_rise_only_once_agreed_and_passes_a_cut_on_at_once() -> None:
    kept = quote_licence(load_catalogue().get(MONTHLY), "KR")  # type: ignore[arg-type]
    assert kept.amount == 2900
    rise, cut = _version(2, 3500), _version(3, 2500)
    at = START + timedelta(days=10)
    assert renewal_price(kept, 1, rise, [], at).quote == kept, "a rise nobody was asked about: the old price"
    asked = PriceRiseAsk(2, RiseKind.PRICE_RISE, 3500, 2900, "KRW", START, START + NOTICE_PERIOD, START)
    before = renewal_price(kept, 1, rise, [asked], START + NOTICE_PERIOD - timedelta(seconds=1))
    assert (before.quote, before.awaiting) == (kept, None), "renewals before the change keep the old price"
    waiting = renewal_price(kept, 1, rise, [asked], START + NOTICE_PERIOD)
    assert waiting.awaiting == asked and waiting.quote.amount == 3500, "not agreed: nothing is charged"
    agreed = asked.answered(Answer.AGREED, START + timedelta(days=3))
    moved = renewal_price(kept, 1, rise, [agreed], START + NOTICE_PERIOD)
    assert (moved.quote.amount, moved.catalogue_version, moved.awaiting) == (3500, 2, None)
    for answer in (Answer.DECLINED, Answer.LAPSED, Answer.PENDING):
        assert renewal_price(kept, 1, rise, [asked.answered(answer, START)], at + NOTICE_PERIOD).awaiting is not None
    smaller = PriceRiseAsk(2, RiseKind.PRICE_RISE, 3400, 2900, "KRW", START, START, START, Answer.AGREED, START)
    assert renewal_price(kept, 1, rise, [smaller], at + NOTICE_PERIOD).quote == kept, "a request for less covers less"
    lowered = renewal_price(kept, 1, cut, [], at)
    assert (lowered.quote.amount, lowered.catalogue_version) == (2500, 3), "a cut applies at the next renewal"


def test_a_subscriber_is_owed_one_request_for_the_highest_rise_ahead_and_none_within_7_days_of_a_decline() -> None:
    kept = quote_licence(load_catalogue().get(MONTHLY), "KR")  # type: ignore[arg-type]
    versions = CatalogueVersions((_version(1, 2900), _version(2, 3500, 5), _version(3, 3900, 40)))
    owed = price_rise_to_ask(kept, versions, [], START)
    assert owed is not None and (owed.version.version, owed.quote.amount) == (3, 3900)
    asked = PriceRiseAsk(3, RiseKind.PRICE_RISE, 3900, 2900, "KRW", START, START, START)
    assert price_rise_to_ask(kept, versions, [asked], START) is None
    declined = START - timedelta(days=6, hours=23)
    assert price_rise_to_ask(kept, versions, [], START, declined_at=declined) is None, "quiet after a decline"
    assert price_rise_to_ask(kept, versions, [], START + timedelta(hours=1), declined_at=declined) is not None


def test_a_rise_from_nothing_is_a_free_to_paid_conversion() -> None:
    assert (RiseKind.of(0), RiseKind.of(2900)) == (RiseKind.FREE_TO_PAID, RiseKind.PRICE_RISE)


def test_the_price_rise_mails_say_the_date_both_prices_the_card_and_the_way_out_in_each_language() -> None:
    changes = datetime(2026, 12, 31, 15, 30, tzinfo=UTC)  # 2027-01-01 in Korea
    link = "https://shop.example/ko/license/l-1?subscription=price"
    texts = {
        (kind, language): render_price_rise_mail(
            kind,
            to="a@example.com",
            language=language,
            name="Unicorn",
            previous_amount=2900,
            amount=3500,
            currency=Currency.KRW,
            changes_at=changes,
            card="BC **** **** **** 1111",
            link=link,
        )
        for kind in PRICE_RISE_MAIL_KINDS
        for language in Language
    }
    for (kind, language), mail in texts.items():
        assert "2027-01-01" in mail.text and "1111" in mail.text and link in mail.text, (kind, language)
        assert "4111111111111111" not in mail.text
    asked = {language: texts["asked", language].text for language in Language}
    assert "2,900원" in asked[Language.KO] and "3,500원" in asked[Language.KO] and "해지" in asked[Language.KO]
    assert "2,900 KRW" in asked[Language.EN] and "does not agree to anything" in asked[Language.EN]
    assert "同意になりません" in asked[Language.JA] and "自動更新を停止" in asked[Language.JA]
    assert len({mail.subject for mail in texts.values()}) == 9
