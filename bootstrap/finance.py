"""Finance's work over the services, shared by the API (the back office) and the workers (beat): reconciling a
day with the gateway and recording it, verifying the log as a recorded job, proofs of payments and events in the
shape the independent verifier reads (tests/integration/audit/tlogcheck), exports and the month-end close pack.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import suppress
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from bootstrap.audit import open_audit
from bootstrap.finance_jobs import FinanceJobs, Progress
from bootstrap.services import Services
from domain.errors import DomainError, ErrorCode
from domain.finance.job_requests import record_job_request
from domain.finance.reconciliation_days import Run, check_run_reason, load_day, record_run
from domain.finance.verifications import record_verification
from domain.payments.payment import Payment
from domain.payments.reconciliation import BUSINESS_TIME, GatewayRecords, OurPayment, day_window, reconcile
from domain.ports import MailMessage
from domain.staff.disclosure import NOBODY, Disclosure
from domain.staff.member import list_members
from domain.staff.permissions import Permission, Role
from eventlog import csv_files
from eventlog.audit import Audit
from eventlog.audit.export import FORMATS, Selection, manifest, rows, write
from eventlog.audit.verification import verify_log
from eventlog.checkpoints import CheckpointError, open_checkpoint_by_any
from eventlog.transparency import read_log
from events.values import Language
from projections.finance_ledger import ledger_rows
from projections.payments import payment_by_merchant_uid, payments_ordered_between

MORNING = time(9, 0)  # beat reconciles yesterday from 09:00 in Korea
CATCH_UP_DAYS = 3  # and the mornings before it that it missed
VERIFY = "verify"
EXPORT = "export"
CLOSE_PACK = "close-pack"
Work = Callable[[Progress], dict[str, Any]]


def finance_jobs(services: Services) -> FinanceJobs:
    """The jobs table over the services' view database and object store."""
    return FinanceJobs(services.views, services.objects, services.clock)


def business_today(services: Services) -> date:
    """Today in Korea, by the injected clock."""
    return services.clock.now().astimezone(BUSINESS_TIME).date()


def _ours(row: dict[str, Any]) -> OurPayment:
    return OurPayment(row["merchant_uid"], row["state"], int(row["amount"]), row["currency"], int(row["cancel_amount"]))


def reconcile_day(services: Services, day: date, actor_id: UUID | None = None, reason: str = "") -> Run | None:
    """Compare the day's payments with the gateway's and record the run (beat's when ``actor_id`` is None: at most
    one a day, None when it was recorded already); finance is mailed when something does not match."""
    if actor_id is not None:
        check_run_reason(reason)  # before asking the gateway
    gateway = services.payments
    if not isinstance(gateway, GatewayRecords):
        raise DomainError(ErrorCode.INVALID_VALUE, "the configured gateway cannot list its payments")
    since, until = day_window(day)
    ours = [_ours(row) for row in payments_ordered_between(services.views, since, until)]

    def lookup(merchant_uid: str) -> OurPayment | None:
        row = payment_by_merchant_uid(services.views, merchant_uid)
        return _ours(row) if row is not None else None

    mismatches = reconcile(ours, lookup, gateway, day)
    run = record_run(services.store, services.clock, day, mismatches, len(ours), actor_id=actor_id, reason=reason)
    if run is not None and run.mismatches:
        shown = NOBODY.rows(run.mismatches)  # a mail to staff carries no declared secret
        lines = [f"{m['merchant_uid']} {m['kind']}: ours {m['ours']}, PortOne {m['gateway']}" for m in shown]
        _mail_finance(
            services,
            f"Reconciliation {day.isoformat()}: {len(run.mismatches)} mismatches / 대사 불일치 / 照合の不一致",
            "\n".join(
                [
                    f"Reconciliation of {day.isoformat()} (run {run.run}) found {len(run.mismatches)} mismatches.",
                    f"{day.isoformat()} 대사(실행 {run.run})에서 불일치 {len(run.mismatches)}건이 발견되었습니다.",
                    f"{day.isoformat()} の照合（{run.run} 回目）で {len(run.mismatches)} 件の不一致が見つかりました。",
                    "",
                    *lines,
                    "",
                    f"{services.settings.base_url}/admin/finance/reconciliation",
                ]
            ),
            key=f"reconciliation-{day.isoformat()}-{run.run}",
        )
    return run


def reconcile_mornings(services: Services) -> list[Run]:
    """Beat's morning run: from 09:00 in Korea, yesterday's reconciliation, once; and any of the ``CATCH_UP_DAYS``
    before it whose morning run is missing (beat was down, or the clock jumped past a morning)."""
    now = services.clock.now().astimezone(BUSINESS_TIME)
    latest = now.date() - timedelta(days=1 if now.time() >= MORNING else 2)
    runs = []
    for back in range(CATCH_UP_DAYS, -1, -1):
        day = latest - timedelta(days=back)
        found = load_day(services.store, day)
        if found is not None and found.scheduled:
            continue
        run = reconcile_day(services, day)
        if run is not None:
            runs.append(run)
    return runs


def _mail_finance(services: Services, subject: str, text: str, key: str) -> None:
    for member in list_members(services.store):
        if Role.FINANCE in member.roles and member.permissions:
            services.mailer.send(MailMessage(to=member.email, subject=subject, text=text, key=f"{key}-{member.id}"))


def _audit(services: Services) -> Audit:
    return open_audit(services.settings, services.store)


def request_job(services: Services, actor_id: UUID, kind: str, params: dict[str, Any]) -> UUID:
    """Queue a job for the workers and record the member's request, which sends it to one (workers/reactions.py)."""
    _work(services, kind, params, actor_id)  # a job the workers could not run is refused here, not queued
    jobs = finance_jobs(services)
    job_id = jobs.request(kind, params, actor_id)
    shown = {key: ",".join(value) if isinstance(value, list) else value for key, value in params.items()}
    try:
        record_job_request(services.store, services.clock, actor_id, job_id, kind, shown)
    except Exception:
        with suppress(Exception):  # the error that matters is the one raised
            jobs.refuse(job_id, "the request could not be recorded")  # no task will come for it
        raise
    return job_id


def run_job(services: Services, job_id: UUID) -> bool:
    """A worker runs a requested job (False when the table does not hold it, or another delivery has run it)."""
    jobs = finance_jobs(services)
    requested = jobs.requested(job_id)
    if requested is None:
        return False
    kind, params, actor_id = requested
    return jobs.run(job_id, _work(services, kind, params, actor_id))


def _work(services: Services, kind: str, params: dict[str, Any], actor_id: UUID | None) -> Work:
    if kind == VERIFY:
        return _verification(services, actor_id)
    if kind == EXPORT:
        return _export(services, params, JOB_FILES)
    if kind == CLOSE_PACK:
        return _close_pack(services, str(params.get("month", "")), JOB_FILES)
    raise DomainError(ErrorCode.INVALID_VALUE, f"no finance job is called {kind}")


# A job's files are for anyone who may read the ledger (finance, owners), whoever asked for them.
JOB_FILES = Disclosure.to_everyone_who_may(Permission.READ_LEDGER)


def verify_now(services: Services, actor_id: UUID) -> UUID:
    """Verify the whole log against a checkpoint signed now, as a job with progress on a worker; the verdict is
    recorded as an event, and a failure mails finance naming the first bad event."""
    return request_job(services, actor_id, VERIFY, {})


def _verification(services: Services, actor_id: UUID | None) -> Work:
    def work(progress: Progress) -> dict[str, Any]:
        audit = _audit(services)
        try:
            signed = audit.sign_checkpoint(services.clock.now())
            keys = [audit.signer.verifier_key(), *services.settings.previous_verifier_keys]
            progress.set_total(audit.log.max_notification_id())
            try:
                checkpoint = open_checkpoint_by_any(signed.note, keys)
                verdict = verify_log(audit.tree, checkpoint, progress.advance)
                ok, checked, message, bad = verdict.ok, verdict.checked, verdict.message, verdict.bad_notification_id
            except CheckpointError as refused:
                ok, checked, message, bad = False, 0, str(refused), None
        finally:
            audit.close()
        record_verification(
            services.store,
            services.clock,
            job_id_of(progress),
            ok=ok,
            checked=checked,
            tree_size=signed.checkpoint.size,
            message=message,
            bad_notification_id=bad,
            actor_id=actor_id,
        )
        if not ok:
            named = f"first bad event: notification id {bad}" if bad is not None else "no single event named"
            _mail_finance(
                services,
                f"ALARM: the log failed verification ({named}) / 로그 검증 실패 / ログ検証の失敗",
                f"{message}\n{named}\n\n{services.settings.base_url}/admin/finance/integrity",
                key=f"verification-{job_id_of(progress)}",
            )
        return {
            "ok": ok,
            "checked": checked,
            "treeSize": signed.checkpoint.size,
            "message": message,
            "badNotificationId": bad,
        }

    return work


def job_id_of(progress: Progress) -> UUID:
    """The job a progress belongs to (the verification's id is its job's)."""
    return progress.job_id


def alarm(services: Services) -> dict[str, Any] | None:
    """The newest finished verification when it failed (the back office's banner), else None."""
    for job in finance_jobs(services).list(VERIFY, limit=20):
        if job["state"] == "done" and job["result"]:
            return job if not job["result"]["ok"] else None
    return None


def notifications_of(services: Services, originator_id: UUID) -> list[int]:
    """The log positions of every event of one aggregate, oldest first."""
    found: list[int] = []
    at_most = services.store.max_notification_id()
    while at_most > 0:
        last = services.store.last_notification_of(originator_id, at_most)
        if last is None:
            break
        found.append(last)
        at_most = last - 1
    return found[::-1]


def proof_document(
    services: Services, notification_ids: list[int], label: str, disclosure: Disclosure
) -> dict[str, Any]:
    """Inclusion proofs of these events in a checkpoint signed now, as the document the independent verifier
    reads (``verifier_key``, ``inclusions`` of ``note``/``record``/``index``/``proof``), with each event's
    topic and position beside it. A proof is the event's whole record: refused (403) for an event holding a field
    the member the ``disclosure`` is for may not see whole."""
    audit = _audit(services)
    try:
        signed = audit.sign_checkpoint(services.clock.now())
        proofs = [audit.inclusion(notification_id, signed) for notification_id in notification_ids]
        key = audit.signer.verifier_key()
    except LookupError as missing:
        raise DomainError(ErrorCode.NOT_FOUND, str(missing)) from None
    finally:
        audit.close()
    for proof in proofs:
        if not disclosure.may_prove(json.loads(proof["record"])["topic"]):
            raise DomainError(
                ErrorCode.FORBIDDEN, "an event holds a field withheld from you: finance proves it from the command line"
            )
    return {
        "subject": label,
        "verifier_key": key,
        "checkpoint": signed.note,
        "inclusions": [
            {
                "name": f"event-{proof['notification_id']}",
                "note": signed.note,
                "record": proof["record"],
                "index": proof["leaf_index"],
                "proof": proof["inclusion_path"],
                "topic": json.loads(proof["record"])["topic"],
                "leaf_hash": proof["leaf_hash"],
            }
            for proof in proofs
        ],
        "consistency": [],
    }


def payment_events(services: Services, merchant_uid: str) -> list[dict[str, Any]]:
    """Every event of a payment: its position in the log, topic, time and fields."""
    payment_id = Payment.id_for(merchant_uid)
    positions = notifications_of(services, payment_id)
    events: list[Any] = list(services.store.events.get(payment_id))
    if not events:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}")
    return [
        {
            "notification_id": position,
            "topic": type(event).TOPIC,
            "at": event.timestamp.isoformat(),
            "version": event.originator_version,
        }
        for position, event in zip(positions, events, strict=False)
    ]


def checkpoints(services: Services, limit: int = 10) -> dict[str, Any]:
    """The newest signed checkpoints and the verifier key."""
    audit = _audit(services)
    try:
        with audit.db.read() as cursor:
            cursor.execute(
                "SELECT tree_size, root_hash, note, signed_at FROM log_checkpoints ORDER BY tree_size DESC "
                "LIMIT %(limit)s",
                {"limit": limit},
            )
            kept = cursor.fetchall()
        return {
            "verifier_key": audit.signer.verifier_key(),
            "tree_size": audit.tree.size(),
            "checkpoints": [{**row, "tree_size": int(row["tree_size"])} for row in kept],
        }
    finally:
        audit.close()


def consistency(services: Services, old_size: int, new_size: int) -> dict[str, Any]:
    """The proof that the older signed tree is a prefix of the newer, in the verifier's shape."""
    audit = _audit(services)
    try:
        old, new = audit.checkpoints.at_size(old_size), audit.checkpoints.at_size(new_size)
        if old is None or new is None or old_size > new_size:
            raise DomainError(ErrorCode.INVALID_VALUE, "both sizes must be of signed checkpoints, the older first")
        proof = audit.consistency(old, new)
        return {
            **proof,
            "verifier_key": audit.signer.verifier_key(),
            "inclusions": [],
            "consistency": [
                {
                    "name": f"{old_size}-to-{new_size}",
                    "old_note": old.note,
                    "new_note": new.note,
                    "proof": proof["consistency_path"],
                }
            ],
        }
    finally:
        audit.close()


def start_export(
    services: Services,
    actor_id: UUID,
    fmt: str,
    since: datetime | None,
    until: datetime | None,
    topics: list[str],
) -> UUID:
    """Export the chosen events of a checkpoint signed now, with its manifest, as a job with progress on a worker."""
    params = {"format": fmt, "since": _iso(since), "until": _iso(until), "topics": topics}
    return request_job(services, actor_id, EXPORT, params)


def _export(services: Services, params: dict[str, Any], disclosure: Disclosure) -> Work:
    fmt = str(params.get("format"))
    if fmt not in FORMATS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"choose a format: {', '.join(FORMATS)}")
    since, until = (datetime.fromisoformat(params[key]) if params.get(key) else None for key in ("since", "until"))
    selection = Selection(since, until, tuple(params.get("topics") or ()))

    def work(progress: Progress) -> dict[str, Any]:
        audit = _audit(services)
        try:
            now = services.clock.now()
            signed = audit.sign_checkpoint(now)
            progress.set_total(signed.checkpoint.size)
            with tempfile.TemporaryDirectory() as scratch:
                path = Path(scratch) / f"events.{fmt}"
                selected = rows(audit.log, audit.tree, signed, selection, progress.advance)
                count = write(path, fmt, (_disclosed(row, disclosure) for row in selected))
                described = manifest(path, fmt, count, selection, signed, audit.signer.verifier_key(), now)
                progress.keep(path.name, path.read_bytes(), _content_type(fmt))
        finally:
            audit.close()
        text = json.dumps(described, indent=2) + "\n"
        progress.keep(f"{path.name}.manifest.json", text.encode("utf-8"), "application/json")
        return {"rows": count, "treeSize": signed.checkpoint.size, "sha256": described.get("sha256")}

    return work


def _disclosed(row: dict[str, Any], disclosure: Disclosure) -> dict[str, Any]:
    """An export row as the member may see it: a state with withheld fields loses its record (the leaf hash stays)."""
    state, withheld = disclosure.stored_state(row["state"])
    if not withheld:
        return row
    return {**row, "state": state, "record": "", "withheld": ",".join(withheld)}


def _content_type(fmt: str) -> str:
    return {"jsonl": "application/x-ndjson", "csv": "text/csv; charset=utf-8"}.get(fmt, "application/octet-stream")


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def month_window(month: str) -> tuple[date, date]:
    """``yyyy-mm`` as its first day and the first day of the next month (Korean calendar)."""
    try:
        first = date.fromisoformat(f"{month}-01")
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "a month is yyyy-mm") from None
    following = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    return first, following


def start_close_pack(services: Services, actor_id: UUID, month: str) -> UUID:
    """The month-end close pack as a job on a worker: ledger, payments and refunds as CSV, the checkpoint, and a
    manifest with each file's SHA-256, in one zip (the manifest also kept beside it)."""
    return request_job(services, actor_id, CLOSE_PACK, {"month": month})


def _close_pack(services: Services, month: str, disclosure: Disclosure) -> Work:
    first, following = month_window(month)

    def work(progress: Progress) -> dict[str, Any]:
        since = datetime.combine(first, time(), BUSINESS_TIME)
        until = datetime.combine(following, time(), BUSINESS_TIME)
        versions = services.catalogues.versions()
        # Plans by their catalogue id, each with its name in Korean, the business's own language.
        ledger = [
            {**row, "plan_name": versions.plan_name(int(row["plan"]), Language.KO) if row["plan"].isdigit() else ""}
            for row in ledger_rows(services.views, first, following)
        ]
        progress.set_total(len(ledger) + 3)
        files: dict[str, bytes] = {}
        files["ledger.csv"] = _csv(
            (
                "day",
                "currency",
                "product_code",
                "plan",
                "plan_name",
                "pay_method",
                "kind",
                "merchant_uid",
                "at",
                "amount",
            ),
            iter(disclosure.rows(ledger)),
        )
        progress.advance(len(ledger))
        payments = disclosure.rows(payments_ordered_between(services.views, since, until))
        files["payments.csv"] = _csv(
            (
                "merchant_uid",
                "ordered_at",
                "paid_at",
                "state",
                "name",
                "amount",
                "original_amount",
                "cancel_amount",
                "currency",
                "pay_method",
                "coupon_code",
            ),
            iter(payments),
        )
        progress.advance()
        files["refunds.csv"] = _csv(
            ("day", "currency", "product_code", "plan", "plan_name", "pay_method", "merchant_uid", "at", "amount"),
            (row for row in disclosure.rows(ledger) if row["kind"] == "refund"),
        )
        progress.advance()
        audit = _audit(services)
        try:
            signed = audit.sign_checkpoint(services.clock.now())
            key = audit.signer.verifier_key()
        finally:
            audit.close()
        files["checkpoint.txt"] = signed.note.encode("utf-8")
        described = {
            "month": month,
            "since": since.isoformat(),
            "until": until.isoformat(),
            "created_at": services.clock.now().isoformat(),
            "tree_size": signed.checkpoint.size,
            "verifier_key": key,
            "files": {
                name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)} for name, data in files.items()
            },
        }
        manifest_bytes = (json.dumps(described, indent=2) + "\n").encode("utf-8")
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in files.items():
                archive.writestr(name, data)
            archive.writestr("manifest.json", manifest_bytes)
        name = f"close-{month}.zip"
        progress.keep(name, packed.getvalue(), "application/zip")
        progress.keep("manifest.json", manifest_bytes, "application/json")
        progress.advance()
        return {
            "file": name,
            "treeSize": signed.checkpoint.size,
            "sha256": hashlib.sha256(packed.getvalue()).hexdigest(),
        }

    return work


def _csv(columns: tuple[str, ...], rows_: Iterator[dict[str, Any]]) -> bytes:
    out = io.StringIO()
    writer = csv_files.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows_:
        writer.writerow(row)
    return out.getvalue().encode("utf-8")


def staff_actions(
    services: Services,
    member_id: UUID | None,
    action: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int = 500,
) -> list[dict[str, Any]]:
    """Every staff event (``staff.*`` and ``refund.*`` topics, finance's own), newest first, filtered."""
    found: list[dict[str, Any]] = []
    for notification in read_log(services.store.recorder):
        topic = notification.topic
        if not topic.startswith(("staff.", "finance.")) or topic.startswith("staff.Directory"):
            continue
        if member_id is not None and UUID(str(notification.originator_id)) != member_id:
            continue
        event: Any = services.store.mapper.to_domain_event(notification)
        if (since is not None and event.timestamp < since) or (until is not None and event.timestamp >= until):
            continue
        what = getattr(event, "action", None) or topic.split(".", 1)[1]
        if action and what != action:
            continue
        found.append(
            {
                "notification_id": notification.id,
                "topic": topic,
                "action": what,
                "member_id": str(event.originator_id) if topic.startswith("staff.") else _actor(event),
                "subject": getattr(event, "subject", "") or "",
                "reason": getattr(event, "reason", "") or getattr(event, "note", "") or "",
                "details": dict(getattr(event, "details", None) or {}),
                "at": event.timestamp.astimezone(UTC).isoformat(),
            }
        )
    return found[::-1][:limit]


def _actor(event: Any) -> str:
    actor = getattr(event, "actor_id", None)
    return str(actor) if actor else ""
