"""The proof behind a timeline entry: the inclusion proof of one event of the log in a signed checkpoint, as the
file ``python -m eventlog.audit prove --notification-id N`` prints (the independent Go verifier of
tests/integration/audit checks it), so "who refunded this customer" can be shown to anyone without our code."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.errors import DomainError, ErrorCode
from domain.staff.disclosure import Disclosure

router = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)


class InclusionProof(BaseModel):
    """One event's leaf in the tree and the audit path from it to the checkpoint's root (hashes in hex)."""

    notification_id: int
    leaf_index: int
    record: str
    leaf_hash: str
    tree_size: int
    root_hash: str
    inclusion_path: list[str]


class ProofFile(BaseModel):
    """The signed checkpoint (a signed note), the key that verifies it, and the event's inclusion proof."""

    checkpoint: str
    verifier_key: str
    events: list[InclusionProof]


@router.get("/proofs/{notification_id}", response_model=ProofFile)
def proof_of_event(
    notification_id: Annotated[int, Path(ge=1, le=2**62, description="the event's position in the log")],
    caller: StaffDep,
    services: ServicesDep,
) -> JSONResponse:
    """The inclusion proof of one event in the latest signed checkpoint (signed now when none holds it yet), as a
    file; refused (403) for an event holding a field the member may not see whole (domain/staff/disclosure.py)."""
    found = services.store.recorder.select_notifications(start=notification_id, limit=1, stop=notification_id)
    if not found or found[0].id != notification_id:
        raise DomainError(ErrorCode.NOT_FOUND, "no such event")
    if not Disclosure.to(caller.member.permissions).may_prove(found[0].topic):
        raise DomainError(ErrorCode.FORBIDDEN, "this event holds a secret: finance proves it from the command line")
    audit = services.audit
    checkpoint = audit.checkpoints.latest()
    leaf = audit.tree.leaf(notification_id)
    if checkpoint is None or leaf is None or leaf.index >= checkpoint.checkpoint.size:
        checkpoint = audit.sign_checkpoint(services.clock.now())
    proof = ProofFile(
        checkpoint=checkpoint.note,
        verifier_key=audit.signer.verifier_key(),
        events=[InclusionProof.model_validate(audit.inclusion(notification_id, checkpoint))],
    )
    headers = {"Content-Disposition": f'attachment; filename="proof-{notification_id}.json"'}
    return JSONResponse(proof.model_dump(), headers=headers)
