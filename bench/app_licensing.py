"""App validations at 50 clients: ``POST /apps/v1/licence/validate`` (the hottest call a licensing system has)
against a bare FastAPI endpoint that parses the same body and answers the same bytes, in the same run (targets:
at least 60% of its throughput, p99 at most 2x).

The load is what many apps look like: each request names one of many licences and devices and comes from one of
many addresses (through the trusted local proxy's X-Forwarded-For), so the per-client and per-key limits count
as they do in production without refusing the benchmark. It also prints what that throughput means for a key
guesser: with 80-bit keys, how long finding any one sold key would take at our own measured rate with no limits.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import httpx

from bench.harness import Result, bench_stack, smallest
from bench.load import Load, hammer, judged
from bench.profile import profiled
from bench.reads import bare_baseline, buy, confirm
from domain.licences.keys import ALPHABET
from tests.faults.stack import V1, Stack

VALIDATE = f"{V1}/apps/v1/licence/validate"
ANNUAL_3 = 123  # Unicorn Pro for Android, 365 days, 3 devices
KEYS_PER_SECOND = 30  # licences seeded per second of load: no key reaches 120 validations at up to 3,300/s
PASSWORD = "bench2026"  # noqa: S105 - the benchmark's own customer
ADDRESSES = 4096  # distinct clients the load comes from (10.0.0.0/20)
KEY_BITS = 16 * 5  # 16 characters of a 32-letter alphabet
SOLD = 1_000_000  # a generous number of keys in circulation


def _seed(stack: Stack, keys: int) -> list[tuple[str, str]]:
    """A confirmed customer with ``keys`` licences, each with one device activated: the (key, device) pairs."""
    with httpx.Client(timeout=30) as http:
        email = "apps@example.com"
        registered = http.post(
            f"{stack.api_url}{V1}/accounts", json={"email": email, "pw": PASSWORD, "language": "ko"}
        ).json()
        confirm(http, stack, registered["userId"], email)
        token = http.post(f"{stack.api_url}{V1}/auth/login", json={"email": email, "pw": PASSWORD}).json()[
            "accessToken"
        ]
        for _ in range(keys):
            buy(http, stack, token, ANNUAL_3)
        mine = http.get(f"{stack.api_url}{V1}/licenses/mine", headers={"Authorization": f"Bearer {token}"}).json()
        pairs = []
        for number, licence in enumerate(mine):
            key, device = licence["licenseKey"], f"bench-device-{number}"
            activated = http.post(
                f"{stack.api_url}{V1}/apps/v1/licence/activate",
                json={"licenceKey": key, "deviceId": device, "deviceName": "Bench", "platform": "android"},
                headers={"X-Forwarded-For": f"10.1.{number // 256}.{number % 256}"},
            )
            activated.raise_for_status()
            pairs.append((key, device))
        return pairs


def _script(folder: Path, name: str, path: str, pairs: list[tuple[str, str]]) -> Path:
    """A wrk script (``name``.lua): each request a validation of the next (key, device), from the next address."""
    bodies = [json.dumps({"licenceKey": key, "deviceId": device, "platform": "android"}) for key, device in pairs]
    lua = folder / f"{name}.lua"
    lua.write_text(
        "local bodies = {" + ",".join(json.dumps(body) for body in bodies) + "}\n"
        "local n = 0\n"
        "request = function()\n"
        "  n = n + 1\n"
        f"  local address = n % {ADDRESSES}\n"
        "  local headers = {}\n"
        '  headers["Content-Type"] = "application/json"\n'
        '  headers["X-Forwarded-For"] = string.format("10.0.%d.%d", math.floor(address / 256), address % 256)\n'
        f'  return wrk.format("POST", "{path}", headers, bodies[(n % #bodies) + 1])\n'
        "end\n",
        encoding="utf-8",
    )
    return lua


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, profile: bool = False) -> list[Result]:
    """Measure validations and their bare baseline on a stack of ``store`` (with ``profile``, py-spy samples the
    API while it validates and the busiest functions are printed)."""
    with tempfile.TemporaryDirectory(prefix="bench-apps-") as tmp, bench_stack(Path(tmp) / "var", **env) as stack:
        pairs = _seed(stack, smallest(max(300, KEYS_PER_SECOND * seconds), 3))
        key, device = pairs[0]
        sample = httpx.post(
            f"{stack.api_url}{VALIDATE}", json={"licenceKey": key, "deviceId": device, "platform": "android"}
        ).json()
        assert sample["status"] == "valid", sample
        bare, bare_url = bare_baseline({"validate": sample}, Path(tmp))
        try:
            bare_script = _script(Path(tmp), "bare", "/answer/validate", pairs)
            our_script = _script(Path(tmp), "ours", VALIDATE, pairs)
            body: dict[str, object] = {"licenceKey": key, "deviceId": device, "platform": "android"}
            baseline = hammer(
                bare_url, seconds=seconds, connections=connections, script=bare_script,
                posted=("/answer/validate", body),
            )  # fmt: skip
            baseline.as_baseline("validate")
            with profiled(profile, lambda: stack.pid("api"), f"validate on {store}"):
                ours = hammer(
                    stack.api_url, seconds=seconds, connections=connections, script=our_script,
                    posted=(VALIDATE, body),
                )  # fmt: skip
        finally:
            bare.terminate()
            bare.wait(timeout=30)
    print(_guessing(ours))
    return judged("apps: validate", store, ours, baseline)


def _guessing(ours: Load) -> str:
    """What the measured rate means for someone guessing keys, with the limits set aside."""
    assert len(ALPHABET) == 32
    chance = SOLD / 2**KEY_BITS
    years = 1 / (chance * ours.requests_per_second) / (365 * 24 * 3600)
    return (
        f"key guessing: {KEY_BITS}-bit keys, {SOLD:,} sold, at our own {ours.requests_per_second:,.0f} validations/s "
        f"with no limit: {years:,.0f} years on average to hit any sold key"
    )
