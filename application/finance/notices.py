"""Mail to every finance member who may still act (a reconciliation's mismatches, a failed verification)."""

from __future__ import annotations

from application.finance.services import FinanceServices
from domain.ports import MailMessage
from domain.staff.member import list_members
from domain.staff.permissions import Role


def mail_finance(services: FinanceServices, subject: str, text: str, key: str) -> None:
    """Send one mail to each finance member (``key`` makes a repeat of the same notice the same mail)."""
    for member in list_members(services.store):
        if Role.FINANCE in member.roles and member.permissions:
            services.mailer.send(MailMessage(to=member.email, subject=subject, text=text, key=f"{key}-{member.id}"))
