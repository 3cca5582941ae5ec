"""A verification of the whole log as a finance job: every event's leaf against a checkpoint signed now. The
verdict is recorded in the log it checked (domain/finance/verifications.py); a failure mails finance naming the
first bad event."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from application.finance.notices import mail_finance
from application.finance.progress import Progress
from application.finance.services import FinanceServices
from domain.finance.jobs import Result
from domain.finance.verifications import record_verification, verification_id
from eventlog.audit.verification import verify_log
from eventlog.checkpoints import CheckpointError, open_checkpoint_by_any


def work(services: FinanceServices, actor_id: UUID | None) -> Callable[[Progress], Result]:
    """The verification's work, for the member who asked (None for a scheduled one)."""

    def verify(progress: Progress) -> Result:
        audit = services.open_audit()
        try:
            signed = audit.sign_checkpoint(services.clock.now())
            keys = [audit.signer.verifier_key(), *services.previous_verifier_keys]
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
            verification_id(progress.job_id, progress.job.attempt),
            ok=ok,
            checked=checked,
            tree_size=signed.checkpoint.size,
            message=message,
            bad_notification_id=bad,
            actor_id=actor_id,
        )
        if not ok:
            named = f"first bad event: notification id {bad}" if bad is not None else "no single event named"
            mail_finance(
                services,
                f"ALARM: the log failed verification ({named}) / 로그 검증 실패 / ログ検証の失敗",
                f"{message}\n{named}\n\n{services.base_url}/admin/finance/integrity",
                key=f"verification-{progress.job_id}",
            )
        return {
            "ok": ok,
            "checked": checked,
            "treeSize": signed.checkpoint.size,
            "message": message,
            "badNotificationId": bad,
        }

    return verify
