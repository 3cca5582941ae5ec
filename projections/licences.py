"""The licences view: each customer's licences with their devices, for the list and detail pages."""

from __future__ import annotations

from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from eventlog.page_reads import Statement
from events.licences import (
    DeviceActivated,
    DeviceReleased,
    DeviceRemoved,
    DeviceRenamed,
    DeviceSeen,
    LicenceActivated,
    LicenceExtended,
    LicenceFlagged,
    LicenceGranted,
    LicenceReservationLapsed,
    LicenceReserved,
    LicenceRevoked,
    LicenceShortened,
    LicenceTransferred,
    LicenceUpgraded,
)
from projections.view import View

UserLicenceEvent = (
    LicenceGranted
    | LicenceReserved
    | LicenceActivated
    | LicenceReservationLapsed
    | LicenceShortened
    | LicenceRevoked
    | LicenceExtended
    | LicenceUpgraded
    | LicenceTransferred
    | LicenceFlagged
    | DeviceActivated
    | DeviceRenamed
    | DeviceRemoved
    | DeviceSeen
    | DeviceReleased
)


class LicencesView(View):
    """One row per user licence and one per activated device."""

    name = "licences"
    tables = ("licences_view", "licence_devices_view")
    # 2: upgrades change a licence's plan; 3: devices' last-seen times, released seats; 4: the licence's version and
    # its key's index (the app API answers a seated device from here)
    version = 4

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS licences_view ("
            "user_licence_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, licence_id INTEGER NOT NULL, "
            "product_code TEXT NOT NULL, name TEXT NOT NULL, life INTEGER NOT NULL, "
            "max_devices_count INTEGER NOT NULL, state TEXT NOT NULL, starts_at TEXT, expires_at TEXT, "
            "deposit_deadline TEXT, licence_key TEXT NOT NULL, merchant_uid TEXT, source TEXT NOT NULL, "
            "created_at TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX IF NOT EXISTS licences_view_account ON licences_view (account_id)",
            "CREATE INDEX IF NOT EXISTS licences_view_key ON licences_view (licence_key)",
            "CREATE TABLE IF NOT EXISTS licence_devices_view ("
            "user_licence_id TEXT NOT NULL, device_id TEXT NOT NULL, device_name TEXT NOT NULL, "
            "platform TEXT NOT NULL, registered_at TEXT NOT NULL, last_seen_at TEXT NOT NULL, "
            "PRIMARY KEY (user_licence_id, device_id))",
            "CREATE INDEX IF NOT EXISTS licence_devices_view_last_seen ON licence_devices_view (last_seen_at)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _licence_event(self, event: UserLicenceEvent, cursor: ViewCursor) -> None:
        # Every event of a licence moves its version (the app API's token says whether its log proof is of the
        # licence as it is now), whether or not it changes a row.
        self._rows(event, cursor)
        cursor.execute(
            "UPDATE licences_view SET version = %(version)s WHERE user_licence_id = %(id)s",
            {"version": event.originator_version, "id": str(event.originator_id)},
        )

    @singledispatchmethod
    def _rows(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @_rows.register
    def _granted(self, event: LicenceGranted, cursor: ViewCursor) -> None:
        self._insert(cursor, event, "active", event.starts_at, event.expires_at, None)

    @_rows.register
    def _reserved(self, event: LicenceReserved, cursor: ViewCursor) -> None:
        self._insert(cursor, event, "reserved", None, None, event.deposit_deadline)

    def _insert(
        self,
        cursor: ViewCursor,
        event: LicenceGranted | LicenceReserved,
        state: str,
        starts_at: datetime | None,
        expires_at: datetime | None,
        deadline: datetime | None,
    ) -> None:
        cursor.execute(
            "INSERT INTO licences_view (user_licence_id, account_id, licence_id, product_code, name, life, "
            "max_devices_count, state, starts_at, expires_at, deposit_deadline, licence_key, merchant_uid, "
            "source, created_at) VALUES (%(id)s, %(account)s, %(licence)s, %(product)s, %(name)s, %(life)s, "
            "%(devices)s, %(state)s, %(starts)s, %(expires)s, %(deadline)s, %(key)s, %(merchant)s, "
            "%(source)s, %(created)s)",
            {
                "id": str(event.originator_id),
                "account": str(event.account_id),
                "licence": event.licence_id,
                "product": event.product_code,
                "name": event.name,
                "life": event.life,
                "devices": event.max_devices_count,
                "state": state,
                "starts": _iso(starts_at),
                "expires": _iso(expires_at),
                "deadline": _iso(deadline),
                "key": event.licence_key,
                "merchant": event.merchant_uid,
                "source": getattr(event, "source", "purchase"),
                "created": event.timestamp.isoformat(),
            },
        )

    @_rows.register
    def _activated(self, event: LicenceActivated, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="active",
            starts_at=_iso(event.starts_at),
            expires_at=_iso(event.expires_at),
        )

    @_rows.register
    def _lapsed(self, event: LicenceReservationLapsed, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, state="lapsed")

    @_rows.register
    def _shortened(self, event: LicenceShortened, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, expires_at=_iso(event.expires_at))

    @_rows.register
    def _revoked(self, event: LicenceRevoked, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, state="revoked", expires_at=_iso(event.revoked_at))

    @_rows.register
    def _extended(self, event: LicenceExtended, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, expires_at=_iso(event.expires_at))

    @_rows.register
    def _upgraded(self, event: LicenceUpgraded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE licences_view SET licence_id = %(licence)s, product_code = %(product)s, name = %(name)s, "
            "life = %(life)s, max_devices_count = %(devices)s, source = %(source)s, starts_at = %(starts)s, "
            "expires_at = %(expires)s WHERE user_licence_id = %(id)s",
            {
                "licence": event.licence_id,
                "product": event.product_code,
                "name": event.name,
                "life": event.life,
                "devices": event.max_devices_count,
                "source": event.source,
                "starts": _iso(event.starts_at),
                "expires": _iso(event.expires_at),
                "id": str(event.originator_id),
            },
        )

    @_rows.register
    def _transferred(self, event: LicenceTransferred, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, account_id=str(event.to_account_id))

    def _update(self, cursor: ViewCursor, licence_id: UUID, **columns: str | None) -> None:
        assignments = ", ".join(f"{column} = %({column})s" for column in columns)
        cursor.execute(
            f"UPDATE licences_view SET {assignments} WHERE user_licence_id = %(id)s",
            {**columns, "id": str(licence_id)},
        )

    @_rows.register
    def _device_activated(self, event: DeviceActivated, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO licence_devices_view (user_licence_id, device_id, device_name, platform, registered_at, "
            "last_seen_at) VALUES (%(licence)s, %(device)s, %(name)s, %(platform)s, %(at)s, %(at)s)",
            {
                "licence": str(event.originator_id),
                "device": event.device_id,
                "name": event.device_name,
                "platform": event.platform,
                "at": event.timestamp.isoformat(),
            },
        )

    @_rows.register
    def _device_renamed(self, event: DeviceRenamed, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE licence_devices_view SET device_name = %(name)s "
            "WHERE user_licence_id = %(licence)s AND device_id = %(device)s",
            {"name": event.device_name, "licence": str(event.originator_id), "device": event.device_id},
        )

    @_rows.register
    def _device_removed(self, event: DeviceRemoved | DeviceReleased, cursor: ViewCursor) -> None:
        cursor.execute(
            "DELETE FROM licence_devices_view WHERE user_licence_id = %(licence)s AND device_id = %(device)s",
            {"licence": str(event.originator_id), "device": event.device_id},
        )

    @_rows.register
    def _device_released(self, event: DeviceReleased, cursor: ViewCursor) -> None:
        self._device_removed(event, cursor)

    @_rows.register
    def _device_seen(self, event: DeviceSeen, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE licence_devices_view SET last_seen_at = %(at)s "
            "WHERE user_licence_id = %(licence)s AND device_id = %(device)s",
            {"at": event.timestamp.isoformat(), "licence": str(event.originator_id), "device": event.device_id},
        )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def licence_statements(account_id: UUID, user_licence_id: UUID | None = None) -> tuple[Statement, Statement]:
    """The reads of an account's licences (or just ``user_licence_id`` of them), newest first, and of their
    devices, oldest first: independent of each other, so a page sends them together (``read_many_async``) and
    joins the answers with ``with_devices``."""
    only = " AND l.user_licence_id = %(licence)s" if user_licence_id is not None else ""
    params = {"account": str(account_id), "licence": str(user_licence_id)}
    return (
        (
            f"SELECT * FROM licences_view l WHERE l.account_id = %(account)s{only} "
            "ORDER BY l.created_at DESC, l.user_licence_id",
            params,
        ),
        (
            "SELECT d.* FROM licence_devices_view d JOIN licences_view l ON l.user_licence_id = d.user_licence_id "
            f"WHERE l.account_id = %(account)s{only} ORDER BY d.registered_at, d.device_id",
            params,
        ),
    )


def with_devices(licences: list[dict[str, Any]], devices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The licence rows, each with its device rows (in their order) under ``devices``."""
    by_licence: dict[str, list[dict[str, Any]]] = {}
    for device in devices:
        by_licence.setdefault(device["user_licence_id"], []).append(device)
    for licence in licences:
        licence["devices"] = by_licence.get(licence["user_licence_id"], [])
    return licences


def licences_with_idle_devices(db: ViewDatabase, unseen_since: datetime) -> list[UUID]:
    """The licences holding a device last seen at or before ``unseen_since`` (the release pass's work list)."""
    with db.read() as cursor:
        cursor.execute("SELECT user_licence_id, last_seen_at FROM licence_devices_view ORDER BY user_licence_id")
        rows = cursor.fetchall()
    idle = {row["user_licence_id"] for row in rows if datetime.fromisoformat(row["last_seen_at"]) <= unseen_since}
    return [UUID(licence) for licence in sorted(idle)]


def seat_statements(licence_key: str, device_id: str) -> tuple[Statement, Statement]:
    """The reads behind an app's validation of a seated device: the key's licence (its plan, state, expiry and
    version) and that device's row, sent together (``read_many_async``)."""
    params = {"key": licence_key, "device": device_id}
    return (
        (
            "SELECT user_licence_id, product_code, max_devices_count, state, expires_at, version, "
            "(SELECT COUNT(*) FROM licence_devices_view c WHERE c.user_licence_id = l.user_licence_id) "
            "AS devices_count FROM licences_view l WHERE l.licence_key = %(key)s",
            params,
        ),
        (
            "SELECT d.last_seen_at FROM licence_devices_view d JOIN licences_view l "
            "ON l.user_licence_id = d.user_licence_id WHERE l.licence_key = %(key)s AND d.device_id = %(device)s",
            params,
        ),
    )
