"""The Procfile is the one list of processes; the supervisor's configuration is made from it."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import pytest

from operations.stack import read_procfile, supervisord_config

ROOT = Path(__file__).resolve().parents[2]


def test_every_process_of_the_procfile_is_supervised_and_restarted() -> None:
    processes = read_procfile((ROOT / "Procfile").read_text(encoding="utf-8"))
    assert [p.name for p in processes] == ["api", "projector", "reactor", "worker", "beat", "portone", "stores"]

    text = supervisord_config(processes, workdir=ROOT, var_dir=Path("/srv/var"), process_logs=Path("/srv/logs"))
    config = configparser.RawConfigParser()
    config.read_string(text)
    for process in processes:
        program = config[f"program:{process.name}"]
        assert program["autorestart"] == "true"
        assert program["stopasgroup"] == program["killasgroup"] == "true"
        assert program["stdout_logfile"] == f"/srv/logs/{process.name}.log"
        # The shell expands the Procfile's ${NAME:-default}, then gives way to the process itself.
        assert shlex.split(program["command"]) == ["/bin/sh", "-c", f"exec {process.command}"]


def test_a_percent_sign_survives_supervisords_own_expansion() -> None:
    [process] = read_procfile("web: serve --format '%s'\n")
    text = supervisord_config([process], workdir=ROOT, var_dir=Path("/srv/var"), process_logs=None)
    config = configparser.ConfigParser()  # expands %-expressions as supervisord does
    config.read_string(text)
    assert shlex.split(config["program:web"]["command"]) == ["/bin/sh", "-c", "exec serve --format '%s'"]
    assert config["program:web"]["stdout_logfile"] == "/dev/stdout"


@pytest.mark.parametrize("line", ["no separator here", "two words: cmd", "api:", "api: a\napi: b"])
def test_a_malformed_procfile_is_refused(line: str) -> None:
    with pytest.raises(ValueError, match="Procfile"):
        read_procfile(line)
