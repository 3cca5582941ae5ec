"""Base classes that give every stored event a stable, explicit topic.

A stored topic is a contract with the log: it must never change when code moves.
Each event class declares ``TOPIC`` (for example ``"account.Registered"``) and
the class is registered under it when defined. Events carry plain values only.
"""

from __future__ import annotations

from typing import Any, ClassVar

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

_REGISTERED: dict[str, type[Any]] = {}


def _register(cls: type[Any]) -> None:
    topic = cls.__dict__.get("TOPIC")
    if not topic:
        return
    if topic in _REGISTERED and _REGISTERED[topic] is not cls:
        msg = f"Topic {topic!r} is already used by {_REGISTERED[topic]!r}"
        raise TypeError(msg)
    _REGISTERED[topic] = cls
    register_topic(topic, cls)


def registered_topics() -> dict[str, type[Any]]:
    """Every event topic defined so far, mapped to its class."""
    return dict(_REGISTERED)


class StoredEvent(Aggregate.Event):
    """An event that changes an existing aggregate.

    The aggregate applies it in its ``when`` method, so that the event class
    (here, in ``events``) does not need to know the aggregate (in ``domain``).
    """

    TOPIC: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(cls)

    def apply(self, aggregate: Any) -> None:
        aggregate.when(self)


class StoredCreation(Aggregate.Created):
    """An event that creates an aggregate."""

    TOPIC: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(cls)

    def apply(self, aggregate: Any) -> None:
        aggregate.when(self)
