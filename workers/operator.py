"""``python -m workers.operator``: what an operator does by hand (refunds), through the same use cases."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bootstrap import Services
from domain.errors import DomainError
from domain.payments.purchase import refund_payment


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command and its options."""
    parser = argparse.ArgumentParser(prog="python -m workers.operator")
    commands = parser.add_subparsers(dest="command", required=True)
    refund = commands.add_parser("refund", help="give money back through PortOne cancel (full or partial)")
    refund.add_argument("merchant_uid")
    refund.add_argument("--amount", type=int, help="minor units to refund; the whole refundable balance if left out")
    refund.add_argument("--reason", required=True)
    return parser.parse_args(argv)


def run(args: argparse.Namespace, services: Services) -> int:
    """Carry out the command; 0 on success, 2 when the refund is refused."""
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
