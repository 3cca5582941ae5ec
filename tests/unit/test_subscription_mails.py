"""The subscription mails say what the subscriber needs, in their language: the reminder the price, the date, the
card (masked) and the way out; a failed renewal the way to pay with another card now; the cancellation until when
the licence works and the way back."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.links import SiteLinks
from domain.subscriptions.mails import MAIL_KINDS, card_text, render_subscription_mail
from events.values import Currency, Language

LINKS = SiteLinks("https://shop.example")
WHEN = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


def _mail(kind: str, language: Language, link: str = "", card: str = "") -> tuple[str, str]:
    message = render_subscription_mail(
        kind, to="a@example.com", language=language, name="Unicorn Pro", amount=2030, currency=Currency.KRW,
        reason="insufficient funds", when=WHEN, card=card, link=link,
    )  # fmt: skip
    return message.subject, message.text


@pytest.mark.parametrize("language", list(Language))
def test_a_reminder_names_the_price_the_date_the_card_and_the_way_out(language: Language) -> None:
    link = LINKS.stop_auto_renewal(language, "licence-1")
    subject, text = _mail("renewal-upcoming", language, link, card_text("BC", "411111******1111", language))
    assert "2026-12-01" in subject and "2026-12-01" in text
    assert "2,030" in text and "411111******1111" in text and "BC" in text
    assert text.count(link) == 1 and link.endswith(f"/{language.value}/license/licence-1?subscription=stop")


@pytest.mark.parametrize("language", list(Language))
def test_a_failed_renewal_links_to_paying_with_another_card_now(language: Language) -> None:
    link = LINKS.pay_past_due(language, "licence-1")
    _, text = _mail("renewal-failed", language, link)
    assert link in text and link.endswith("?subscription=pay")


@pytest.mark.parametrize("language", list(Language))
def test_the_cancellation_says_until_when_the_licence_works(language: Language) -> None:
    _, text = _mail("auto-renewal-cancelled", language, LINKS.resume_auto_renewal(language, "licence-1"))
    assert "2026-12-01 12:00 (UTC+9)" in text and "?subscription=resume" in text


def test_every_kind_is_written_in_every_language_and_a_card_is_never_shown_whole() -> None:
    for kind in MAIL_KINDS:
        subjects = {_mail(kind, language)[0] for language in Language}
        assert len(subjects) == len(Language), kind
    assert card_text(None, "4111111111111111", Language.EN) == "**** **** **** 1111"
    assert card_text(None, None, Language.KO) == "등록된 카드 없음"
