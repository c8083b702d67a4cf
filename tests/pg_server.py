"""A PostgreSQL server of a test's own (initdb into a temporary folder, its own port), for faults
that would disturb every other test on the machine's shared server: stopping it, freezing it; and
hot standbys of one (the read replicas' tests)."""
import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time

import psycopg

from tests.gunicorn_util import free_port


def _bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise AssertionError(f"PostgreSQL's {name} is not installed (/usr/lib/postgresql/*/bin)")
    return found[-1]


def _as_postgres(argv):
    # initdb and postgres refuse to run as root; CI and the developers' machines run as root.
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Server:
    def __init__(self, directory, data, options):
        self.directory, self.data, self.options = directory, data, options
        self.port, self.process = free_port(), None
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self):
        """Starts the server (again, on its port), and waits until it accepts connections."""
        command = [_bin("postgres"), "-D", self.data, "-p", str(self.port), "-k", self.data,
                   "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off"]
        for option in self.options:
            command += ["-c", option]
        self.process = subprocess.Popen(_as_postgres(command), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return self
            except psycopg.OperationalError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise
                time.sleep(0.1)

    def database(self, name):
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def _processes(self):
        """runuser, the postmaster and its children (each backend is a process group of its own)."""
        pids = [self.process.pid]
        for _ in range(2):
            found = subprocess.run(["pgrep", "-P", ",".join(map(str, pids))], capture_output=True, text=True)
            pids = sorted(set(pids) | {int(pid) for pid in found.stdout.split()})
        return pids

    def freeze(self):
        """SIGSTOP to the server and every backend: a hung host, a storage stall."""
        os.killpg(self.process.pid, signal.SIGSTOP)  # the postmaster first: it forks no new backend
        for pid in self._processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self):
        for pid in reversed(self._processes()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self):
        """A fast shutdown (SIGINT): its sessions are ended, and it no longer accepts connections."""
        if self.process is None or self.process.poll() is not None:
            return
        self.thaw()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)


def _new_folder():
    directory = tempfile.mkdtemp(prefix="pgown_")
    os.chmod(directory, 0o755)  # the postgres user must reach its data folder
    data = os.path.join(directory, "data")
    os.mkdir(data, 0o700)
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    return directory, data


@contextlib.contextmanager
def _running(directory, prepare, options):
    """A server started on the data folder `prepare(data)` makes; stopped and removed at the end."""
    server = None
    try:
        server = Server(directory, prepare(), options)
        yield server.start()
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def own_postgres(options=()):
    """A new server (initdb; its pg_hba trusts local connections, replication ones too); `options`
    are more `-c name=value` settings."""
    directory, data = _new_folder()

    def initdb():
        subprocess.run(_as_postgres([_bin("initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-N",
                                     "-E", "UTF8", "--locale=C"]), check=True, capture_output=True, timeout=120)
        return data

    with _running(directory, initdb, options) as server:
        yield server


@contextlib.contextmanager
def own_standby(primary, options=()):
    """A hot standby of `primary` (`pg_basebackup -R`: a copy of its data folder that streams its
    changes from it), on a port of its own."""
    directory, data = _new_folder()

    def base_backup():
        subprocess.run(_as_postgres([_bin("pg_basebackup"), "-R", "-D", data, "-h", "127.0.0.1",
                                     "-p", str(primary.port), "-U", "postgres", "-c", "fast"]),
                       check=True, capture_output=True, timeout=120)
        return data

    with _running(directory, base_backup, options) as server:
        yield server
