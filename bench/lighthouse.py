"""Lighthouse (12, from npm, run with npx) against the running stack in Debian's Chromium, mobile settings (its
default): the performance score of the home, purchase, login and licence pages, with LCP, CLS and TBT in the note.

Needs `npx` (Node) and /usr/bin/chromium; the first run downloads Lighthouse into npm's cache. The licence page is
measured as a logged-in member (the session cookies are sent as an extra header). Target: score ≥ 95, printed as
the baseline. ``BENCH_LIGHTHOUSE_PAGES=purchase,licences`` audits only those pages; each page's whole report is kept
as bench/results/lighthouse-<page>.json, and the elements that shifted are named in the note.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import httpx

from bench.harness import RESULTS, Result
from bench.reads import seed
from tests.faults.stack import V1, Stack

LIGHTHOUSE = os.environ.get("BENCH_LIGHTHOUSE", "lighthouse@12")
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-background-networking --disable-gpu"
PAGES = {"home": "/ko", "purchase": "/ko/purchase", "login": "/ko/login", "licences": "/ko/license"}
CHOSEN = [name for name in os.environ.get("BENCH_LIGHTHOUSE_PAGES", ",".join(PAGES)).split(",") if name]


def _audit(url: str, folder: Path, headers: dict[str, str]) -> dict[str, Any]:
    """One Lighthouse run: the performance score (0-100), its main metrics and the report itself."""
    npx = shutil.which("npx")
    if npx is None or not Path(CHROMIUM).exists():
        raise SystemExit("the Lighthouse benchmark needs npx (Node) and Debian's chromium (apt-get install chromium)")
    report = folder / "report.json"
    command = [npx, "--yes", LIGHTHOUSE, url, "--only-categories=performance", "--output=json",
               f"--output-path={report}", f"--chrome-flags={CHROME_FLAGS}", "--quiet"]  # fmt: skip
    if headers:
        command.append(f"--extra-headers={json.dumps(headers)}")
    subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True, timeout=600)
    found = json.loads(report.read_text(encoding="utf-8"))
    audits = found["audits"]
    return {
        "score": float(found["categories"]["performance"]["score"] or 0) * 100,
        "lcp_ms": float(audits["largest-contentful-paint"]["numericValue"]),
        "cls": float(audits["cumulative-layout-shift"]["numericValue"]),
        "tbt_ms": float(audits["total-blocking-time"]["numericValue"]),
        "shifted": _shifted(audits),
        "report": found,
    }


def _shifted(audits: dict[str, Any]) -> str:
    """The elements whose moves made up the layout shift, worst first ("" when nothing moved)."""
    items = audits.get("layout-shifts", {}).get("details", {}).get("items", [])
    named = [f"{item.get('node', {}).get('selector', '?')} {item.get('score', 0):.3f}" for item in items[:3]]
    return "; ".join(named)


def _member_cookies(stack: Stack) -> str:
    """The session cookies of a member with five licences, as a Cookie header."""
    seed(stack)
    with httpx.Client(timeout=30) as http:
        http.post(f"{stack.api_url}{V1}/auth/login", json={"email": "reader@example.com", "pw": "bench2026"})
        return "; ".join(f"{name}={value}" for name, value in http.cookies.items())


def run(store: str, env: dict[str, str], *, seconds: int, connections: int) -> list[Result]:
    """Audit each page once on a stack of ``store``."""
    del seconds, connections
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        stack = Stack(Path(tmp) / "var", **env)
        try:
            stack.wait_until_healthy()
            cookies = _member_cookies(stack)
            for name in CHOSEN:
                path = PAGES[name]
                headers = {"Cookie": cookies} if name == "licences" else {}
                found = _audit(f"{stack.api_url}{path}", Path(tmp), headers)
                RESULTS.mkdir(parents=True, exist_ok=True)
                (RESULTS / f"lighthouse-{name}.json").write_text(json.dumps(found["report"]), encoding="utf-8")
                metrics = f"LCP {found['lcp_ms']:.0f} ms, CLS {found['cls']:.3f}, TBT {found['tbt_ms']:.0f} ms"
                if found["shifted"]:
                    metrics += f" (shifted: {found['shifted']})"
                note = f"{metrics}; baseline = target"
                results.append(Result(f"Lighthouse performance: {name}", store, "score", found["score"], 95.0, 1.0,
                                      note=note))  # fmt: skip
        finally:
            stack.stop()
    return results
