"""The persisted event contract and the event-store wiring.

Importing this package registers every event class under its stable topic, so that
any process can read the whole log.
"""

from events import accounts as accounts
from events import app_stores as app_stores
from events import catalogue as catalogue
from events import coupons as coupons
from events import finance as finance
from events import licences as licences
from events import papers as papers
from events import payments as payments
from events import reports as reports
from events import sessions as sessions
from events import staff as staff
from events import subscriptions as subscriptions
from events import wallets as wallets
