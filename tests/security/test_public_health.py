"""Finding 9, in part: ``/health`` told the world the log's head and each view's position (how many events,
how busy the shop is, which follower is behind).

Now the public answer is up or down; the report stays for operators behind their credential
(``GET /operator/health``), and the test harness's routes that carry it are not there without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_settings
from tests.security.shop import OPERATOR_TOKEN, V1, Shop, shop, shop_of

__all__ = ["shop"]

pytestmark = pytest.mark.integration


def test_the_public_health_answer_says_up_and_nothing_else(shop: Shop) -> None:
    shop.customer("someone@example.com")
    stranger = shop.peer("203.0.113.40")
    public = stranger.get(f"{V1}/health")
    assert (public.status_code, public.json()) == (200, {"status": "up"})

    assert stranger.get(f"{V1}/operator/health").status_code == 401
    wrong = stranger.get(f"{V1}/operator/health", headers={"X-Admin-Token": "guess"})
    assert wrong.status_code == 401
    report = stranger.get(f"{V1}/operator/health", headers={"X-Admin-Token": OPERATOR_TOKEN})
    assert report.status_code == 200 and report.json()["logHead"] > 0, "operators still read the report"


def test_without_the_operator_credential_there_is_no_report_at_all(tmp_path: Path) -> None:
    for production in shop_of(make_settings(tmp_path)):  # no TEST_ADMIN_TOKEN, as in production
        answer = production.peer("203.0.113.41").get(f"{V1}/operator/health")
        assert (answer.status_code, answer.json()["errorCode"]) == (404, 404)
