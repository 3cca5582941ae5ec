"""Issue 40 finding 12 (key guessing on validate): 300 random keys validated from one address met no refusal; the
limit was 600 per client per 10 minutes per API process, written nowhere a licensing API's user would read it, and
counted in each process's memory even with Redis, so behind N processes a guesser had N budgets.

Now the numbers are in docs/app-licensing.md, and with Redis every API process adds its counts there once a second:
a guesser spreading calls over two processes is refused by both once they add up to one budget (``Retry-After``
says how long), and the next second it is refused wherever it goes.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.ratelimit import VALIDATION_PER_CLIENT, VALIDATION_PER_KEY
from api.services import Services
from config.settings import Settings
from domain.licences.keys import ALPHABET
from tests.fakes import PlainHasher
from tests.security.shop import V1
from tests.support import running_projector

pytestmark = pytest.mark.integration

DOCS = Path(__file__).resolve().parents[2] / "docs" / "app-licensing.md"
GUESSER = "203.0.113.99"
SYNC = 1.5  # seconds: more than one sync of every process


@pytest.fixture
def two_api_processes(settings: Settings, redis_url: str) -> Iterator[list[TestClient]]:
    shared = settings.model_copy(update={"redis_url": redis_url})
    processes = [Services.build(shared, hasher=PlainHasher()) for _ in range(2)]
    with running_projector(shared):
        yield [TestClient(create_app(services=services), client=("127.0.0.1", 50000)) for services in processes]
    for services in processes:
        services.close()


def guess(api: TestClient) -> tuple[int, str | None]:
    key = "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(4))
    answer = api.post(
        f"{V1}/apps/v1/licence/validate",
        json={"licenceKey": key, "deviceId": "guesser", "platform": "android"},
        headers={"X-Forwarded-For": GUESSER},
    )
    return answer.status_code, answer.headers.get("retry-after")


def test_the_limits_are_written_down_with_their_numbers() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert f"{VALIDATION_PER_CLIENT.amount} per client" in text
    assert f"{VALIDATION_PER_KEY.amount} per licence key per 10 minutes" in text


def test_a_guesser_spreading_over_two_processes_has_one_budget(two_api_processes: list[TestClient]) -> None:
    first, second = two_api_processes
    half = VALIDATION_PER_CLIENT.amount // 2
    attack = [guess(api)[0] for api in (first, second) for _ in range(half)]
    assert attack == [200] * (2 * half), "within a second each process lets its share through"

    time.sleep(SYNC)
    refused = [guess(api) for api in (first, second)]
    late = [status for status, _ in refused]
    assert 429 in late, f"the processes added up one budget: {refused}"
    assert all(wait is not None and int(wait) > 0 for status, wait in refused if status == 429)
    time.sleep(SYNC)
    assert [guess(api)[0] for api in (first, second, first, second)] == [429] * 4, "refused everywhere"
