"""A task that a killed worker held comes back to the queue soon after the broker's visibility timeout,
not at kombu's default sweep of about 100 seconds (Redis broker)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kombu import Connection

from integrations.broker import broker_transport_options
from tests.conftest import make_settings

pytestmark = pytest.mark.integration
QUEUE = "redelivery-test"
# A worker that takes one message and dies before acknowledging it (SIGKILLed by the test).
TAKER = """
import json, sys, time
from kombu import Connection
with Connection(sys.argv[1], transport_options=json.loads(sys.argv[2])) as connection:
    message = connection.SimpleQueue(sys.argv[3]).get(timeout=10)
    print("taken", flush=True)
    time.sleep(60)
"""


def test_a_message_a_killed_worker_took_is_delivered_again_after_the_visibility_timeout(
    redis_url: str, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, REDIS_URL=redis_url, BROKER_VISIBILITY_TIMEOUT="2")
    options = broker_transport_options(settings)
    with Connection(settings.broker_url, transport_options=options) as producer:
        producer.SimpleQueue(QUEUE).put({"mail": "receipt"})
    taker = subprocess.Popen(
        [sys.executable, "-c", TAKER, settings.broker_url, json.dumps(options), QUEUE], stdout=subprocess.PIPE
    )
    assert taker.stdout is not None and taker.stdout.readline().strip() == b"taken"
    os.kill(taker.pid, signal.SIGKILL)
    taker.wait()

    started = time.monotonic()
    with Connection(settings.broker_url, transport_options=options) as next_worker:
        queue = next_worker.SimpleQueue(QUEUE)
        again = None
        while again is None and time.monotonic() - started < 30:
            try:  # every poll that finds nothing sweeps for abandoned messages, as a worker's timer does
                again = queue.get(timeout=1)
            except queue.Empty:
                continue
        assert again is not None, "the message never came back"
        again.ack()
    waited = time.monotonic() - started
    assert again.payload == {"mail": "receipt"}
    print(f"delivered again {waited:.1f} s after the worker died (visibility timeout 2 s)")


def test_abandoned_messages_are_swept_every_few_seconds_not_every_hundred(tmp_path: Path) -> None:
    for timeout, sweep in ((5, 2), (3600, 10)):
        settings = make_settings(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0", BROKER_VISIBILITY_TIMEOUT=str(timeout))
        options = broker_transport_options(settings)
        assert (options["visibility_timeout"], options["unacked_restore_interval"]) == (timeout, sweep)
        assert options["unacked_restore_throttle"] == 1, "each timer tick sweeps (kombu's default: every tenth)"
