"""Throwaway PostgreSQL, Redis and scrapyd servers on free ports of 127.0.0.1, for the operations tests.

A missing server binary fails the test with what to install (``.ci/run`` installs Debian's ``postgresql`` and
``redis-server``); it never skips.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_SECS = 30.0


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(ready: Callable[[], bool], what: str, timeout: float = START_TIMEOUT_SECS) -> None:
    """Poll ``ready`` until it is true, or fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    pytest.fail(f"{what} did not start within {timeout:.0f} s")


def accepts_connections(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def stop_process_group(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGTERM the process group this fixture started, then SIGKILL it if it lingers."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout)


@dataclass
class PostgresServer:
    """A PostgreSQL cluster in a temporary directory, run by a non-root user, listening on 127.0.0.1."""

    bin_dir: Path
    root: Path
    port: int
    user: str | None
    """The system user the server runs as when the tests run as root (PostgreSQL refuses root)."""

    @classmethod
    def start(cls) -> PostgresServer:
        """initdb into a temporary directory and start the server with ``pg_ctl`` on a free port."""
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
        if not candidates:
            pytest.fail(
                "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb): "
                "install Debian's postgresql package (`apt-get install -y postgresql`; .ci/run does)"
            )
        user = None
        if os.geteuid() == 0:
            user = "postgres"
            try:
                pwd.getpwnam(user)
            except KeyError:
                pytest.fail("running as root needs the 'postgres' system user that Debian's postgresql creates")
        root = Path(tempfile.mkdtemp(prefix="journals-pg-"))
        server = cls(bin_dir=Path(candidates[-1]).parent, root=root, port=free_port(), user=user)
        if user:
            shutil.chown(root, user=user)
        server._run("initdb", "-D", str(root / "data"), "-U", "journals", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {server.port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        server._run("pg_ctl", "-D", str(root / "data"), "-l", str(root / "server.log"), "-o", options, "-w", "start")
        return server

    def _run(self, program: str, *args: str) -> None:
        """Run a PostgreSQL program as the server's user; fail the test with its output on error."""
        command = [str(self.bin_dir / program), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
        if done.returncode:
            pytest.fail(f"{program} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` on this server (psycopg 3)."""
        return f"postgresql+psycopg://journals@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=journals dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete its directory."""
        try:
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def _version_key(path: str) -> tuple[int, ...]:
    """Sort /usr/lib/postgresql/VERSION/bin/initdb paths by VERSION, numerically."""
    version = Path(path).parent.parent.name
    return tuple(int(part) for part in version.split(".") if part.isdigit())


@dataclass
class RedisServer:
    """A redis-server on a free port of 127.0.0.1, with no persistence."""

    process: subprocess.Popen
    port: int

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls) -> RedisServer:
        """Start ``redis-server`` in the foreground of its own process group."""
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail(
                "redis-server not found: install Debian's redis-server package (`apt-get install -y redis-server`; .ci/run does)"
            )
        port = free_port()
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        server = cls(process=process, port=port)
        wait_until(lambda: process.poll() is not None or accepts_connections(port), "redis-server")
        if process.poll() is not None:
            pytest.fail(f"redis-server exited with {process.returncode}")
        return server

    def stop(self) -> None:
        """Stop the server."""
        stop_process_group(self.process)


@dataclass
class ScrapydServer:
    """A scrapyd started with ``make scrapyd`` on a free port, with HTTP Basic auth and its own directory."""

    process: subprocess.Popen
    port: int
    root: Path
    username: str
    password: str

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/``."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def auth(self) -> tuple[str, str]:
        """The credentials, for ``requests``."""
        return (self.username, self.password)

    @classmethod
    def start(cls, env: dict[str, str]) -> ScrapydServer:
        """``make scrapyd`` in a temporary directory; ``env`` reaches scrapyd and so every job it runs."""
        root = Path(tempfile.mkdtemp(prefix="journals-scrapyd-"))
        # Poll for new jobs often: the tests wait for them.
        (root / "scrapyd.conf").write_text("[scrapyd]\npoll_interval = 0.5\njobs_to_keep = 50\n", encoding="utf-8")
        port = free_port()
        username, password = "operator", "s3cret-for-tests"
        full_env = {**os.environ, **env, "SCRAPYD_USERNAME": username, "SCRAPYD_PASSWORD": password}
        full_env.pop("SCRAPY_SETTINGS_MODULE", None)
        process = subprocess.Popen(
            ["make", "-s", "scrapyd", f"SCRAPYD_DIR={root}", f"SCRAPYD_HTTP_PORT={port}"],
            cwd=PROJECT_ROOT,
            env=full_env,
            stdout=(root / "scrapyd.out").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        server = cls(process=process, port=port, root=root, username=username, password=password)
        wait_until(lambda: process.poll() is not None or accepts_connections(port), "scrapyd", timeout=120)
        if process.poll() is not None:
            pytest.fail(f"make scrapyd exited with {process.returncode}: {server.output()}")
        return server

    def output(self) -> str:
        """What scrapyd printed so far."""
        return (self.root / "scrapyd.out").read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Stop scrapyd (and any job it still runs) and delete its directory."""
        try:
            stop_process_group(self.process)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
