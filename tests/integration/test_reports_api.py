"""Reports through HTTP, on SQLite and PostgreSQL, with images kept as files and in an S3 bucket.

The S3 bucket is moto's server mode: one real S3-speaking HTTP server for the whole test session, started on a
free port, reached by our boto3 adapter over the network like any S3-compatible store.

The story: the filter groups of a Pro app; an image checked before the form adds it, and every kind the check
refuses; a report with a phone photo and an animated gif whose stored copies carry no camera or position; the
refusals (a sixth image, a script renamed .png, a bomb, a big file, no agreement, a foreign filter) storing
nothing; a member's report; the sender's hourly budget; support's export with links that open the images.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import uuid
from collections.abc import Iterator, Sequence
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import boto3
import httpx
import pytest
from fastapi.testclient import TestClient
from moto.server import ThreadedMotoServer
from PIL import Image

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.tokens import issue_access_token
from eventlog.tracking import wait_for_views
from tests import images
from tests.fakes import ManualClock, PlainHasher
from tests.support import START, register, running_projector
from workers.operator import parse_args, run

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
S3_CREDENTIALS = {"S3_ACCESS_KEY_ID": "reports-test", "S3_SECRET_ACCESS_KEY": "reports-test-secret"}


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """moto's S3 server on a free port, for the whole session (its per-request log kept quiet)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@dataclass
class Desk:
    """The API, and where the images went (a directory, or a bucket read with a client of its own)."""

    client: TestClient
    services: Services
    clock: ManualClock
    settings: Settings
    bucket: Any = None

    def stored_keys(self) -> list[str]:
        if self.bucket is None:
            root = self.settings.objects_dir
            return sorted(str(path.relative_to(root)) for path in root.rglob("*.*") if path.suffix != ".type")
        return sorted(item.key for item in self.bucket.objects.all())

    def stored(self, key: str) -> bytes:
        if self.bucket is None:
            return (self.settings.objects_dir / key).read_bytes()
        return bytes(self.bucket.Object(key).get()["Body"].read())

    def opened(self, link: str) -> bytes:
        """What support gets when it opens an image link."""
        if self.bucket is None:
            parts = urlsplit(link)
            answer = self.client.get(f"{parts.path}?{parts.query}")
        else:
            answer = httpx.get(link)
        assert answer.status_code == 200, answer.text
        return answer.content


@pytest.fixture(params=["files", "s3"])
def desk(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Desk]:
    bucket = None
    if request.param == "s3":
        endpoint = request.getfixturevalue("s3_endpoint")
        name = f"reports-{uuid.uuid4().hex[:12]}"
        s3 = boto3.resource(
            "s3",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id=S3_CREDENTIALS["S3_ACCESS_KEY_ID"],
            aws_secret_access_key=S3_CREDENTIALS["S3_SECRET_ACCESS_KEY"],
        )
        bucket = s3.create_bucket(Bucket=name)
        settings = Settings(
            **{**_environment(settings), "S3_BUCKET": name, "S3_ENDPOINT_URL": endpoint, **S3_CREDENTIALS}
        )
    clock = ManualClock(START)
    services = Services.build(settings, clock=clock, hasher=PlainHasher())
    with running_projector(settings), TestClient(create_app(services=services)) as client:
        yield Desk(client, services, clock, settings, bucket)
    services.close()


def _environment(settings: Settings) -> dict[str, Any]:
    return {name: value for name, value in settings.model_dump(by_alias=True).items() if value not in ("", None)}


def report(
    desk: Desk, files: Sequence[tuple[str, bytes]] = (), token: str | None = None, **fields: str
) -> httpx.Response:
    """POST /reports as the web sends it: only the fields given, and each image as an ``images`` part."""
    form = {"product": "uncpm", "problem": "ad", "url": "https://news.example/article", "checked": "true", **fields}
    parts = [("images", (name, data, "application/octet-stream")) for name, data in files]
    headers = {"Authorization": f"Bearer {token}"} if token else None
    desk.clock.advance(timedelta(seconds=1))
    return desk.client.post(f"{V1}/reports", data=form, files=parts or None, headers=headers)


def refused(answer: httpx.Response) -> tuple[int, int]:
    return answer.status_code, answer.json()["errorCode"]


def test_reports_keep_clean_images_refuse_bad_ones_and_export_with_image_links(desk: Desk, tmp_path: Path) -> None:
    client = desk.client
    groups = client.get(f"{V1}/reports/filter-groups", params={"product": "uncpm"}).json()
    assert [group["name"] for group in groups] == ["Main filters", "Additional filters"]
    assert [item["name"] for item in groups[1]["filters"]][-2:] == [
        "Privacy filter",
        "Cryptocurrency miner blocking filter",
    ]
    chosen = [groups[0]["filters"][0]["filterId"], groups[1]["filters"][2]["filterId"]]
    assert refused(client.get(f"{V1}/reports/filter-groups", params={"product": "uncp"})) == (400, -2)

    def check(name: str, data: bytes) -> httpx.Response:
        return client.post(f"{V1}/reports/validate", files={"image": (name, data, "image/png")})

    assert check("shot.png", images.plain_png(24, 16)).json() == {
        "contentType": "image/png",
        "width": 24,
        "height": 16,
        "frames": 1,
    }
    assert check("photo.png", images.phone_photo()).json()["contentType"] == "image/jpeg", "content, not name"
    assert refused(check("script.png", images.SCRIPT)) == (400, -1401)
    assert refused(check("bomb.png", images.decompression_bomb())) == (400, -1402)
    assert refused(check("half.jpg", images.truncated_jpeg())) == (400, -1401)
    assert refused(check("big.png", images.too_large())) == (400, -1402)

    two = [("photo.jpg", images.phone_photo(64, 48)), ("dance.gif", images.animated_gif())]
    sent = report(desk, two, filters=",".join(map(str, chosen)), email="mina@example.com", comment="Banner on top")
    assert sent.status_code == 200, sent.text
    report_id = sent.json()["reportId"]
    assert sent.json()["images"] == 2
    keys = [f"reports/{report_id}/1.jpg", f"reports/{report_id}/2.gif"]
    assert desk.stored_keys() == keys
    photo = desk.stored(keys[0])
    assert images.CAMERA.encode() not in photo
    assert not Image.open(io.BytesIO(photo)).getexif(), "no camera, no GPS"
    assert Image.open(io.BytesIO(photo)).size == (48, 64)
    assert Image.open(io.BytesIO(desk.stored(keys[1]))).n_frames == 3

    six = [(f"shot{n}.png", images.plain_png()) for n in range(6)]
    for files, fields, code in (
        (six, {}, -1403),
        ([("fine.png", images.plain_png()), ("virus.png", images.SCRIPT)], {}, -1401),
        ([("bomb.png", images.decompression_bomb())], {}, -1402),
        ([("half.jpg", images.truncated_jpeg())], {}, -1401),
        ([("big.png", images.too_large())], {}, -1402),
        ([], {"checked": ""}, -1),
        ([], {"url": ""}, -1),
        ([], {"filters": "101"}, -2),
        ([], {"product": "uncpx"}, -2),
    ):
        assert refused(report(desk, files, **fields)) == (400, code), (fields, [name for name, _ in files])
    assert desk.stored_keys() == keys, "a refused report keeps nothing"

    member = register(desk.services.store, "joon@example.com")
    token = issue_access_token(desk.settings.auth_secret, member.account_id, 1, START, session_id=uuid.uuid4()).token
    bug = report(desk, problem="bug", url="", comment="Crashes on start", token=token)
    assert bug.status_code == 200, bug.text

    for _ in range(4):
        assert report(desk, problem="bug", email="mina@example.com").status_code == 200
    assert refused(report(desk, problem="bug", email="MINA@example.com")) == (429, -4), "five an hour per sender"

    services = desk.services
    assert wait_for_views(services.views, services.store.name, ["reports"], services.store.max_notification_id(), 10)
    exported = _operator(services, "reports", "export", str(tmp_path / "all.jsonl"), "--quiet", "--problem", "ad")
    assert exported == "exported 1 reports to " + str(tmp_path / "all.jsonl")
    (row,) = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert (row["report_id"], row["product"], row["problem"]) == (report_id, "uncpm", "ad")
    assert (row["filters"], row["email"], row["comment"]) == (chosen, "mina@example.com", "Banner on top")
    assert row["checked"] is True
    assert row["submitted_at"].endswith("+09:00")
    assert [image["content_type"] for image in row["images"]] == ["image/jpeg", "image/gif"]
    assert [desk.opened(image["link"]) for image in row["images"]] == [desk.stored(key) for key in keys]

    _operator(services, "reports", "export", str(tmp_path / "all.csv"), "--quiet")
    rows = list(csv.DictReader((tmp_path / "all.csv").open(encoding="utf-8")))
    assert len(rows) == 6
    assert rows[0]["filters"] == ",".join(map(str, chosen))
    assert [desk.opened(link) for link in rows[0]["images"].split(" ")] == [desk.stored(key) for key in keys]
    assert rows[1]["account_id"] == str(member.account_id)

    listed = _operator(services, "reports", "list", "--product", "uncpm", "--problem", "bug")
    assert len(listed.splitlines()) == 1 + 5


def _operator(services: Services, *argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert run(parse_args(argv), services) == 0
    return out.getvalue().strip()
