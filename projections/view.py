"""A read model: its tables and how each event changes its rows."""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from eventlog.database import ViewCursor


class View(ABC):
    """Subclasses declare their tables and override ``apply`` for the events they care about.

    ``apply`` runs inside the transaction that also moves the view's position,
    so it must only touch this view's tables through the given cursor.
    """

    name: ClassVar[str]
    tables: ClassVar[tuple[str, ...]]
    # Raise it when the tables or what ``apply`` writes change: the view is then rebuilt from the log.
    version: ClassVar[int] = 1

    @abstractmethod
    def schema(self) -> list[str]:
        """CREATE TABLE / CREATE INDEX statements (portable SQL, IF NOT EXISTS)."""

    @abstractmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        """Change the rows for one event (ignore events this view does not use)."""

    def apply_at(self, event: Any, notification_id: int, cursor: ViewCursor) -> None:
        """``apply`` for the event at ``notification_id`` in the log: a view that shows where each of its events
        is (for its proof) overrides this one instead."""
        self.apply(event, cursor)

    def uses(self, event_type: type) -> bool:
        """Does ``apply`` do anything with events of this type? A view whose ``apply`` is a
        ``singledispatchmethod`` says so by what it registered; any other ``apply`` is taken to use every event."""
        method = inspect.getattr_static(type(self), "apply")
        dispatcher = getattr(method, "dispatcher", None)
        if dispatcher is None:
            return True
        return bool(dispatcher.dispatch(event_type) is not dispatcher.dispatch(object))
