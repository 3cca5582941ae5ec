"""The whole stack under one supervisor: every process of the Procfile, restarted when it dies.

``python -m operations.stack`` turns the Procfile into a supervisord configuration under the
var directory and runs supervisord in the foreground. A process that exits is started
again (with supervisord's growing back-off while it keeps failing at start-up) and the
supervisor's log names it and how it ended, instead of one death stopping everything as
honcho does. SIGTERM or Ctrl-C stops every process, each with its process group.

Each process's output goes to the console, or with ``--process-logs DIR`` to its own
file ``DIR/<name>.log`` (the end-to-end stack does that, so a failure can show each one).
``.venv/bin/supervisorctl -c <var>/supervisord.conf status`` shows what runs.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# A process that dies within this many seconds of starting counts as failing to start:
# supervisord waits 1, 2, 3... seconds between such attempts, and gives up after the last.
STARTED_AFTER_SECONDS = 3
START_ATTEMPTS = 10
STOP_WAIT_SECONDS = 10


@dataclass(frozen=True)
class StackProcess:
    """One line of the Procfile: a process name and its shell command."""

    name: str
    command: str


def read_procfile(text: str) -> list[StackProcess]:
    """The processes of a Procfile (``name: command`` lines; blank lines and ``#`` comments skipped)."""
    processes = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        name, separator, command = stripped.partition(":")
        if not separator or not name.strip().isidentifier() or not command.strip():
            raise ValueError(f"Procfile line {number} is not 'name: command': {line!r}")
        processes.append(StackProcess(name.strip(), command.strip()))
    names = [process.name for process in processes]
    if len(names) != len(set(names)):
        raise ValueError(
            "a Procfile names each process once, but these twice: "
            + ", ".join(sorted({n for n in names if names.count(n) > 1}))
        )
    return processes


def _escaped(value: str) -> str:
    """A value as supervisord's configuration reads it back (it expands ``%(...)s``)."""
    return value.replace("%", "%%")


def supervisord_config(
    processes: Sequence[StackProcess], *, workdir: Path, var_dir: Path, process_logs: Path | None
) -> str:
    """The supervisord configuration that runs ``processes`` in ``workdir``.

    Commands run through ``sh -c 'exec ...'`` so the Procfile's ``${NAME:-default}`` works
    and the shell gives way to the process itself, which then receives the stop signal.
    """
    socket = var_dir / "supervisor.sock"
    sections = [
        "[supervisord]",
        "nodaemon=true",
        # In the foreground supervisord also prints its log (which process started, exited, was
        # restarted) on the console.
        f"logfile={_escaped(str(var_dir / 'supervisord.log'))}",
        "logfile_maxbytes=5MB",
        "logfile_backups=2",
        "loglevel=info",
        f"pidfile={_escaped(str(var_dir / 'supervisord.pid'))}",
        f"childlogdir={_escaped(str(var_dir))}",
        "",
        "[unix_http_server]",
        f"file={_escaped(str(socket))}",
        "chmod=0700",
        "",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface",
        "",
        "[supervisorctl]",
        f"serverurl=unix://{_escaped(str(socket))}",
    ]
    for process in processes:
        command = shlex.join(["/bin/sh", "-c", f"exec {process.command}"])
        if process_logs is None:
            output = ["stdout_logfile=/dev/stdout", "stdout_logfile_maxbytes=0"]
        else:
            log_file = process_logs / f"{process.name}.log"
            output = [f"stdout_logfile={_escaped(str(log_file))}", "stdout_logfile_maxbytes=0"]
        sections += [
            "",
            f"[program:{process.name}]",
            f"command={_escaped(command)}",
            f"directory={_escaped(str(workdir))}",
            "autostart=true",
            "autorestart=true",
            f"startsecs={STARTED_AFTER_SECONDS}",
            f"startretries={START_ATTEMPTS}",
            "stopsignal=TERM",
            f"stopwaitsecs={STOP_WAIT_SECONDS}",
            # A Celery worker's pool and uvicorn's reloader are children of the process: stop them too.
            "stopasgroup=true",
            "killasgroup=true",
            "redirect_stderr=true",
            *output,
        ]
    return "\n".join(sections) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Write the configuration and become supervisord."""
    parser = argparse.ArgumentParser(prog="python -m operations.stack", description=__doc__.splitlines()[0])
    parser.add_argument("--procfile", type=Path, default=Path("Procfile"))
    parser.add_argument("--var-dir", type=Path, default=Path(os.environ.get("APP_VAR_DIR", "var")))
    parser.add_argument("--process-logs", type=Path, help="write each process's output to DIR/<name>.log")
    args = parser.parse_args(argv)

    workdir = args.procfile.resolve().parent
    var_dir = args.var_dir.resolve()
    var_dir.mkdir(parents=True, exist_ok=True)
    process_logs = args.process_logs.resolve() if args.process_logs else None
    if process_logs is not None:
        process_logs.mkdir(parents=True, exist_ok=True)
    processes = read_procfile(args.procfile.read_text(encoding="utf-8"))
    config = var_dir / "supervisord.conf"
    config.write_text(
        supervisord_config(processes, workdir=workdir, var_dir=var_dir, process_logs=process_logs), encoding="utf-8"
    )
    supervisord = shutil.which("supervisord", path=str(Path(sys.executable).parent)) or shutil.which("supervisord")
    if supervisord is None:
        raise SystemExit("supervisord is not installed (it comes with the project's dependencies: make install)")
    os.execv(supervisord, [supervisord, "--nodaemon", "--configuration", str(config)])  # noqa: S606 (no shell wanted)


if __name__ == "__main__":
    main()
