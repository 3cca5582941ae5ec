"""The test harness (harness/) stays out of production: the packages pyproject.toml installs leave it out, and no
production process imports it unless a test-only setting (TEST_CLOCK, TEST_ADMIN_TOKEN) mounts it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINTS = (
    "api.__main__",
    "api.app",
    "workers.__main__",
    "workers.reactor",
    "workers.operator",
    "workers.tasks",
    "projections.__main__",
    "eventlog.audit.__main__",
)


def test_the_installed_packages_leave_the_harness_and_the_tests_out() -> None:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    installed = find_packages(str(ROOT), include=found["include"])
    assert "api" in installed and "application.finance" in installed
    assert not [name for name in installed if name.split(".")[0] in ("harness", "tests", "bench")]


def test_a_production_process_imports_nothing_of_the_harness() -> None:
    probe = (
        "import importlib, sys\n"
        f"for name in {ENTRY_POINTS!r}: importlib.import_module(name)\n"
        "from api.app import create_app\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'harness'))\n"
    )
    ran = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"
