"""A staff member enrolling and signing in with a one-time code app, as the back office's pages do it: the one home
of these steps for the HTTP stories and the ledger benchmark (a test client or httpx against a running stack)."""

from __future__ import annotations

from datetime import datetime

import httpx
import pyotp


def code_at(secret: str, now: datetime | None = None) -> str:
    """The code app's code at ``now`` (the wall clock's moment when None, as on a running stack)."""
    app = pyotp.TOTP(secret)
    return app.at(now) if now is not None else app.now()


def enrol_with_code_app(
    client: httpx.Client, staff_url: str, link: str, now: datetime | None = None
) -> tuple[str, httpx.Response]:
    """The member opens their enrolment ``link`` and sets up a code app: (the app's secret, the enrolment's answer,
    which signed them in)."""
    token = link.split("token=", 1)[1]
    opened = client.post(f"{staff_url}/enrolment", json={"token": token})
    assert opened.status_code == 200, opened.text
    secret = client.post(f"{staff_url}/enrolment/totp/secret", json={"token": token}).json()["secret"]
    code = code_at(secret, now)
    answer = client.post(f"{staff_url}/enrolment/totp", json={"token": token, "secret": secret, "code": code})
    assert answer.status_code == 200, answer.text
    return secret, answer


def sign_in_with_code(
    client: httpx.Client, staff_url: str, email: str, secret: str, now: datetime | None = None
) -> httpx.Response:
    """The member signs in with their address and the code app's current code (the answer, checked by the caller)."""
    return client.post(f"{staff_url}/sign-in/totp", json={"email": email, "code": code_at(secret, now)})
