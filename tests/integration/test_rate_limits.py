"""With REDIS_URL the rate-limit counters are shared by every API process; without it they are per process. The
apps' validations too: each process decides from its own windows at once, and shares its counts through Redis once a
second (integrations/redis_windows.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from limits import parse
from starlette.requests import Request

from api.ratelimit import VALIDATION_PER_CLIENT, VALIDATION_PER_KEY, RateLimiter
from bootstrap.services import rate_limit_storage
from domain.errors import DomainError, ErrorCode
from integrations.redis_windows import SharedWindows
from tests.conftest import REDIS_URL, make_settings, redis_available, require

pytestmark = pytest.mark.integration
SECRET = "test-secret"


def test_two_api_processes_share_the_counters_through_redis(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, REDIS_URL=redis_url)
    first, second = RateLimiter(rate_limit_storage(settings), SECRET), RateLimiter(rate_limit_storage(settings), SECRET)
    rule = parse("3 per minute")
    assert [first.hit(rule, "login:address", "a@example.com") for _ in range(2)] == [True, True]
    assert second.hit(rule, "login:address", "a@example.com") is True
    assert first.hit(rule, "login:address", "a@example.com") is False
    assert second.hit(rule, "login:address", "b@example.com") is True, "each address has its own budget"


def test_without_redis_each_process_counts_for_itself(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    first, second = RateLimiter(rate_limit_storage(settings), SECRET), RateLimiter(rate_limit_storage(settings), SECRET)
    rule = parse("1 per minute")
    assert first.hit(rule, "mail:address", "a@example.com") is True
    assert first.hit(rule, "mail:address", "a@example.com") is False
    assert second.hit(rule, "mail:address", "a@example.com") is True


def _app_at(address: str) -> Request:
    return Request({"type": "http", "method": "POST", "path": "/", "headers": [], "client": (address, 40000)})


def test_validations_are_counted_across_processes_through_redis(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, REDIS_URL=redis_url)
    shared = [SharedWindows(redis_url, sync_seconds=3600), SharedWindows(redis_url, sync_seconds=3600)]
    first, second = (RateLimiter(rate_limit_storage(settings), SECRET, windows) for windows in shared)
    key = "ABCD-EFGH-JKMN-PQRS"
    for number in range(VALIDATION_PER_KEY.amount):
        (first, second)[number % 2].validation(_app_at(f"198.18.0.{number % 250 + 1}"), key)
    second.validation(_app_at("198.18.1.1"), key)  # within a second, each process knows only its own half
    for windows in shared:  # each adds its counts to Redis; the later one learns the total is over
        windows.sync()
    with pytest.raises(DomainError) as refused:
        second.validation(_app_at("198.18.1.2"), key)
    assert refused.value.code is ErrorCode.TOO_MANY_REQUESTS, "the key's budget is one, across processes"
    assert refused.value.retry_after is not None and refused.value.retry_after > 0
    first.validation(_app_at("198.18.1.3"), key)  # the first learns at its next sync after it sees the key again
    shared[0].sync()
    with pytest.raises(DomainError):
        first.validation(_app_at("198.18.1.4"), key)
    second.validation(_app_at("198.18.1.1"), "ABCD-EFGH-JKMN-WXYZ")  # another key has its own
    for limiter in (first, second):
        limiter.close()


@pytest.mark.parametrize("counted_in", ["memory", "redis"])
def test_a_refused_client_cannot_use_up_a_keys_budget(counted_in: str, tmp_path: Path) -> None:
    shared = SharedWindows(REDIS_URL, sync_seconds=3600) if counted_in == "redis" else None
    if shared is not None:
        require("Redis", redis_available())
        redis.Redis.from_url(REDIS_URL).flushdb()
    limiter = RateLimiter(rate_limit_storage(make_settings(tmp_path)), SECRET, shared)
    flooder, key = _app_at("203.0.113.9"), "ABCD-EFGH-JKMN-PQRS"
    refused = 0
    for _ in range(VALIDATION_PER_CLIENT.amount + VALIDATION_PER_KEY.amount):
        try:
            limiter.validation(flooder, "ABCD-EFGH-JKMN-WXYZ")  # another key: this client reaches its own limit
        except DomainError:
            refused += 1
        if shared is not None:
            shared.sync()
    assert refused > 0
    for _ in range(VALIDATION_PER_KEY.amount):
        with pytest.raises(DomainError):
            limiter.validation(flooder, key)  # refused as a client: none of these count for the key
    if shared is not None:
        shared.sync()
    limiter.validation(_app_at("198.51.100.7"), key)  # the key's owner, elsewhere, still gets through
    limiter.close()


def test_while_redis_does_not_answer_each_process_counts_validations_for_itself(tmp_path: Path) -> None:
    nowhere = SharedWindows("redis://127.0.0.1:1/0", sync_seconds=0.01)  # nothing listens there
    limiter = RateLimiter(rate_limit_storage(make_settings(tmp_path)), SECRET, nowhere)
    key = "ABCD-EFGH-JKMN-PQRS"
    for number in range(VALIDATION_PER_KEY.amount):
        limiter.validation(_app_at(f"198.18.0.{number % 250 + 1}"), key)
    with pytest.raises(DomainError) as refused:
        limiter.validation(_app_at("198.18.1.1"), key)
    assert refused.value.code is ErrorCode.TOO_MANY_REQUESTS, "the limits still hold, in this process"
    limiter.close()
