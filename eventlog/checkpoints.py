"""Signed checkpoints of the transparency log: the C2SP checkpoint text in a C2SP signed note (Ed25519).

A checkpoint body is three lines, ``<origin>\\n<tree size>\\n<base64 root hash>\\n``. The note appends a blank
line and one signature line, ``— <key name> <base64(key id || signature)>``, where the key id is the first four
bytes of ``SHA-256(<key name> "\\n" 0x01 <public key>)`` and the signature is Ed25519 over the body. Anyone holding
the verifier key (``<name>+<key id hex>+<base64(0x01 || public key)>``) checks it without trusting us, for example
with Go's ``golang.org/x/mod/sumdb/note``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from eventlog.database import ViewDatabase

ED25519_ALGORITHM = b"\x01"
SIGNATURE_PREFIX = "\u2014 "

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS log_checkpoints ("
    "tree_size BIGINT PRIMARY KEY, "
    "root_hash TEXT NOT NULL, "
    "note TEXT NOT NULL, "
    "signed_at TEXT NOT NULL)",
)


class CheckpointError(Exception):
    """A checkpoint that is malformed, or whose signature does not verify."""


@dataclass(frozen=True)
class Checkpoint:
    """What a checkpoint states: this origin's tree had ``size`` leaves with ``root``."""

    origin: str
    size: int
    root: bytes

    def body(self) -> str:
        """The C2SP checkpoint text."""
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode('ascii')}\n"


def _public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(name: str, public_key: bytes) -> bytes:
    """The four-byte id of an Ed25519 note key."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519_ALGORITHM + public_key).digest()[:4]


@dataclass(frozen=True)
class Signer:
    """A named Ed25519 key that signs checkpoints."""

    name: str
    key: Ed25519PrivateKey

    def __post_init__(self) -> None:
        if not self.name or "+" in self.name or any(c.isspace() for c in self.name):
            raise ValueError(f"a key name (the log's origin) has no spaces or '+': {self.name!r}")

    def verifier_key(self) -> str:
        """The public verifier key string finance keeps: ``<name>+<id hex>+<base64(0x01 || key)>``."""
        public = _public_bytes(self.key.public_key())
        encoded = base64.b64encode(ED25519_ALGORITHM + public).decode("ascii")
        return f"{self.name}+{key_id(self.name, public).hex()}+{encoded}"

    def sign(self, checkpoint: Checkpoint) -> str:
        """The checkpoint as a signed note."""
        body = checkpoint.body()
        public = _public_bytes(self.key.public_key())
        signature = key_id(self.name, public) + self.key.sign(body.encode("utf-8"))
        return f"{body}\n{SIGNATURE_PREFIX}{self.name} {base64.b64encode(signature).decode('ascii')}\n"


def load_signing_key(encoded_seed: str, key_file: Path) -> Ed25519PrivateKey:
    """The key from its base64 seed when configured; otherwise the development key in ``key_file``,
    generated (readable by its owner only) the first time."""
    if encoded_seed:
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(encoded_seed, validate=True))
    if not key_file.exists():
        key_file.parent.mkdir(parents=True, exist_ok=True)
        seed = Ed25519PrivateKey.generate().private_bytes_raw()
        descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(base64.b64encode(seed).decode("ascii") + "\n")
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(key_file.read_text().strip(), validate=True))


def parse_verifier_key(verifier_key: str) -> tuple[str, bytes, Ed25519PublicKey]:
    """``(name, key id, public key)`` of a verifier key string."""
    try:
        name, hex_id, encoded = verifier_key.strip().split("+", 2)
        raw = base64.b64decode(encoded, validate=True)
    except ValueError as malformed:
        raise CheckpointError(f"not a verifier key: {verifier_key!r}") from malformed
    if raw[:1] != ED25519_ALGORITHM or len(raw) != 33 or key_id(name, raw[1:]).hex() != hex_id:
        raise CheckpointError("not an Ed25519 verifier key, or its id does not match the key")
    return name, bytes.fromhex(hex_id), Ed25519PublicKey.from_public_bytes(raw[1:])


def open_checkpoint(note: str, verifier_key: str) -> Checkpoint:
    """The checkpoint a signed note states, once a signature by ``verifier_key`` on it verifies."""
    name, expected_id, public = parse_verifier_key(verifier_key)
    body, separator, signatures = note.rpartition("\n\n")
    if not separator:
        raise CheckpointError("the note has no signature lines")
    body += "\n"
    for line in signatures.splitlines():
        if not line.startswith(SIGNATURE_PREFIX):
            raise CheckpointError(f"not a signature line: {line!r}")
        signer, _, encoded = line[len(SIGNATURE_PREFIX) :].rpartition(" ")
        raw = base64.b64decode(encoded)
        if signer != name or raw[:4] != expected_id:
            continue
        try:
            public.verify(raw[4:], body.encode("utf-8"))
        except InvalidSignature as forged:
            raise CheckpointError(f"the signature by {name} does not verify") from forged
        return parse_checkpoint(body)
    raise CheckpointError(f"the note carries no signature by {name}")


def open_checkpoint_by_any(note: str, verifier_keys: Sequence[str]) -> Checkpoint:
    """The checkpoint a signed note states, once a signature by one of ``verifier_keys`` on it verifies (the current
    key and the keys rotated out before it: checkpoints signed before a rotation stay verifiable)."""
    refusals: list[str] = []
    for verifier_key in verifier_keys:
        try:
            return open_checkpoint(note, verifier_key)
        except CheckpointError as refused:
            refusals.append(str(refused))
    raise CheckpointError("; ".join(refusals) or "no verifier key to check the note with")


def parse_checkpoint(body: str) -> Checkpoint:
    """The origin, size and root of a checkpoint body."""
    lines = body.split("\n")
    try:
        origin, size, root = lines[0], int(lines[1]), base64.b64decode(lines[2], validate=True)
    except (IndexError, ValueError) as malformed:
        raise CheckpointError("not a checkpoint body") from malformed
    if not origin or size < 0 or len(root) != 32:
        raise CheckpointError("not a checkpoint body")
    return Checkpoint(origin, size, root)


@dataclass(frozen=True)
class SignedCheckpoint:
    """A checkpoint we signed and kept."""

    checkpoint: Checkpoint
    note: str
    signed_at: str


class CheckpointCopies(Protocol):
    """Where copies of signed checkpoints go for finance: ``checkpoint-<size>.txt`` and ``latest.txt``."""

    def write(self, name: str, note: str) -> None:
        """Keep one copy (replacing any of that name)."""


class DirectoryCopies:
    """Copies as files in a directory (``latest.txt`` replaced whole, never seen half-written)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def write(self, name: str, note: str) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = self.directory / f"{name}.tmp"
        partial.write_text(note, encoding="utf-8")
        partial.replace(self.directory / name)


class CheckpointStore:
    """The checkpoints we signed, in the log's database, and copies where finance can take them (a directory,
    or the object store's bucket when the deployment has one)."""

    def __init__(self, db: ViewDatabase, directory: Path | None, copies: CheckpointCopies | None = None) -> None:
        self.db = db
        self.directory = directory
        self.copies = copies if copies is not None else DirectoryCopies(directory) if directory is not None else None
        self.kept_here = 0  # checkpoints this process signed and kept (a held newest one is then out of date)

    def setup(self) -> None:
        """Create the table (idempotent)."""
        with self.db.transaction() as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)

    def keep(self, checkpoint: Checkpoint, note: str, signed_at: datetime) -> SignedCheckpoint:
        """Record a signed checkpoint (the first one signed for a tree size stays) and write it out."""
        with self.db.transaction() as cursor:
            cursor.execute(
                "INSERT INTO log_checkpoints (tree_size, root_hash, note, signed_at) "
                "VALUES (%(size)s, %(root)s, %(note)s, %(at)s) ON CONFLICT (tree_size) DO NOTHING",
                {"size": checkpoint.size, "root": checkpoint.root.hex(), "note": note, "at": signed_at.isoformat()},
            )
        kept = self.at_size(checkpoint.size)
        if kept is None:  # pragma: no cover  (inserted or already there just above)
            raise LookupError(checkpoint.size)
        if self.copies is not None:
            self.copies.write(f"checkpoint-{kept.checkpoint.size:012d}.txt", kept.note)
            self.copies.write("latest.txt", kept.note)
        self.kept_here += 1
        return kept

    def latest(self) -> SignedCheckpoint | None:
        """The checkpoint of the largest tree signed so far."""
        return self._one("SELECT * FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1", {})

    def newest(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` newest checkpoints as stored: ``tree_size``, ``root_hash``, ``note``, ``signed_at``."""
        with self.db.read() as cursor:
            cursor.execute(
                "SELECT tree_size, root_hash, note, signed_at FROM log_checkpoints ORDER BY tree_size DESC "
                "LIMIT %(limit)s",
                {"limit": limit},
            )
            kept = cursor.fetchall()
        return [{**row, "tree_size": int(row["tree_size"])} for row in kept]

    def at_size(self, size: int) -> SignedCheckpoint | None:
        """The checkpoint signed for a tree size, if any."""
        return self._one("SELECT * FROM log_checkpoints WHERE tree_size = %(size)s", {"size": size})

    def _one(self, sql: str, params: dict[str, int]) -> SignedCheckpoint | None:
        with self.db.read() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        note = str(row["note"])
        return SignedCheckpoint(parse_checkpoint(note.partition("\n\n")[0] + "\n"), note, str(row["signed_at"]))


# The newest signed checkpoint is read again after this long: checkpoints are signed about hourly, and a proof in
# the one before holds as well (every later tree contains it).
NEWEST_READ_EVERY = 5.0


class NewestCheckpoint:
    """The newest signed checkpoint as this process last read it, at most ``NEWEST_READ_EVERY`` seconds ago and
    not before one it signed itself (the app API's tokens carry it on every valid answer; a cache's age is not
    business time, so it is not the injected clock's)."""

    def __init__(self, store: CheckpointStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._read_at = float("-inf")
        self._kept_then = -1
        self._checkpoint: SignedCheckpoint | None = None

    def known(self) -> tuple[bool, SignedCheckpoint | None]:
        """(fresh, checkpoint): whether the one held is recent enough to use without reading, and it."""
        recent = time.monotonic() - self._read_at < NEWEST_READ_EVERY
        return recent and self._kept_then == self._store.kept_here, self._checkpoint

    def read(self) -> SignedCheckpoint | None:
        """The one held when recent enough, else the store's newest (a blocking read)."""
        fresh, checkpoint = self.known()
        if fresh:
            return checkpoint
        with self._lock:
            kept = self._store.kept_here
            checkpoint = self._store.latest()
            self._checkpoint, self._read_at, self._kept_then = checkpoint, time.monotonic(), kept
        return checkpoint
