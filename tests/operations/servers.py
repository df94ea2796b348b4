"""Throwaway PostgreSQL, Redis and scrapyd servers on free ports of 127.0.0.1, for the operations tests.

A missing server binary fails the test with what to install (``make test`` and ``.ci/run`` install Debian's
``postgresql`` and ``redis-server`` first); it never skips.
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
                "install Debian's postgresql package (`apt-get install -y postgresql`; make test does, through "
                ".ci/system-packages)"
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


REDIS_CONFIG = PROJECT_ROOT / "settings" / "redis.conf"
"""The project's Redis configuration (AOF, ``appendfsync everysec``, no eviction)."""


@dataclass
class RedisServer:
    """A redis-server with the project's configuration (``settings/redis.conf``) on a free port of 127.0.0.1, its
    append-only file in a temporary directory; it can be restarted on the same data."""

    process: subprocess.Popen
    port: int
    data_dir: Path

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls) -> RedisServer:
        """Start ``redis-server settings/redis.conf`` in the foreground of its own process group."""
        data_dir = Path(tempfile.mkdtemp(prefix="journals-redis-"))
        port = free_port()
        return cls(process=_start_redis(port, data_dir), port=port, data_dir=data_dir)

    def restart(self, down_secs: float = 0.0) -> None:
        """``redis-cli shutdown`` (the AOF flushed), ``down_secs`` away, then start again on the same port and
        data directory."""
        done = subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown"], capture_output=True, text=True, check=False, timeout=30
        )
        if done.returncode:
            pytest.fail(f"redis-cli shutdown failed ({done.returncode}): {done.stdout}{done.stderr}")
        self.process.wait(30)
        time.sleep(down_secs)
        self.process = _start_redis(self.port, self.data_dir)

    def stop(self) -> None:
        """Stop the server and delete its data."""
        try:
            stop_process_group(self.process)
        finally:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def _start_redis(port: int, data_dir: Path) -> subprocess.Popen:
    """``redis-server settings/redis.conf --port PORT --dir DATA_DIR``, once it accepts connections."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server not found: install Debian's redis-server package (`make test` and .ci/run do, through "
            ".ci/system-packages)"
        )
    process = subprocess.Popen(
        [binary, str(REDIS_CONFIG), "--port", str(port), "--dir", str(data_dir)],
        stdout=(data_dir / "redis.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_until(lambda: process.poll() is not None or accepts_connections(port), "redis-server")
    if process.poll() is not None:
        log = (data_dir / "redis.log").read_text(errors="replace")
        pytest.fail(f"redis-server exited with {process.returncode}: {log[-2000:]}")
    return process


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
