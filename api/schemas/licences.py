"""What the licence commands answer: the licence they changed."""

from __future__ import annotations

from uuid import UUID

from api.schemas import CamelModel


class Written(CamelModel):
    """The licence a command changed."""

    user_license_id: UUID
