"""``python -m workers.operator``: what an operator does by hand, through the same use cases and views.

refund                     give money back through PortOne cancel (full or partial), as a named staff member
record-refund              record a refund made at PortOne that the log does not hold (reconcile: cancel_amount)
settle-pending             settle now what beat settles every minute: money pending at PortOne (lost answers)
record-app-store-purchase  grant an account the licence it bought in Apple's App Store
ledger                     revenue, refunds and net by day, currency, product and payment method, as CSV
reconcile                  compare a day of payments with the gateway's records
as-of                      a licence, subscription or payment as it was at a past moment, as JSON
reports list               ad, misblock and bug reports, one a line, as CSV
reports export             reports with links to their images, as JSONL or CSV (a progress bar on stderr)
staff create-owner         the back office's first member, an owner (who then invites the rest from /admin)
staff list                 the back office's members, their roles and state, as CSV
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from tqdm import tqdm

from application.pending_money import settle_pending_money
from application.refunds import record_gateway_refund, refund_by_staff
from bootstrap import Services
from domain.accounts.auth import find_account_id
from domain.errors import DomainError, ErrorCode
from domain.history import KINDS, as_of
from domain.payments.app_store import record_app_store_purchase
from domain.payments.gateway import GatewayUnreachableError
from domain.payments.payment import LicenceEffect
from domain.payments.reconciliation import GatewayRecords, OurPayment, day_window, reconcile
from domain.reports.links import LINK_LIFETIME
from domain.staff.member import create_first_owner, find_member, list_members
from domain.staff.signin import enrolment_link_token
from eventlog import csv_files
from eventlog.audit.export import write
from events.values import Language
from projections.ledger import ledger_summary, summary_csv
from projections.payments import payment_by_merchant_uid, payments_ordered_between
from projections.reports import ReportSelection, count_reports
from workers.report_export import COLUMNS, LIST_COLUMNS, flat, report_rows

EXPORT_FORMATS = ("jsonl", "csv")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command and its options."""
    parser = argparse.ArgumentParser(prog="python -m workers.operator")
    commands = parser.add_subparsers(dest="command", required=True)
    refund = commands.add_parser(
        "refund", help="give money back through PortOne cancel (full or partial), as a named staff member"
    )
    refund.add_argument("merchant_uid")
    refund.add_argument("--amount", type=int, help="minor units to refund; the whole refundable balance if left out")
    refund.add_argument("--reason", required=True)
    refund.add_argument("--actor", required=True, help="the staff member's address: the refund is theirs")
    refund.add_argument(
        "--licence",
        choices=[LicenceEffect.KEEP.value, LicenceEffect.SHORTEN.value],
        help="a partial refund keeps the licence as it is or shortens it to what is left paid for",
    )
    lost = commands.add_parser(
        "record-refund", help="record a refund made at PortOne that the log does not hold (reconcile: cancel_amount)"
    )
    lost.add_argument("merchant_uid")
    lost.add_argument("--reason", required=True)
    lost.add_argument("--actor", required=True, help="the staff member's address")
    commands.add_parser(
        "settle-pending", help="settle now what beat settles every minute: money pending at PortOne (lost answers)"
    )
    ledger = commands.add_parser("ledger", help="revenue, refunds and net by day, currency, product, payment method")
    ledger.add_argument("--since", type=date.fromisoformat, help="first day (Korean calendar), yyyy-mm-dd")
    ledger.add_argument("--until", type=date.fromisoformat, help="day after the last, yyyy-mm-dd")
    reconcile = commands.add_parser("reconcile", help="compare a day of payments with the gateway's records")
    reconcile.add_argument("day", type=date.fromisoformat, help="the business day (Korean calendar), yyyy-mm-dd")
    past = commands.add_parser("as-of", help="a licence, subscription or payment as it was at a moment")
    past.add_argument("kind", choices=sorted(KINDS))
    past.add_argument("key", help="the licence's or subscription's id, or the payment's merchantUid")
    past.add_argument("at", type=datetime.fromisoformat, help="ISO 8601 moment with its offset")
    apple = commands.add_parser(
        "record-app-store-purchase", help="grant an account the licence it bought in Apple's App Store"
    )
    apple.add_argument("email", help="the account's address")
    apple.add_argument("licence_id", type=int, help="the catalogue licence bought")
    apple.add_argument("apple_transaction_id")
    apple.add_argument("--country", default="KR", help="the storefront country (prices the record)")
    apple.add_argument("--language", default="ko", choices=[language.value for language in Language])
    _report_commands(commands.add_parser("reports", help="ad, misblock and bug reports: list or export"))
    staff = commands.add_parser("staff", help="the back office's members: the first owner, the list")
    staff_actions = staff.add_subparsers(dest="action", required=True)
    owner = staff_actions.add_parser("create-owner", help="the first member, an owner (refused once staff has anyone)")
    owner.add_argument("email")
    owner.add_argument("name")
    staff_actions.add_parser("list", help="every member, their roles and state, as CSV")
    return parser.parse_args(argv)


def _report_commands(reports: argparse.ArgumentParser) -> None:
    actions = reports.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="one line per report, as CSV")
    export = actions.add_parser("export", help="every field and links to the images, as JSONL or CSV")
    export.add_argument("output", type=Path, help="the file to write (its extension names the format)")
    export.add_argument("--format", choices=EXPORT_FORMATS, help="jsonl or csv (default: the file's extension)")
    days = int(LINK_LIFETIME.days)
    export.add_argument(
        "--link-days", type=int, default=days, choices=range(1, days + 1), help=f"how long image links work ({days})"
    )
    export.add_argument("--quiet", action="store_true", help="no progress bar")
    for command in (listing, export):
        command.add_argument("--since", type=date.fromisoformat, help="first day (Korean calendar), yyyy-mm-dd")
        command.add_argument("--until", type=date.fromisoformat, help="day after the last, yyyy-mm-dd")
        command.add_argument("--product", help="only this product code")
        command.add_argument("--problem", choices=("ad", "misblock", "bug"), help="only this kind of problem")


def run(args: argparse.Namespace, services: Services) -> int:
    """Carry out the command; 0 on success, 2 when it is refused."""
    if args.command == "ledger":
        print(summary_csv(ledger_summary(services.views, args.since, args.until)), end="")
        return 0
    if args.command == "as-of":
        return _as_of(args, services)
    if args.command == "reconcile":
        return _reconcile(args, services)
    if args.command == "record-app-store-purchase":
        return _record_app_store_purchase(args, services)
    if args.command == "reports":
        return _reports(args, services)
    if args.command == "record-refund":
        return _record_refund(args, services)
    if args.command == "settle-pending":
        for each in settle_pending_money(services.store, services.views, services.clock, services.payments):
            print(f"{each.merchant_uid}\t{each.pending}\t{each.outcome}")
        return 0
    if args.command == "staff":
        return _staff(args, services)
    return _refund(args, services)


def _actor(services: Services, email: str) -> UUID:
    """The staff member an operator acts as (refused unless there is one with that address)."""
    member = find_member(services.store, email)
    if member is None:
        raise DomainError(ErrorCode.FORBIDDEN, f"no staff member {email}")
    return member.id


def _refund(args: argparse.Namespace, services: Services) -> int:
    try:
        outcome = refund_by_staff(
            services.store,
            services.views,
            services.clock,
            services.payments,
            _actor(services, args.actor),
            merchant_uid=args.merchant_uid,
            amount=args.amount,
            reason=args.reason,
            approval_limits=services.settings.refund_approval_limits,
            licence_effect=LicenceEffect(args.licence) if args.licence else None,
        )
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    except GatewayUnreachableError as unanswered:
        print(f"the gateway did not answer ({unanswered}): nothing was reserved; try again", file=sys.stderr)
        return 1
    if outcome.request_id is not None:
        print(f"above the approval limit: request {outcome.request_id} waits for a second member")
    elif outcome.pending:
        print(
            f"the gateway did not answer: the refund of {args.merchant_uid} is pending; the settling pass records it "
            "within minutes (settle-pending does it now; docs/payments.md)",
            file=sys.stderr,
        )
        return 1
    else:
        print(f"refunded {outcome.refunded} of {args.merchant_uid}")
    return 0


def _record_refund(args: argparse.Namespace, services: Services) -> int:
    try:
        recorded = record_gateway_refund(
            services.store,
            services.views,
            services.clock,
            services.payments,
            _actor(services, args.actor),
            merchant_uid=args.merchant_uid,
            reason=args.reason,
        )
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    print(f"recorded {recorded} refunded at the gateway of {args.merchant_uid}")
    return 0


def _as_of(args: argparse.Namespace, services: Services) -> int:
    try:
        found = as_of(services.store, args.kind, args.key, args.at)
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    print(json.dumps(asdict(found), default=str, indent=2))
    return 0


def _reconcile(args: argparse.Namespace, services: Services) -> int:
    gateway = services.payments
    if not isinstance(gateway, GatewayRecords):
        print("the configured gateway cannot list its payments", file=sys.stderr)
        return 2
    since, until = day_window(args.day)
    ours = [_ours(row) for row in payments_ordered_between(services.views, since, until)]

    def lookup(merchant_uid: str) -> OurPayment | None:
        row = payment_by_merchant_uid(services.views, merchant_uid)
        return _ours(row) if row is not None else None

    mismatches = reconcile(ours, lookup, gateway, args.day)
    writer = csv_files.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["merchant_uid", "mismatch", "ours", "gateway"])
    for found in mismatches:
        writer.writerow([found.merchant_uid, found.kind, found.ours, found.gateway])
    print(f"{len(mismatches)} mismatches on {args.day.isoformat()}", file=sys.stderr)
    return 1 if mismatches else 0


def _ours(row: dict[str, Any]) -> OurPayment:
    return OurPayment(row["merchant_uid"], row["state"], int(row["amount"]), row["currency"], int(row["cancel_amount"]))


def _record_app_store_purchase(args: argparse.Namespace, services: Services) -> int:
    account_id = find_account_id(services.store, args.email)
    try:
        if account_id is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"no account {args.email}")
        recorded = record_app_store_purchase(
            services.store,
            services.clock,
            services.catalogue,
            account_id=account_id,
            licence_id=args.licence_id,
            apple_transaction_id=args.apple_transaction_id,
            country_code=args.country.upper(),
            language=Language(args.language),
        )
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    print(f"recorded {recorded.merchant_uid}: licence {recorded.user_licence_id} key {recorded.licence_key}")
    return 0


def _reports(args: argparse.Namespace, services: Services) -> int:
    selection = ReportSelection(
        since=day_window(args.since)[0] if args.since else None,
        until=day_window(args.until)[0] if args.until else None,
        product=args.product,
        problem=args.problem,
    )
    if args.action == "list":
        writer = csv_files.DictWriter(sys.stdout, fieldnames=LIST_COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in report_rows(services, selection, LINK_LIFETIME):
            writer.writerow({**row, "images": len(row["images"])})
        return 0
    fmt = args.format or args.output.suffix.lstrip(".")
    if fmt not in EXPORT_FORMATS:
        print(f"choose a format: {', '.join(EXPORT_FORMATS)}", file=sys.stderr)
        return 2
    total = count_reports(services.views, selection)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with tqdm(total=total, unit="report", desc="export", disable=args.quiet, file=sys.stderr) as bar:
        rows = report_rows(services, selection, timedelta(days=args.link_days), advance=bar.update)
        count = write(args.output, fmt, (flat(row) for row in rows) if fmt == "csv" else rows, COLUMNS)
    print(f"exported {count} reports to {args.output}")
    return 0


def _staff(args: argparse.Namespace, services: Services) -> int:
    if args.action == "list":
        writer = csv_files.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["id", "email", "name", "roles", "state"])
        for member in list_members(services.store):
            roles = " ".join(sorted(role.value for role in member.roles))
            writer.writerow([member.id, member.email, member.name, roles, member.state.value])
        return 0
    try:
        owner = create_first_owner(services.store, services.clock, email=args.email, name=args.name)
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    token = enrolment_link_token(services.settings.auth_secret, owner, services.clock.now())
    print(f"created owner {owner.email} ({owner.id})")
    print(f"enrolment link (good once, for 3 days): {services.settings.base_url}/admin/enrol?token={token}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: the command runs on services from the composition root."""
    args = parse_args(argv)
    services = Services.build()
    try:
        return run(args, services)
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
