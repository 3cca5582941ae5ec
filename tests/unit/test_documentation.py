"""The docs a newcomer and an operator read: a short README, and no cited file or command that is not there (links
and repeats: test_docs.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, ROOT / "bench" / "RESULTS.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
TOP_LEVEL = (
    "api",
    "application",
    "bench",
    "bootstrap",
    "config",
    "deploy",
    "docs",
    "domain",
    "eventlog",
    "events",
    "harness",
    "integrations",
    "operations",
    "projections",
    "verifier",
)
CITED_PATH = re.compile(rf"`((?:{'|'.join(TOP_LEVEL)}|tests|workers|web)/[\w./-]*\w/?)`")
COMMAND = re.compile(r"python -m ([a-z_.]+)")


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_every_file_the_readme_and_the_runbook_cite_exists() -> None:
    missing = []
    for page in (README, ROOT / "docs" / "runbook.md"):
        for cited in CITED_PATH.findall(page.read_text(encoding="utf-8")):
            if "<" not in cited and not (ROOT / cited).exists():
                missing.append(f"{page.name}: {cited}")
    assert missing == []


def test_every_command_the_readme_and_the_runbook_give_is_a_module_of_ours() -> None:
    unknown = []
    for page in (README, ROOT / "docs" / "runbook.md"):
        for module in set(COMMAND.findall(page.read_text(encoding="utf-8"))):
            if importlib.util.find_spec(module) is None:
                unknown.append(f"{page.name}: python -m {module}")
    assert unknown == []
