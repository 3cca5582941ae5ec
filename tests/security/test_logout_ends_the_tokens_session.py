"""Issue 40 finding 11: a logout with only the bearer token answered 200 and the token kept working: logout ended
the refresh cookie's session, not the token's own.

As it ran: an app (or a script) holding only its access token called ``POST /auth/logout`` with it; the answer was
200 and the token still read the account for up to 30 minutes. Now the logout also ends the session the presented
access token belongs to, so that token (and its refresh cookie) stop working within the revocation list's bound;
the owner's other sessions stay, and a token that is not valid changes nothing.
"""

from __future__ import annotations

import pytest

from tests.integration.purchases.desk import V1, Desk
from tests.security.test_revocation_reaches_access_tokens import (
    A_MOMENT,
    log_in,
    owner_with_a_licence_and_a_key,
    read,
    refresh,
    refused_soon,
)

pytestmark = pytest.mark.integration


def test_a_logout_with_only_the_bearer_ends_that_tokens_session(desk: Desk) -> None:
    held = owner_with_a_licence_and_a_key(desk)
    app, phone = log_in(desk), log_in(desk)
    desk.clock.advance(A_MOMENT)

    desk.client.cookies.clear()
    forged = desk.client.post(f"{V1}/auth/logout", headers={"Authorization": "Bearer not.a.token"})
    assert forged.status_code == 200, "a logout never fails"
    assert read(desk, app).json() == held["licences"], "an invalid token ended nothing"

    desk.client.cookies.clear()
    out = desk.client.post(f"{V1}/auth/logout", headers={"Authorization": f"Bearer {app.token}"})
    assert out.status_code == 200, out.text
    refused_soon(lambda: read(desk, app))
    assert refresh(desk, app.rt).status_code == 401, "its session is over: its refresh cookie too"
    assert read(desk, phone).json() == held["licences"], "the owner's other session stays"
