"""A virtual account nobody pays: the beat sweep cancels it at its deadline and the buyer is told, by mail."""

from __future__ import annotations

import email
import email.header
from datetime import timedelta
from pathlib import Path

import pytest

from bootstrap import Services
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.purchase import place_order, settle_payment
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.harness import RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.support import running_projector
from workers.reactions import REACTIONS
from workers.tasks.payments import deliver_purchase_mail, sweep_overdue_virtual_accounts

pytestmark = pytest.mark.integration


def _mails(outbox: Path) -> list[email.message.Message]:
    return [email.message_from_bytes(path.read_bytes()) for path in sorted(outbox.glob("*.eml"))]


def _text(message: email.message.Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def _subject(message: email.message.Message) -> str:
    return str(email.header.make_header(email.header.decode_header(message["Subject"])))


def _run_reactions(services: Services, after: int) -> int:
    """What the reactor and the worker do for the events recorded after ``after``."""
    last = after
    for notification in services.store.recorder.select_notifications(start=after + 1, limit=100):
        event = services.store.mapper.to_domain_event(notification)
        reaction = REACTIONS.get(type(event))
        for index, call in enumerate(reaction(event) if reaction else []):
            if call.name == "payments.send_purchase_mail":
                task_id = f"Storefront-{notification.id}-{index}"
                deliver_purchase_mail(
                    services, task_id=task_id, payment_id=event.originator_id, kind=call.kwargs["kind"]
                )
        last = notification.id
    return last


def test_an_unpaid_virtual_account_is_swept_at_its_deadline_and_the_buyer_is_mailed(
    settings: Settings, sandbox: RunningSandbox, clock: TestClock, catalogue: Catalogue, store: Storefront
) -> None:
    services = Services.build(settings, clock=SharedClock(clock), payments=PortOneGateway(sandbox.client()))
    order = place_order(
        store,
        services.clock,
        services.payments,
        catalogue,
        licence_id=121,
        country_code="KR",
        language=Language.KO,
        payment_method="virtualAccount",
        account_id=None,
        email="late.payer@example.com",
    )
    checkout = sandbox.checkout(
        pg=order.pg,
        pay_method=order.pay_method,
        merchant_uid=order.merchant_uid,
        name=order.name,
        amount=order.amount,
        buyer_email=order.buyer_email,
    )
    reserved = settle_payment(
        store, services.clock, services.payments, imp_uid=checkout["imp_uid"], merchant_uid=order.merchant_uid
    )
    with running_projector(settings):
        position = _run_reactions(services, 0)
        [issued] = _mails(settings.outbox_dir)
        assert issued["To"] == "late.payer@example.com"
        assert "24,360원" in _text(issued)
        assert "입금 기한" in _text(issued)

        assert wait_for_views(services.views, store.name, ["payments"], store.max_notification_id(), timeout=10)
        clock.advance(timedelta(days=1))
        assert sweep_overdue_virtual_accounts(services) == []
        clock.advance(timedelta(days=3))
        assert sweep_overdue_virtual_accounts(services) == [order.merchant_uid]
        assert wait_for_views(services.views, store.name, ["payments"], store.max_notification_id(), timeout=10)
        assert sweep_overdue_virtual_accounts(services) == []

        licence: UserLicence = store.repository.get(reserved.user_licence_id)
        assert licence.state is LicenceState.LAPSED
        assert services.payments.get_payment(checkout["imp_uid"]).status.value == "cancelled"
        _run_reactions(services, position)
        subjects = sorted(_subject(mail) for mail in _mails(settings.outbox_dir))
        assert subjects == [
            "[유니콘] 가상계좌 입금 안내",
            "[유니콘] 입금 기한이 지나 주문이 취소되었습니다",
        ]
    services.close()
