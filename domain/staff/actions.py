"""The name of every staff action the log records (``staff.Acted``'s ``action``), in one place: the domain records
them, the reactor starts tasks for some, and finance filters the staff-actions audit by them."""

from __future__ import annotations

from enum import StrEnum


class StaffAction(StrEnum):
    """What a member did (the subject it was done to is recorded beside it)."""

    # support
    REFUND = "refund"
    REQUEST_REFUND = "request-refund"
    DECLINE_REFUND = "decline-refund"
    RECORD_GATEWAY_REFUND = "record-gateway-refund"
    FREE_DEVICE = "free-device"
    RESEND_RECEIPT = "resend-receipt"
    RESEND_CONFIRMATION = "resend-confirmation"
    RESEND_LICENCE_KEY = "resend-licence-key"
    CANCEL_SUBSCRIPTION = "cancel-subscription"
    RESUME_SUBSCRIPTION = "resume-subscription"
    CLOSE_REPORT = "close-report"
    # grants of paid licence time (maker-checker)
    REQUEST_GRANT = "request-grant"
    EXTEND_LICENCE = "extend-licence"
    RECORD_APP_STORE_PURCHASE = "record-app-store-purchase"
    DECLINE_GRANT = "decline-grant"
    # marketing
    OPEN_COUPON_GROUP = "open-coupon-group"
    CHANGE_COUPON_GROUP = "change-coupon-group"
    ISSUE_COUPON_CODES = "issue-coupon-codes"
    DISABLE_COUPON_GROUP = "disable-coupon-group"
    POST_BANNER = "post-banner"
    CHANGE_BANNER = "change-banner"
    END_BANNER = "end-banner"
    SCHEDULE_CATALOGUE_VERSION = "schedule-catalogue-version"
    # finance
    RECONCILE = "reconcile"
    EXPLAIN_MISMATCH = "explain-mismatch"
    FINANCE_JOB = "finance-job"  # a job's request (finance.JobRequested); its subject is the job's id
