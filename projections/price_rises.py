"""The price-rises view: every request for consent to a higher price and its answer (docs/catalogue.md), one row per
subscription and rise. Staff read who agreed, declined, has not answered or lapsed; the reminder pass reads whose
change is near."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from events.subscriptions import (
    SubscriptionPriceRiseAgreed,
    SubscriptionPriceRiseAsked,
    SubscriptionPriceRiseDeclined,
    SubscriptionPriceRiseLapsed,
    SubscriptionPriceRiseReminded,
)
from projections.view import View


@dataclass(frozen=True)
class PriceRiseAnswers:
    """One subscriber asked for consent to one rise, and where their answer stands."""

    subscription_id: UUID
    account_id: UUID
    user_licence_id: UUID
    kind: str
    previous_amount: int
    amount: int
    currency: str
    asked_at: datetime
    changes_at: datetime
    answer: str  # pending, agreed, declined, lapsed
    answered_at: datetime | None
    reminded_at: datetime | None


@dataclass(frozen=True)
class RiseSummary:
    """One catalogue version's rise: how many were asked, and how many of them gave each answer."""

    catalogue_version: int
    asked: int
    agreed: int
    declined: int
    pending: int
    lapsed: int


class PriceRisesView(View):
    """One row per (subscription, catalogue version) asked."""

    name = "price_rises"
    tables = ("price_rises_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS price_rises_view ("
            "subscription_id TEXT NOT NULL, catalogue_version INTEGER NOT NULL, account_id TEXT NOT NULL, "
            "user_licence_id TEXT NOT NULL, kind TEXT NOT NULL, previous_amount BIGINT NOT NULL, "
            "amount BIGINT NOT NULL, currency TEXT NOT NULL, asked_at TEXT NOT NULL, changes_at TEXT NOT NULL, "
            "answer TEXT NOT NULL, answered_at TEXT, reminded_at TEXT, "
            "PRIMARY KEY (subscription_id, catalogue_version))",
            "CREATE INDEX IF NOT EXISTS price_rises_view_version ON price_rises_view (catalogue_version, answer)",
            "CREATE INDEX IF NOT EXISTS price_rises_view_changes ON price_rises_view (changes_at)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _asked(self, event: SubscriptionPriceRiseAsked, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO price_rises_view (subscription_id, catalogue_version, account_id, user_licence_id, kind, "
            "previous_amount, amount, currency, asked_at, changes_at, answer) VALUES (%(id)s, %(version)s, "
            "%(account)s, %(licence)s, %(kind)s, %(previous)s, %(amount)s, %(currency)s, %(asked)s, %(changes)s, "
            "'pending')",
            {
                "id": str(event.originator_id),
                "version": event.catalogue_version,
                "account": str(event.account_id),
                "licence": str(event.user_licence_id),
                "kind": event.kind,
                "previous": event.previous_amount,
                "amount": event.amount,
                "currency": event.currency,
                "asked": _moment(event.asked_at),
                "changes": _moment(event.changes_at),
            },
        )

    @apply.register
    def _agreed(self, event: SubscriptionPriceRiseAgreed, cursor: ViewCursor) -> None:
        self._answer(cursor, event.originator_id, event.catalogue_version, "agreed", event.agreed_at)

    @apply.register
    def _declined(self, event: SubscriptionPriceRiseDeclined, cursor: ViewCursor) -> None:
        self._answer(cursor, event.originator_id, event.catalogue_version, "declined", event.declined_at)

    @apply.register
    def _lapsed(self, event: SubscriptionPriceRiseLapsed, cursor: ViewCursor) -> None:
        self._answer(cursor, event.originator_id, event.catalogue_version, "lapsed", event.lapsed_at)

    @apply.register
    def _reminded(self, event: SubscriptionPriceRiseReminded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE price_rises_view SET reminded_at = %(at)s, changes_at = %(changes)s "
            "WHERE subscription_id = %(id)s AND catalogue_version = %(version)s",
            {
                "at": _moment(event.reminded_at),
                "changes": _moment(event.changes_at),
                "id": str(event.originator_id),
                "version": event.catalogue_version,
            },
        )

    def _answer(self, cursor: ViewCursor, subscription_id: UUID, version: int, answer: str, at: datetime) -> None:
        cursor.execute(
            "UPDATE price_rises_view SET answer = %(answer)s, answered_at = %(at)s "
            "WHERE subscription_id = %(id)s AND catalogue_version = %(version)s",
            {"answer": answer, "at": _moment(at), "id": str(subscription_id), "version": version},
        )


def _moment(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat() if value is not None else None


def _read_moment(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def awaiting_reminder(db: ViewDatabase, now: datetime, lead: timedelta) -> list[UUID]:
    """Subscriptions asked for consent they have not given, not reminded yet, whose change is within ``lead`` (the
    domain decides; this only finds the candidates)."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT subscription_id FROM price_rises_view WHERE answer IN ('pending', 'declined') "
            "AND reminded_at IS NULL AND changes_at > %(now)s AND changes_at <= %(until)s",
            {"now": _moment(now), "until": _moment(now + lead)},
        )
        return [UUID(row["subscription_id"]) for row in cursor.fetchall()]


def rises(db: ViewDatabase) -> list[RiseSummary]:
    """Every version asked for, newest first, with its answers counted."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT catalogue_version, answer, COUNT(*) AS n FROM price_rises_view "
            "GROUP BY catalogue_version, answer ORDER BY catalogue_version DESC"
        )
        rows = cursor.fetchall()
    counts: dict[int, dict[str, int]] = {}
    for row in rows:
        counts.setdefault(int(row["catalogue_version"]), {})[row["answer"]] = int(row["n"])
    return [
        RiseSummary(
            version,
            sum(each.values()),
            each.get("agreed", 0),
            each.get("declined", 0),
            each.get("pending", 0),
            each.get("lapsed", 0),
        )
        for version, each in counts.items()
    ]


def answers_to(db: ViewDatabase, catalogue_version: int) -> list[PriceRiseAnswers]:
    """Everyone asked for consent to version ``catalogue_version``'s rise, by when they were asked."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM price_rises_view WHERE catalogue_version = %(version)s ORDER BY asked_at, subscription_id",
            {"version": catalogue_version},
        )
        rows = cursor.fetchall()
    return [
        PriceRiseAnswers(
            UUID(row["subscription_id"]),
            UUID(row["account_id"]),
            UUID(row["user_licence_id"]),
            row["kind"],
            int(row["previous_amount"]),
            int(row["amount"]),
            row["currency"],
            datetime.fromisoformat(row["asked_at"]),
            datetime.fromisoformat(row["changes_at"]),
            row["answer"],
            _read_moment(row["answered_at"]),
            _read_moment(row["reminded_at"]),
        )
        for row in rows
    ]
