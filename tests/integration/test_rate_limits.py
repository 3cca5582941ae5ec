"""With REDIS_URL the rate-limit counters are shared by every API process; without it they are per process. The
apps' validations are counted by each process for itself either way (api/ratelimit.py says why)."""

from __future__ import annotations

from pathlib import Path

import pytest
from limits import parse
from starlette.requests import Request

from api.ratelimit import VALIDATION_PER_CLIENT, VALIDATION_PER_KEY, RateLimiter
from bootstrap.services import rate_limit_storage
from domain.errors import DomainError, ErrorCode
from tests.conftest import make_settings

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


def test_validations_are_counted_by_each_process_even_with_redis(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, REDIS_URL=redis_url)
    first, second = RateLimiter(rate_limit_storage(settings), SECRET), RateLimiter(rate_limit_storage(settings), SECRET)
    key = "ABCD-EFGH-JKMN-PQRS"
    for number in range(VALIDATION_PER_KEY.amount):
        first.validation(_app_at(f"198.18.0.{number % 250 + 1}"), key)
    with pytest.raises(DomainError) as refused:
        first.validation(_app_at("198.18.1.1"), key)
    assert refused.value.code is ErrorCode.TOO_MANY_REQUESTS
    assert refused.value.retry_after is not None and refused.value.retry_after > 0
    second.validation(_app_at("198.18.1.1"), key)  # the other process has its own count of this key
    # Login attempts at the same moment are still shared through Redis.
    rule = parse("1 per minute")
    assert first.hit(rule, "login:address", "c@example.com") is True
    assert second.hit(rule, "login:address", "c@example.com") is False


def test_a_refused_client_cannot_use_up_a_keys_budget(tmp_path: Path) -> None:
    limiter = RateLimiter(rate_limit_storage(make_settings(tmp_path)), SECRET)
    flooder, key = _app_at("203.0.113.9"), "ABCD-EFGH-JKMN-PQRS"
    refused = 0
    for _ in range(VALIDATION_PER_CLIENT.amount + VALIDATION_PER_KEY.amount):
        try:
            limiter.validation(flooder, "ABCD-EFGH-JKMN-WXYZ")  # another key, so this client reaches its own limit
        except DomainError:
            refused += 1
    assert refused > 0
    for _ in range(VALIDATION_PER_KEY.amount):
        with pytest.raises(DomainError):
            limiter.validation(flooder, key)  # refused as a client: none of these count for the key
    limiter.validation(_app_at("198.51.100.7"), key)  # the key's owner, elsewhere, still gets through
