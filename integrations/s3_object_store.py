"""The object store's S3 adapter (boto3): each object in one bucket under its key, with its content type.

Used when ``S3_BUCKET`` is set; ``S3_ENDPOINT_URL`` points it at any S3-compatible server (MinIO, Ceph, the
tests' moto server), which is then addressed path-style. Links are presigned GETs, which the bucket itself
checks and lets expire. A store that does not answer raises ``ObjectStoreUnavailableError`` (the API says 503).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from domain.ports import ObjectStoreUnavailableError, StoredObject

# Reads and writes give up after a few seconds each, well inside a request's 15 s budget.
TIMEOUTS = {"connect_timeout": 3, "read_timeout": 10, "retries": {"max_attempts": 2, "mode": "standard"}}
MISSING = ("NoSuchKey", "404", "NotFound")


class S3ObjectStore:
    """Objects in an S3 bucket."""

    def __init__(
        self,
        bucket: str,
        *,
        endpoint_url: str | None = None,
        region: str | None = None,
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
    ) -> None:
        self.bucket = bucket
        addressing = {"s3": {"addressing_style": "path"}} if endpoint_url else {}
        self.client: Any = boto3.client(
            "s3",
            endpoint_url=endpoint_url or None,
            region_name=region or None,
            # Left out, boto3 finds credentials itself (environment, instance role, ...).
            aws_access_key_id=access_key_id or None,
            aws_secret_access_key=secret_access_key or None,
            config=Config(signature_version="s3v4", **TIMEOUTS, **addressing),
        )

    def put(self, key: str, obj: StoredObject) -> None:
        """Write the object (S3 replaces a key whole: a reader sees the old object or the new one)."""
        try:
            self.client.put_object(Bucket=self.bucket, Key=key, Body=obj.data, ContentType=obj.content_type)
        except (BotoCoreError, ClientError) as failed:
            raise ObjectStoreUnavailableError(f"put {key}: {failed}") from failed

    def get(self, key: str) -> StoredObject | None:
        """The object, or None when no such key was stored."""
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=key)
            return StoredObject(answer["Body"].read(), answer.get("ContentType") or "application/octet-stream")
        except ClientError as failed:
            if failed.response.get("Error", {}).get("Code") in MISSING:
                return None
            raise ObjectStoreUnavailableError(f"get {key}: {failed}") from failed
        except BotoCoreError as failed:
            raise ObjectStoreUnavailableError(f"get {key}: {failed}") from failed

    def link(self, key: str, lifetime: timedelta) -> str:
        """A presigned GET of the object, valid for ``lifetime`` (S3 allows at most 7 days)."""
        url: str = self.client.generate_presigned_url(
            "get_object", Params={"Bucket": self.bucket, "Key": key}, ExpiresIn=int(lifetime.total_seconds())
        )
        return url
