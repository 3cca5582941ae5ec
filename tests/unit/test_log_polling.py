"""On SQLite the views poll the log: soon again after finding news, backing off while the log is quiet."""

from eventlog.follower import BUSY_POLL_SECONDS, PollBackoff


def test_a_busy_log_is_looked_at_again_soon_and_a_quiet_one_less_and_less_often() -> None:
    backoff = PollBackoff(idle_interval=0.1)

    assert backoff.after(found_news=True) == BUSY_POLL_SECONDS
    quiet = [backoff.after(found_news=False) for _ in range(5)]
    assert quiet == [0.02, 0.04, 0.08, 0.1, 0.1]
    assert backoff.after(found_news=True) == BUSY_POLL_SECONDS


def test_a_follower_starts_at_the_idle_interval_and_never_polls_faster_than_it_is_allowed_to() -> None:
    assert PollBackoff(idle_interval=0.1).wait == 0.1
    tiny = PollBackoff(idle_interval=0.005)
    assert tiny.after(found_news=True) == 0.005
    assert tiny.after(found_news=False) == 0.005
