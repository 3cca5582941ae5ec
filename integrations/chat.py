"""The chat widget's member verification: the widget is booted with the account id and its HMAC, so
nobody can talk to support as someone else by booting the widget with another member id."""

from __future__ import annotations

import hashlib
import hmac
from uuid import UUID


def chat_member_hash(secret: str, account_id: UUID) -> str:
    """HMAC-SHA256 of the account id (its canonical text) under the server-side secret, in hex."""
    return hmac.new(secret.encode(), str(account_id).encode(), hashlib.sha256).hexdigest()
