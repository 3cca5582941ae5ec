"""``python -m workers.operator``: what an operator does by hand (refunds, App Store purchases), through the
same use cases."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bootstrap import Services
from domain.accounts.auth import find_account_id
from domain.errors import DomainError, ErrorCode
from domain.payments.app_store import record_app_store_purchase
from domain.payments.purchase import refund_payment
from events.values import Language


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command and its options."""
    parser = argparse.ArgumentParser(prog="python -m workers.operator")
    commands = parser.add_subparsers(dest="command", required=True)
    refund = commands.add_parser("refund", help="give money back through PortOne cancel (full or partial)")
    refund.add_argument("merchant_uid")
    refund.add_argument("--amount", type=int, help="minor units to refund; the whole refundable balance if left out")
    refund.add_argument("--reason", required=True)
    apple = commands.add_parser(
        "record-app-store-purchase", help="grant an account the licence it bought in Apple's App Store"
    )
    apple.add_argument("email", help="the account's address")
    apple.add_argument("licence_id", type=int, help="the catalogue licence bought")
    apple.add_argument("apple_transaction_id")
    apple.add_argument("--country", default="KR", help="the storefront country (prices the record)")
    apple.add_argument("--language", default="ko", choices=[language.value for language in Language])
    return parser.parse_args(argv)


def run(args: argparse.Namespace, services: Services) -> int:
    """Carry out the command; 0 on success, 2 when it is refused."""
    if args.command == "record-app-store-purchase":
        return _record_app_store_purchase(args, services)
    try:
        refunded = refund_payment(
            services.store,
            services.clock,
            services.payments,
            merchant_uid=args.merchant_uid,
            amount=args.amount,
            reason=args.reason,
        )
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    print(f"refunded {refunded} of {args.merchant_uid}")
    return 0


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
