"""The list of views the projector maintains."""

from __future__ import annotations

from projections.accounts import AccountsView
from projections.app_stores import AppStoresView
from projections.coupons import CouponsView
from projections.finance_daily import FinanceDailyView
from projections.finance_jobs import FinanceJobsView
from projections.grants import GrantRequestsView
from projections.ledger import LedgerView
from projections.licences import LicencesView
from projections.papers import TaxInvoicesView
from projections.payments import PaymentsView
from projections.price_rises import PriceRisesView
from projections.reports import ReportsView
from projections.revocations import RevocationsView
from projections.staff_actions import StaffActionsView
from projections.subscriptions import SubscriptionsView
from projections.support import RefundRequestsView
from projections.view import View


def all_views() -> list[View]:
    """Every view, in the order the projector starts them."""
    return [
        AccountsView(),
        LicencesView(),
        PaymentsView(),
        SubscriptionsView(),
        LedgerView(),
        FinanceDailyView(),
        ReportsView(),
        RevocationsView(),
        RefundRequestsView(),
        TaxInvoicesView(),
        CouponsView(),
        GrantRequestsView(),
        FinanceJobsView(),
        StaffActionsView(),
        AppStoresView(),
        PriceRisesView(),
    ]
