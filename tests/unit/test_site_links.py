"""Every link the Python side builds opens something that exists: a route of the web app
(``web/src/routing/paths.ts``) or an operation of the API (``api/access.py``'s table).

The links are all built by ``domain.links.SiteLinks``; each of its builders is called here, so a new one is
checked as soon as it is written, and a page renamed in the web without its link breaks this test.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from urllib.parse import urlsplit

from api.access import POLICY
from domain.links import API_BASE_PATH, SiteLinks
from events.values import Language

PATHS_TS = Path(__file__).resolve().parents[2] / "web" / "src" / "routing" / "paths.ts"
SAMPLES = {
    "language": Language.KO,
    "token": "t0",
    "licence_key": "KEY",
    "email": "a@example.com",
    "key": "reports/x",
    "merchant_uid": "unc-20261101-000000000000",
}


def _web_routes() -> list[list[str | None]]:
    """Each route of paths.ts as its segments after /{lang}, None where the route takes a value."""
    routes = []
    for listed in re.findall(r"build\(ctx, \[([^\]]*)\]", PATHS_TS.read_text()):
        items = [item.strip() for item in listed.split(",") if item.strip()]
        routes.append([item.strip("'") if item.startswith("'") else None for item in items])
    return routes


def _every_link() -> dict[str, str]:
    links = SiteLinks("https://shop.example/")
    built = {}
    for name, method in inspect.getmembers(links, inspect.ismethod):
        if name.startswith("_"):
            continue
        parameters = inspect.signature(method).parameters
        arguments = {key: SAMPLES.get(key, 1) for key in parameters}
        built[name] = method(**arguments)
    return built


def _pattern(operation: str) -> str:
    """An operation's path as a regular expression (``{name}`` one segment, ``{name:path}`` any)."""
    return re.sub(r"\{[^}:]+(:path)?\}", lambda found: ".+" if found.group(1) else "[^/]+", operation)


def _is_web_route(path: str, routes: list[list[str | None]]) -> bool:
    segments = path.strip("/").split("/")
    if segments and segments[0] in {language.value for language in Language}:
        segments = segments[1:]  # a path without a language opens in the reader's
    return any(
        len(route) == len(segments)
        and all(part is None or part == given for part, given in zip(route, segments, strict=True))
        for route in routes
    )


def test_every_link_we_build_opens_a_web_route_or_an_api_operation() -> None:
    routes = _web_routes()
    operations = [key.split(" ", 1)[1] for key in POLICY]
    built = _every_link()
    assert len(built) >= 7, built
    for name, link in built.items():
        url = urlsplit(link)
        assert f"{url.scheme}://{url.netloc}" == "https://shop.example", name
        if url.path.startswith(API_BASE_PATH):
            below = url.path.removeprefix(API_BASE_PATH)
            patterns = [_pattern(operation) for operation in operations]
            assert any(re.fullmatch(pattern, below) for pattern in patterns), f"{name}: no API operation {below}"
        else:
            assert _is_web_route(url.path, routes), f"{name}: {url.path} is no route of paths.ts"


def test_the_web_routes_are_read_from_paths_ts() -> None:
    routes = _web_routes()
    assert ["register", "claim"] in routes and ["license", None, "upgrade"] in routes
