"""Finding 9 (nicknames): a nickname could pass for another customer's.

As it ran: nicknames took Cyrillic look-alikes ("Рaul" beside "Paul"), fullwidth letters ("Ｐａｕｌ"), zero-width
and bidi marks, and the support desk's sign-on token carried them as typed. Now a nickname is kept NFKC, and what
cannot be seen, reorders text or mixes look-alike letters of two scripts is refused (-2); uniqueness compares the
kept form, so a folded look-alike of a taken nickname is taken (-411). The first customer keeps the name.
"""

from __future__ import annotations

import json

import jwt
import pytest

from tests.integration.purchases.desk import SUBSCRIBER, V1, Desk

pytestmark = pytest.mark.integration

IMPOSTOR = "impostor@example.com"


def rename(desk: Desk, name: str, as_email: str) -> tuple[int, object]:
    # As JSON escapes it (a lone surrogate cannot be sent as UTF-8, but "\ud800" can be written in JSON).
    body = json.dumps({"name": name})
    headers = {"Authorization": f"Bearer {desk.access_token(as_email)}", "Content-Type": "application/json"}
    answer = desk.client.patch(f"{V1}/accounts", content=body, headers=headers)
    body = answer.json()
    return answer.status_code, body.get("errorCode", body.get("name"))


def test_look_alikes_of_a_taken_nickname_are_refused_and_the_owner_keeps_it(desk: Desk) -> None:
    assert rename(desk, "Paul Kim", SUBSCRIBER) == (200, "Paul Kim")
    desk.register(IMPOSTOR)

    assert rename(desk, "Ｐａｕｌ　Ｋｉｍ", IMPOSTOR) == (409, -411), "fullwidth letters fold into the taken name"
    assert rename(desk, "PAUL  KIM", IMPOSTOR) == (409, -411)
    for look_alike in ("Рaul Kim", "Pa\u200bul Kim", "\u202emiK luaP", "Paul Kim\u2066", "\u3164", "Paul\ud800"):
        assert rename(desk, look_alike, IMPOSTOR) == (400, -2), repr(look_alike)

    assert desk.call("GET", "/accounts", as_email=SUBSCRIBER).json()["name"] == "Paul Kim"
    assert desk.call("GET", "/accounts", as_email=IMPOSTOR).json()["name"] is None


def test_the_desk_is_told_the_kept_form_and_korean_and_japanese_names_are_kept_as_written(desk: Desk) -> None:
    assert rename(desk, "Ｐａｕｌ　Ｋｉｍ", SUBSCRIBER) == (200, "Paul Kim")
    signed_on = desk.call("GET", "/auth/zendesk", as_email=SUBSCRIBER).json()
    claims = jwt.decode(signed_on["zendeskJWT"], desk.services.settings.zendesk_secret, algorithms=["HS256"])
    assert claims["name"] == "Paul Kim"

    desk.register(IMPOSTOR)
    assert rename(desk, "김철수 Kim", IMPOSTOR) == (200, "김철수 Kim")
    assert rename(desk, "山田タロウ", IMPOSTOR) == (200, "山田タロウ")
