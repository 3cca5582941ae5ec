"""Copies of signed checkpoints in the object store's bucket, under ``checkpoints/``: a deployment with an S3 bucket
has no disk that every worker shares, and finance can take them from the bucket."""

from __future__ import annotations

from domain.ports import ObjectStore, StoredObject


class BucketCopies:
    """Writes each signed checkpoint (and ``latest.txt``) to the bucket."""

    def __init__(self, objects: ObjectStore) -> None:
        self.objects = objects

    def write(self, name: str, note: str) -> None:
        """Keep one copy under ``checkpoints/<name>``."""
        self.objects.put(f"checkpoints/{name}", StoredObject(note.encode("utf-8"), "text/plain; charset=utf-8"))
