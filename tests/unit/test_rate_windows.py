"""The embedded mode's rate-limit windows decide as the limits library's moving window does, with no thread."""

from __future__ import annotations

import threading

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from integrations.rate_windows import SWEEP_SECONDS, InProcessWindows


class Wall:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.seconds = 1_800_000_000.0

    def __call__(self) -> float:
        return self.seconds


def limiter() -> tuple[MovingWindowRateLimiter, InProcessWindows, Wall]:
    wall = Wall()
    storage = InProcessWindows(now=wall)
    return MovingWindowRateLimiter(storage), storage, wall


def test_exactly_the_limit_gets_through_and_the_next_is_refused() -> None:
    rate, _, _ = limiter()
    rule = parse("3 per minute")
    assert [rate.hit(rule, "login", "a@example.com") for _ in range(4)] == [True, True, True, False]
    assert rate.hit(rule, "login", "b@example.com") is True, "each identity has a window of its own"


def test_the_window_moves_with_each_hit_rather_than_starting_again_on_the_minute() -> None:
    rate, _, wall = limiter()
    rule = parse("3 per minute")
    assert rate.hit(rule, "k") and rate.hit(rule, "k")
    wall.seconds += 30
    assert rate.hit(rule, "k")
    wall.seconds += 29
    assert rate.hit(rule, "k") is False, "three hits lie within the last minute"
    wall.seconds += 2  # the first two are a minute old now
    assert [rate.hit(rule, "k") for _ in range(3)] == [True, True, False]


def test_the_window_stats_say_how_many_remain_and_when_the_oldest_hit_leaves() -> None:
    rate, _, wall = limiter()
    rule = parse("2 per minute")
    started = wall.seconds
    rate.hit(rule, "k")
    wall.seconds += 10
    rate.hit(rule, "k")
    stats = rate.get_window_stats(rule, "k")
    assert stats.remaining == 0
    assert stats.reset_time == started + 60
    assert rate.get_window_stats(rule, "untouched").remaining == 2


def test_the_decisions_are_the_libraries_own_memory_storage_decisions() -> None:
    ours, _, wall = limiter()
    theirs = MovingWindowRateLimiter(MemoryStorage())
    rule = parse("5 per second")
    # Within one second of wall time the library's storage sees the same window as ours.
    decisions = [(ours.hit(rule, "k"), theirs.hit(rule, "k")) for _ in range(8)]
    assert [mine for mine, _ in decisions] == [theirs_ for _, theirs_ in decisions] == [True] * 5 + [False] * 3
    assert wall.seconds == 1_800_000_000.0


def test_a_cost_of_several_places_is_taken_whole_or_not_at_all() -> None:
    rate, _, _ = limiter()
    rule = parse("5 per minute")
    assert rate.hit(rule, "k", cost=3)
    assert rate.hit(rule, "k", cost=3) is False
    assert rate.hit(rule, "k", cost=2)
    assert rate.hit(rule, "k", cost=6) is False, "more than the limit never fits"


def test_windows_that_ran_out_are_swept_without_a_thread_of_their_own() -> None:
    rate, storage, wall = limiter()
    before = set(threading.enumerate())
    short, long = parse("10 per minute"), parse("10 per hour")
    for client in range(1000):
        rate.hit(short, "validation:client", f"10.0.{client // 256}.{client % 256}")
    rate.hit(long, "login:address", "still@example.com")
    assert not set(threading.enumerate()) - before, "the storage started no thread"
    wall.seconds += SWEEP_SECONDS + 1
    rate.hit(short, "validation:client", "10.9.9.9")
    assert rate.get_window_stats(long, "login:address", "still@example.com").remaining == 9, "a live window stays"
    assert storage.reset() == 2, "the thousand windows that ran out were dropped by the sweep"


def test_a_wall_clock_stepped_back_still_sweeps() -> None:
    rate, storage, wall = limiter()
    rate.hit(parse("1 per second"), "k")
    wall.seconds -= 3 * SWEEP_SECONDS  # the host's clock corrected backwards
    rate.hit(parse("1 per second"), "other")
    wall.seconds += 3 * SWEEP_SECONDS + 2
    rate.hit(parse("1 per second"), "third")
    assert storage.reset() == 1


def test_a_window_keeps_only_as_many_hits_as_its_limit() -> None:
    rate, storage, wall = limiter()
    rule = parse("4 per minute")
    for _ in range(50):
        rate.hit(rule, "k")
        wall.seconds += 20  # every hit is let through: the window moves on
    assert len(storage._windows[rule.key_for("k")]) == 4


def test_a_flood_of_new_identities_forgets_the_oldest_rather_than_growing_without_end() -> None:
    wall = Wall()
    storage = InProcessWindows(now=wall, max_windows=100)
    rate = MovingWindowRateLimiter(storage)
    rule = parse("1 per hour")
    assert rate.hit(rule, "first")
    for identity in range(200):
        assert rate.hit(rule, f"guess-{identity}")
    assert rate.get_window_stats(rule, "first").remaining == 1, "the oldest window was forgotten to make room"
    assert rate.get_window_stats(rule, "guess-199").remaining == 0, "the newest are still counted"
    assert storage.reset() == 100


def test_fixed_counters_run_out_after_their_expiry() -> None:
    _, storage, wall = limiter()
    assert [storage.incr("c", 10) for _ in range(3)] == [1, 2, 3]
    assert storage.get("c") == 3
    assert storage.get_expiry("c") == wall.seconds + 10
    wall.seconds += 10
    assert storage.get("c") == 0
    assert storage.incr("c", 10) == 1
    storage.clear("c")
    assert storage.get("c") == 0
