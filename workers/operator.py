"""``python -m workers.operator``: what an operator does by hand (refunds), through the same use cases."""

from __future__ import annotations

import argparse
import sys

from domain.errors import DomainError
from domain.payments.purchase import refund_payment
from workers.wiring import worker_services


def main(argv: list[str] | None = None) -> int:
    """Entry point; exits 0 on success, 2 when the refund is refused."""
    parser = argparse.ArgumentParser(prog="python -m workers.operator")
    commands = parser.add_subparsers(dest="command", required=True)
    refund = commands.add_parser("refund", help="give money back through PortOne cancel (full or partial)")
    refund.add_argument("merchant_uid")
    refund.add_argument("--amount", type=int, help="minor units to refund; the whole refundable balance if left out")
    refund.add_argument("--reason", required=True)
    args = parser.parse_args(argv)

    services = worker_services()
    try:
        refunded = refund_payment(
            services.store,
            services.clock,
            services.gateway,
            merchant_uid=args.merchant_uid,
            amount=args.amount,
            reason=args.reason,
        )
    except DomainError as refused:
        print(f"refused ({refused.code.value}): {refused.detail or refused.code.name}", file=sys.stderr)
        return 2
    print(f"refunded {refunded} of {args.merchant_uid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
