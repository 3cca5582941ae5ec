"""Reads at 50 clients: a customer's licence list, one licence, and the purchase history, each against a bare
FastAPI endpoint answering the same bytes in the same run (targets: ≥ 60% of its throughput, p99 ≤ 2×)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from bench.harness import Result, bench_stack
from bench.load import hammer, judged
from bench.profile import profiled
from config.settings import Settings
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from tests.faults.stack import ROOT, V1, Stack, free_port, until

PASSWORD = "bench2026"  # noqa: S105 - the benchmark's own customer
LICENCES = (121, 123, 131, 133, 111)  # five one-time purchases: annual and lifetime, 1 and 3 devices, a month


def buy(http: httpx.Client, stack: Stack, token: str, licence_id: int) -> None:
    """Buy one licence as the customer of ``token``, by card through the sandbox's window."""
    headers = {"Authorization": f"Bearer {token}"}
    order = http.post(
        f"{stack.api_url}{V1}/payments/licenses/new",
        json={"licenseId": licence_id, "countryCode": "KR", "paymentMethod": "creditCard"},
        headers=headers,
    ).json()
    window = {"pg": order["pg"], "pay_method": order["payMethod"], "merchant_uid": order["merchantUid"]}
    window |= {"name": order["name"], "amount": order["amount"], "currency": order["currency"]}
    window |= {"buyer_email": order["buyerEmail"], "card_number": "4111111111111111"}
    paid = http.post(f"{stack.sandbox_url}/sandbox/checkout", json=window).json()
    confirmed = http.post(
        f"{stack.api_url}{V1}/payments/licenses/new/confirm",
        json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]},
        headers=headers,
    )
    confirmed.raise_for_status()


def confirm(http: httpx.Client, stack: Stack, account_id: str, email: str) -> None:
    """Open the confirmation link as the mail would carry it (signed with the stack's own secret): a confirmed
    account may buy and read its licences."""
    settings = Settings(APP_VAR_DIR=str(stack.var_dir))
    lifetime, now = CONFIRMATION_LINK_LIFETIME, datetime.now(UTC)
    token = sign_link(settings.auth_secret, CONFIRM_EMAIL, UUID(account_id), now, lifetime, email=email)
    opened = http.get(f"{stack.api_url}{V1}/accounts/confirm", params={"t": token}, follow_redirects=False)
    assert opened.status_code == 303, opened.text
    assert "errorCode" not in opened.headers["location"], opened.headers["location"]


def seed(stack: Stack, email: str = "reader@example.com") -> tuple[str, str]:
    """A confirmed customer (``email``) with five licences; their access token and one licence's id."""
    with httpx.Client(timeout=30) as http:
        registered = http.post(
            f"{stack.api_url}{V1}/accounts", json={"email": email, "pw": PASSWORD, "language": "ko"}
        ).json()
        confirm(http, stack, registered["userId"], email)
        token = http.post(f"{stack.api_url}{V1}/auth/login", json={"email": email, "pw": PASSWORD}).json()[
            "accessToken"
        ]
        for licence_id in LICENCES:
            buy(http, stack, token, licence_id)
        mine = http.get(f"{stack.api_url}{V1}/licenses/mine", headers={"Authorization": f"Bearer {token}"}).json()
        return token, str(mine[0]["id"])


def bare_baseline(answers: dict[str, Any], folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The bare FastAPI baseline (bench/bare.py) answering ``answers`` by name, started and answering."""
    path = folder / "bare-answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    port = free_port()
    env = {**os.environ, "BENCH_BARE_ANSWERS": str(path)}
    command = [sys.executable, "-m", "uvicorn", "bench.bare:app", "--host", "127.0.0.1", "--port", str(port)]
    # The event loop the API runs on (api/__main__.py chose the standard library's over uvloop): a baseline on
    # uvloop measured the loop as much as the code.
    process = subprocess.Popen([*command, "--loop", "asyncio", "--log-level", "warning"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"

    def answers_now() -> bool:
        try:
            return httpx.get(f"{url}/answer/{quote(next(iter(answers)))}", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    until(answers_now, "the bare baseline answers", seconds=30)
    return process, url


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, profile: bool = False) -> list[Result]:
    """Measure each read and its bare baseline, alternately, on a stack of ``store``; with ``profile``, py-spy
    samples the API process while each read is measured and the busiest functions are printed."""
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-reads-") as tmp, bench_stack(Path(tmp) / "var", **env) as stack:
        token, licence = seed(stack)
        bearer = {"Authorization": f"Bearer {token}"}
        reads = {
            "licence list": f"{V1}/licenses/mine",
            "licence detail": f"{V1}/licenses/mine/{licence}",
            "purchase history": f"{V1}/payments/licenses",
        }
        answers = {name: httpx.get(f"{stack.api_url}{path}", headers=bearer).json() for name, path in reads.items()}
        bare, bare_url = bare_baseline(answers, Path(tmp))
        try:
            for name, path in reads.items():
                baseline = hammer(
                    f"{bare_url}/answer/{quote(name)}", seconds=seconds, connections=connections
                ).as_baseline(name)
                with profiled(profile, lambda: stack.pid("api"), f"read {name} on {store}"):
                    ours = hammer(f"{stack.api_url}{path}", seconds=seconds, connections=connections, headers=bearer)
                results += judged(f"read: {name}", store, ours, baseline)
        finally:
            bare.terminate()
            bare.wait(timeout=30)
    return results
