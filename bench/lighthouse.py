"""Lighthouse (12, from npm, run with npx) against the running stack in Debian's Chromium, mobile settings (its
default): the performance score of the home, purchase, login and licence pages, with LCP, CLS, TBT and
Lighthouse's benchmarkIndex of the host in the note.

Needs `npx` (Node) and /usr/bin/chromium; the first run downloads Lighthouse into npm's cache. The licence page is
measured as a logged-in member with a confirmed email: the app reads its session cookies in the page, so a header
would not do; the member's cookies are put into a Chromium of our own (over the DevTools protocol) and Lighthouse
audits in that browser, its storage reset turned off so the cookies stay (the fresh profile's cache is empty).
In a smoke run (``python -m bench --smoke``, part of ``make test``) Lighthouse's own audit is left out (it
takes most of a minute a page here, and downloads Lighthouse on a fresh machine): the member's cookies go into
Chromium as above and Chromium opens the licence page, which must stay there (the page a member who is not
logged in leaves for the login page); npx and Chromium must still be there. Target: score ≥ 95, printed as
the baseline. ``BENCH_LIGHTHOUSE_PAGES=purchase,licences`` audits only those pages;
each page's whole report is kept as bench/results/lighthouse-<page>.json, and the note names the elements that shifted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from bench.harness import RESULTS, Result, bench_stack, smoke
from bench.reads import seed
from tests.faults.stack import V1, Stack, free_port, until

LIGHTHOUSE = os.environ.get("BENCH_LIGHTHOUSE", "lighthouse@12")
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-background-networking --disable-gpu"
PAGES = {"home": "/ko", "purchase": "/ko/purchase", "login": "/ko/login", "licences": "/ko/license"}
CHOSEN = [name for name in os.environ.get("BENCH_LIGHTHOUSE_PAGES", ",".join(PAGES)).split(",") if name]


def _audit(url: str, folder: Path, browser_port: int | None = None) -> dict[str, Any]:
    """One Lighthouse run (in its own Chromium, or the one at ``browser_port``): the performance score (0-100), its
    main metrics and the report itself."""
    npx = shutil.which("npx")
    if npx is None or not Path(CHROMIUM).exists():
        raise SystemExit("the Lighthouse benchmark needs npx (Node) and Debian's chromium (apt-get install chromium)")
    report = folder / "report.json"
    command = [npx, "--yes", LIGHTHOUSE, url, "--only-categories=performance", "--output=json",
               f"--output-path={report}", "--quiet"]  # fmt: skip
    if browser_port is None:
        command.append(f"--chrome-flags={CHROME_FLAGS}")
    else:
        command += [f"--port={browser_port}", "--disable-storage-reset"]
    subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True, timeout=600)
    found = json.loads(report.read_text(encoding="utf-8"))
    audits = found["audits"]
    return {
        "score": float(found["categories"]["performance"]["score"] or 0) * 100,
        "lcp_ms": float(audits["largest-contentful-paint"]["numericValue"]),
        "cls": float(audits["cumulative-layout-shift"]["numericValue"]),
        "tbt_ms": float(audits["total-blocking-time"]["numericValue"]),
        "shifted": _shifted(audits),
        # Lighthouse's own measure of the host's CPU: its simulated 4x slowdown comes on top of the host's, so
        # scores from runs on hosts of different speed are compared with this beside them.
        "benchmark_index": float(found.get("environment", {}).get("benchmarkIndex") or 0),
        "report": found,
    }


def _shifted(audits: dict[str, Any]) -> str:
    """The elements whose moves made up the layout shift, worst first ("" when nothing moved)."""
    items = audits.get("layout-shifts", {}).get("details", {}).get("items", [])
    named = [f"{item.get('node', {}).get('selector', '?')} {item.get('score', 0):.3f}" for item in items[:3]]
    return "; ".join(named)


MEMBER = "lighthouse@example.com"


def _member_cookies(stack: Stack) -> list[dict[str, Any]]:
    """The session cookies of a confirmed member with five licences, as the DevTools protocol sets them."""
    seed(stack, MEMBER)  # registers and confirms the member through the signed link their mail carries
    with httpx.Client(timeout=30) as http:
        http.post(f"{stack.api_url}{V1}/auth/login", json={"email": MEMBER, "pw": "bench2026"})
        return [
            {
                "name": cookie.name,
                "value": cookie.value or "",
                "url": stack.api_url,
                "path": cookie.path,
                "httpOnly": cookie.has_nonstandard_attr("HttpOnly"),
            }
            for cookie in http.cookies.jar
        ]


@contextmanager
def _browser_with(cookies: list[dict[str, Any]], folder: Path) -> Iterator[int]:
    """A headless Chromium holding ``cookies``, for Lighthouse to audit in; yields its DevTools port."""
    port = free_port()
    profile = folder / "chromium-profile"
    command = [CHROMIUM, *CHROME_FLAGS.split(), f"--remote-debugging-port={port}", f"--user-data-dir={profile}",
               "--no-first-run", "about:blank"]  # fmt: skip
    browser = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{port}/json/version", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        until(listening, "Chromium answers on its DevTools port", seconds=30)
        address = httpx.get(f"http://127.0.0.1:{port}/json/version", timeout=5).json()["webSocketDebuggerUrl"]
        with connect(address, max_size=None) as devtools:
            devtools.send(json.dumps({"id": 1, "method": "Storage.setCookies", "params": {"cookies": cookies}}))
            answer = json.loads(devtools.recv(timeout=10))
            if "error" in answer:
                raise RuntimeError(f"Chromium refused the cookies: {answer['error']}")
        yield port
    finally:
        browser.terminate()
        browser.wait(timeout=30)


def _opened_in(port: int, url: str) -> str:
    """Where Chromium's tab ends up when it opens ``url`` (followed for a few seconds: the app sends a visitor it
    does not know to the login page once it has asked for the session)."""
    tab = next(
        item for item in httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=5).json() if item["type"] == "page"
    )
    with connect(tab["webSocketDebuggerUrl"], max_size=None) as devtools:
        devtools.send(json.dumps({"id": 1, "method": "Page.navigate", "params": {"url": url}}))
        seen = ""
        for number in range(2, 12):  # about five seconds
            asked = {"expression": "location.href"}
            devtools.send(json.dumps({"id": number, "method": "Runtime.evaluate", "params": asked}))
            while (answer := json.loads(devtools.recv(timeout=10))).get("id") != number:
                continue
            seen = str(answer.get("result", {}).get("result", {}).get("value", ""))
            time.sleep(0.5)
        return seen


def run(store: str, env: dict[str, str], *, seconds: int, connections: int) -> list[Result]:
    """Audit each page once on a stack of ``store`` (a smoke run: see the module)."""
    del seconds, connections
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp, bench_stack(Path(tmp) / "var", **env) as stack:
        cookies = _member_cookies(stack)
        if smoke():
            if shutil.which("npx") is None or not Path(CHROMIUM).exists():
                raise SystemExit("the Lighthouse benchmark needs npx (Node) and Debian's chromium")
            with _browser_with(cookies, Path(tmp)) as port:
                landed = _opened_in(port, f"{stack.api_url}{PAGES['licences']}")
            if not landed.endswith(PAGES["licences"]):
                raise RuntimeError(f"the member was not logged in: Chromium landed on {landed}")
            return []
        for name in CHOSEN:
            path = PAGES[name]
            if name == "licences":
                with _browser_with(cookies, Path(tmp)) as port:
                    found = _audit(f"{stack.api_url}{path}", Path(tmp), port)
                if not found["report"]["finalDisplayedUrl"].endswith(path):
                    raise RuntimeError(f"the member was not logged in: {found['report']['finalDisplayedUrl']}")
            else:
                found = _audit(f"{stack.api_url}{path}", Path(tmp))
            RESULTS.mkdir(parents=True, exist_ok=True)
            (RESULTS / f"lighthouse-{name}.json").write_text(json.dumps(found["report"]), encoding="utf-8")
            metrics = (f"LCP {found['lcp_ms']:.0f} ms, CLS {found['cls']:.3f}, TBT {found['tbt_ms']:.0f} ms, "
                       f"host benchmarkIndex {found['benchmark_index']:.0f}")  # fmt: skip
            if found["shifted"]:
                metrics += f" (shifted: {found['shifted']})"
            note = f"{metrics}; baseline = target"
            results.append(Result(f"Lighthouse performance: {name}", store, "score", found["score"], 95.0, 1.0,
                                  note=note))  # fmt: skip
    return results
