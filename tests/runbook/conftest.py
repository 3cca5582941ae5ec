"""The operator's shell: the runbook's commands run as processes, with a site's environment."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from config.settings import Settings
from tests.integration.portone.conftest import clock, sandbox, start_sandbox, webhook_receiver
from tests.integration.purchases.conftest import catalogue, domain_clock, gateway

__all__ = ["catalogue", "clock", "domain_clock", "gateway", "sandbox", "start_sandbox", "webhook_receiver"]

ROOT = Path(__file__).resolve().parents[2]


def new_signing_key() -> str:
    """An AUDIT_SIGNING_KEY: base64 of a fresh 32-byte Ed25519 seed."""
    return base64.b64encode(Ed25519PrivateKey.generate().private_bytes_raw()).decode("ascii")


@dataclass
class Operator:
    """Someone at a shell on a machine configured by ``environment`` (the deployment's variables)."""

    settings: Settings
    environment: dict[str, str] = field(default_factory=dict)

    def run(self, *command: str, expect: int = 0) -> str:
        """``python -m <command>``; its output (stdout and stderr), once it exited with ``expect``."""
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        env.update(APP_ENV="test", APP_VAR_DIR=str(self.settings.var_dir), **self.environment)
        if self.settings.uses_postgres:
            env["DATABASE_URL"] = self.settings.database_url
        done = subprocess.run(
            [sys.executable, "-m", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        said = done.stdout + done.stderr
        assert done.returncode == expect, f"python -m {' '.join(command)} exited {done.returncode}:\n{said}"
        return said
