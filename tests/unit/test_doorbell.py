"""On SQLite a commit rings every follower of that log file, so none waits out its poll."""

from __future__ import annotations

import socket
from pathlib import Path

from eventlog.doorbell import SOCKET_SUFFIX, Doorbell


def test_a_ring_wakes_every_follower_of_the_same_log_and_no_follower_of_another(tmp_path: Path) -> None:
    log = str(tmp_path / "events.sqlite3")
    other_log = str(tmp_path / "other.sqlite3")
    with Doorbell(log).listen() as first, Doorbell(log).listen() as second, Doorbell(other_log).listen() as other:
        Doorbell(log).ring()

        assert first.wait(5) is True
        assert second.wait(5) is True
        assert other.wait(0) is False


def test_rings_that_arrive_while_a_follower_is_busy_wake_its_next_wait_once(tmp_path: Path) -> None:
    bell = Doorbell(str(tmp_path / "events.sqlite3"))
    with bell.listen() as listener:
        for _ in range(3):
            bell.ring()

        assert listener.wait(5) is True
        assert listener.wait(0) is False  # the three rings were one wake-up


def test_ringing_with_nobody_listening_is_harmless(tmp_path: Path) -> None:
    bell = Doorbell(str(tmp_path / "never-followed.sqlite3"))
    bell.ring()
    assert not bell.directory.exists()


def test_a_follower_that_died_without_tidying_up_is_taken_off_the_door(tmp_path: Path) -> None:
    bell = Doorbell(str(tmp_path / "events.sqlite3"))
    bell.directory.mkdir(mode=0o700, exist_ok=True)
    stale = bell.directory / f"999999-dead{SOCKET_SUFFIX}"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dead.bind(str(stale))
    dead.close()  # its socket file stays, as after a kill -9

    with bell.listen() as alive:
        bell.ring()

        assert alive.wait(5) is True
        assert not stale.exists()


def test_a_closed_follower_leaves_no_socket_behind(tmp_path: Path) -> None:
    bell = Doorbell(str(tmp_path / "events.sqlite3"))
    listener = bell.listen()
    path = listener.path
    assert path.exists()
    listener.close()
    assert not path.exists()
    assert not bell.directory.exists()
