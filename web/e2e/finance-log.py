"""The e2e stack's log read without the app (python finance-log.py COMMAND ...), for web/e2e's finance story.

revenue DAY              yesterday's revenue per currency from the stored records alone, as JSON: each
                         payment.Succeeded paid that Korean day counts its payment.Ordered amount
paid-day MERCHANT_UID    the Korean day the gateway says the payment was paid (its paid_at: the sandbox's own clock,
                         which the stack's test clock, moved by earlier stories, may be far ahead of)
events MERCHANT_UID      the notification ids of the payment's events, as JSON
change-byte NID          change one byte of an event's stored state behind the app's back ('@' to '#')
verify PROOF_FILE        run the independent Go verifier on a downloaded proof file (prints its lines)
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

KST = timezone(timedelta(hours=9))
ROOT = Path(__file__).resolve().parents[2]


def _db() -> sqlite3.Connection:
    return sqlite3.connect(Path(os.environ["APP_VAR_DIR"]) / "events.sqlite3")


def _value(field: object) -> str:
    return str(field["_data_"]) if isinstance(field, dict) else str(field)


def revenue(day: str) -> dict[str, int]:
    ordered: dict[str, dict[str, object]] = {}
    totals: dict[str, int] = {}
    with _db() as conn:
        for originator, topic, state in conn.execute(
            "SELECT originator_id, topic, state FROM stored_events ORDER BY rowid"
        ):
            if topic == "payment.Ordered":
                ordered[originator] = json.loads(state)
            elif topic == "payment.Succeeded":
                paid = datetime.fromisoformat(_value(json.loads(state)["paid_at"]))
                if paid.astimezone(KST).date() == date.fromisoformat(day):
                    order = ordered[originator]
                    currency = _value(order["currency"])
                    totals[currency] = totals.get(currency, 0) + int(str(order["amount"]))
    return totals


def paid_day(merchant_uid: str) -> str:
    payment = uuid.uuid5(uuid.NAMESPACE_URL, f"/payments/{merchant_uid}")
    with _db() as conn:
        for (state,) in conn.execute(
            "SELECT state FROM stored_events WHERE originator_id IN (?, ?) AND topic = 'payment.Succeeded'",
            (payment.hex, str(payment)),
        ):
            return datetime.fromisoformat(_value(json.loads(state)["paid_at"])).astimezone(KST).date().isoformat()
    raise LookupError(merchant_uid)


def events(merchant_uid: str) -> list[int]:
    payment = uuid.uuid5(uuid.NAMESPACE_URL, f"/payments/{merchant_uid}")
    with _db() as conn:
        rows = conn.execute(
            "SELECT rowid FROM stored_events WHERE originator_id IN (?, ?) ORDER BY rowid", (payment.hex, str(payment))
        ).fetchall()
    return [row[0] for row in rows]


def change_byte(notification_id: int) -> None:
    with _db() as conn:
        (state,) = conn.execute("SELECT state FROM stored_events WHERE rowid = ?", (notification_id,)).fetchone()
        changed = bytes(state).replace(b"@", b"#", 1)
        assert changed != bytes(state), "no '@' in the event to change"
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (changed, notification_id))


def verify(proof_file: str) -> str:
    env = {
        **os.environ,
        "GO111MODULE": "off",
        "GOPATH": "/usr/share/gocode",
        "GOCACHE": str(Path(tempfile.gettempdir()) / "storefront-go-cache"),
        "GOFLAGS": "",
    }
    checker = ROOT / "tests" / "integration" / "audit" / "tlogcheck" / "main.go"
    go = shutil.which("go") or "/usr/lib/go/bin/go"
    done = subprocess.run(  # noqa: S603  (our own checker, on a file the test downloaded)
        [go, "run", str(checker)],
        input=Path(proof_file).read_text(),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout


if __name__ == "__main__":
    command, argument = sys.argv[1], sys.argv[2]
    if command == "revenue":
        print(json.dumps(revenue(argument)))
    elif command == "paid-day":
        print(paid_day(argument))
    elif command == "events":
        print(json.dumps(events(argument)))
    elif command == "change-byte":
        change_byte(int(argument))
    else:
        print(verify(argument), end="")
