"""docker-compose.yml read as the deployment describes each process: its command, environment and health check.

Variables are substituted as Compose does (``${NAME:-default}``, ``${NAME:?message}``, ``${NAME}``, ``$$``) from the
values an operator supplies; a required one that is missing fails, as ``docker compose up`` does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
# Services of the compose file the test replaces by its own PostgreSQL database and Redis database.
DATA_SERVICES = ("postgres", "redis")
_VARIABLE = re.compile(r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


class MissingVariableError(LookupError):
    """A variable the compose file requires (``${NAME:?...}``) was not supplied."""


@dataclass(frozen=True)
class Service:
    """One application service: its command, environment, health check (Compose's ``test``) and volumes."""

    name: str
    command: list[str]
    environment: dict[str, str]
    healthcheck: list[str]
    volumes: dict[str, str]  # volume name -> mount point
    ports: list[str]


def raw_compose() -> dict[str, Any]:
    """The compose file as YAML (anchors and ``<<`` merges resolved), before substitution."""
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    return loaded


def operator_variables() -> set[str]:
    """Every variable the compose file takes from the operator's environment."""
    return {match["name"] for match in _VARIABLE.finditer(COMPOSE_FILE.read_text()) if match["name"]}


def substitute(text: str, supplied: dict[str, str]) -> str:
    """Compose's variable substitution of one value."""

    def value(match: re.Match[str]) -> str:
        if match[0] == "$$":
            return "$"
        name, op, arg = match["name"], match["op"], match["arg"] or ""
        given = supplied.get(name)
        unset = given is None or (given == "" and op is not None and op.startswith(":"))
        if op in (":?", "?") and unset:
            raise MissingVariableError(f"{name}: {arg}")
        if op in (":-", "-") and unset:
            return arg
        return given or ""

    return _VARIABLE.sub(value, text)


def _substituted(value: Any, supplied: dict[str, str]) -> Any:
    if isinstance(value, str):
        return substitute(value, supplied)
    if isinstance(value, list):
        return [_substituted(item, supplied) for item in value]
    if isinstance(value, dict):
        return {key: _substituted(item, supplied) for key, item in value.items()}
    return value


def services(supplied: dict[str, str]) -> list[Service]:
    """The application services (every one but the data services), with the operator's values substituted."""
    compose = _substituted(raw_compose(), supplied)
    found = []
    for name, spec in compose["services"].items():
        if name in DATA_SERVICES:
            continue
        mounts = dict(volume.split(":", 1) for volume in spec.get("volumes", []))
        found.append(
            Service(
                name=name,
                command=[str(part) for part in spec["command"]],
                environment={key: str(item) for key, item in spec.get("environment", {}).items()},
                healthcheck=[str(part) for part in spec["healthcheck"]["test"]],
                volumes=mounts,
                ports=[str(port) for port in spec.get("ports", [])],
            )
        )
    return found
