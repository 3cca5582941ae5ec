"""With REDIS_URL the rate-limit counters are shared by every API process; without it they are per process."""

from __future__ import annotations

from pathlib import Path

import pytest
from limits import parse

from api.ratelimit import RateLimiter
from bootstrap.services import rate_limit_storage
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
