"""A local stand-in for PortOne's V1 API and PG windows, for development, tests and demos."""

from integrations.portone.sandbox.app import create_sandbox_app
from integrations.portone.sandbox.settings import SandboxSettings

__all__ = ["SandboxSettings", "create_sandbox_app"]
