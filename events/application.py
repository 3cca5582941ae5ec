"""The one eventsourcing Application that holds the transactional core's log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder

import events  # noqa: F401  (registers every event topic before anything is read)
from events.transcodings import storefront_transcodings


class EventLog(Application[Any]):
    """The ordered log of every licence, subscription, payment and account event.

    One application means one total order (notification ids) for finance and one
    transaction for a purchase that touches several aggregates. The domain layer
    subclasses it to declare snapshotting intervals for its long-lived aggregates.
    """

    name = "Storefront"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "0"}

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(dict(env or {}))

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for transcoding in storefront_transcodings():
            transcoder.register(transcoding)

    def max_notification_id(self) -> int:
        """Position of the newest event in the log (0 when empty)."""
        return self.recorder.max_notification_id() or 0
