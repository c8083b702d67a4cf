"""The category predictor's learned models, kept in files for the machine's other processes.

Each gunicorn worker keeps its models in memory (predictor.py), and gunicorn starts a new worker
after each GUNICORN_MAX_REQUESTS, which learned each site's model again from all its listings while
its first caller waited. A model depends only on its site and the catalog version, a random id
that each import of what the predictor learns from makes anew: the first process to learn a model
writes it here, and the next reads it instead of learning.

marshal, not pickle: reading a file never runs code. The folder is in the temporary directory
(private to the service under its systemd unit, PrivateTmp) and must be this user's alone; one
that is not, a file that does not load, a full disk: the model is learned, as without the files.
Writing a site's model removes that site's older ones.
"""
import contextlib
import logging
import marshal
import os
import re
import stat
import sys
import tempfile

from app.log_throttle import Throttle

log = logging.getLogger(__name__)

# In the file's name: marshal's format is the Python version's, the data's layout is SiteModel.state's.
FORMAT = f"py{sys.version_info[0]}{sys.version_info[1]}-1"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_warnings = Throttle()


def folder():
    return os.path.join(tempfile.gettempdir(), f"listings-predictor-{os.getuid()}")


def load(site_id, version):
    """The state written for (site, version), or None."""
    path = _path(site_id, version, create=False)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return marshal.load(f)
    except FileNotFoundError:
        return None
    except (OSError, EOFError, ValueError, TypeError) as exc:  # unreadable, or not what we wrote
        _warn(f"model file {path} not read: {exc}")
        return None


def save(site_id, version, state):
    path = _path(site_id, version, create=True)
    if path is None:
        return
    directory, name = os.path.split(path)
    temporary = None
    try:
        # A name of its own per call (mkstemp), not per process: two threads of one process may save at once.
        descriptor, temporary = tempfile.mkstemp(prefix=f"{name}.", suffix=".tmp", dir=directory)
        with os.fdopen(descriptor, "wb") as f:
            marshal.dump(state, f)
        os.replace(temporary, path)  # whole or not at all, for a reader in another process
        for other in os.listdir(directory):
            if other.startswith(f"{site_id}.") and other != name and not other.endswith(".tmp"):
                with contextlib.suppress(FileNotFoundError):  # another process removed it first
                    os.unlink(os.path.join(directory, other))
    except OSError as exc:
        _warn(f"model file {path} not written: {exc}")
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _path(site_id, version, create):
    if not (isinstance(site_id, str) and isinstance(version, str) and _NAME.fullmatch(site_id)
            and _NAME.fullmatch(version)):
        return None  # before the first import there is no version to name the model by
    directory = folder()
    try:
        if create:
            os.makedirs(directory, mode=0o700, exist_ok=True)
        info = os.lstat(directory)
    except OSError as exc:
        if create:
            _warn(f"folder {directory} not usable: {exc}")
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        _warn(f"folder {directory} not used: it must be a folder of this user's that no one else may open")
        return None
    return os.path.join(directory, f"{site_id}.{version}.{FORMAT}.marshal")


def _warn(message):
    """The predictor goes on learning its models, which is all the loss: a warning once a minute."""
    if _warnings.ready():
        log.warning("category predictor: %s; each process learns its models (logged at most once a minute)",
                    message)
