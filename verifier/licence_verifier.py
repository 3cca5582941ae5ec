"""Reference verifier of Unicorn Pro offline licence tokens, for the app teams: one file, needs only `cryptography`.

    claims = verify(token, jwks, log_key="<origin>+<id>+<key>", now=time.time(), min_tree_size=known_size)

A token is a JWS compact serialization (alg EdDSA, Ed25519) whose ``kid`` names a key of the store's JWKS
(``/apps/v1/.well-known/jwks.json``). It is good offline while ``now`` is before both ``exp`` (the offline grace)
and ``paidUntil``. Its ``log`` claim is the store's latest signed log checkpoint (a C2SP signed note) and the
RFC 9162 inclusion proof of the licence's latest event in it; a checkpoint smaller than one the app has already
seen (``min_tree_size``) is stale. ``verify`` raises ``TokenRefusedError`` with one of ``REASONS``.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

REASONS = ("malformed", "unknown-key", "bad-signature", "expired", "not-valid", "bad-checkpoint", "stale-checkpoint",
           "bad-log-proof")  # fmt: skip


class TokenRefusedError(Exception):
    """The token must not be trusted; ``reason`` is one of ``REASONS``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verify(
    token: str, jwks: dict[str, Any], *, log_key: str | None, now: float, min_tree_size: int = 0
) -> dict[str, Any]:
    """The token's claims, once its signature, times and log proof all check out."""
    try:
        header_part, payload_part, signature_part = token.split(".")
        header = json.loads(_b64url(header_part))
        claims = json.loads(_b64url(payload_part))
        signature = _b64url(signature_part)
    except ValueError:
        raise TokenRefusedError("malformed") from None
    if header.get("alg") != "EdDSA":
        raise TokenRefusedError("malformed")
    keys = [k for k in jwks.get("keys", []) if k.get("kid") == header.get("kid") and k.get("crv") == "Ed25519"]
    if not keys:
        raise TokenRefusedError("unknown-key")
    try:
        Ed25519PublicKey.from_public_bytes(_b64url(keys[0]["x"])).verify(
            signature, f"{header_part}.{payload_part}".encode("ascii")
        )
    except InvalidSignature:
        raise TokenRefusedError("bad-signature") from None
    if now >= claims["exp"] or (claims.get("paidUntil") is not None and now >= claims["paidUntil"]):
        raise TokenRefusedError("expired")
    if claims.get("status") != "valid":
        raise TokenRefusedError("not-valid")
    _check_log(claims, log_key, min_tree_size)
    return dict(claims)


def _check_log(claims: dict[str, Any], log_key: str | None, min_tree_size: int) -> None:
    log = claims.get("log")
    if log is None:
        if min_tree_size > 0:
            raise TokenRefusedError("stale-checkpoint")
        return
    _origin, size, root = _open_note(log["checkpoint"], log_key) if log_key else _read_body(log["checkpoint"])
    if size != log["size"] or root.hex() != log["root"]:
        raise TokenRefusedError("bad-checkpoint")
    if size < min_tree_size:
        raise TokenRefusedError("stale-checkpoint")
    record = log["record"]
    if json.loads(record).get("originator_id") != claims["licence"]:
        raise TokenRefusedError("bad-log-proof")
    leaf = hashlib.sha256(b"\x00" + record.encode("ascii")).digest()
    if not verify_inclusion(leaf, log["leafIndex"], size, [bytes.fromhex(h) for h in log["proof"]], root):
        raise TokenRefusedError("bad-log-proof")


def _read_body(note: str) -> tuple[str, int, bytes]:
    try:
        origin, size, root = note.split("\n")[:3]
        return origin, int(size), base64.b64decode(root, validate=True)
    except ValueError:
        raise TokenRefusedError("bad-checkpoint") from None


def _open_note(note: str, log_key: str) -> tuple[str, int, bytes]:
    """The checkpoint of a signed note, once the log key's signature on it verifies."""
    name, key_id, encoded = log_key.split("+", 2)
    raw_key = base64.b64decode(encoded)
    public = Ed25519PublicKey.from_public_bytes(raw_key[1:])
    body, _, signatures = note.rpartition("\n\n")
    for line in signatures.splitlines():
        signer, _, signed = line.removeprefix("\u2014 ").rpartition(" ")
        raw = base64.b64decode(signed)
        if signer == name and raw[:4].hex() == key_id:
            try:
                public.verify(raw[4:], (body + "\n").encode("utf-8"))
            except InvalidSignature:
                break
            return _read_body(body + "\n")
    raise TokenRefusedError("bad-checkpoint")


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: is ``leaf`` at ``index`` in the tree of ``size`` leaves with ``root``?"""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = hashlib.sha256(b"\x01" + p + r).digest()
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = hashlib.sha256(b"\x01" + r + p).digest()
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root
