"""Atomic file writes, shared by the CLI's ``--output`` and the TUI's save and export."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` via a temporary file and a rename.

    A reader never sees a half-written file and a failure leaves the old file as it was.
    The new file keeps the permission bits of the file it replaces, or gets the mode a
    plain ``open()`` would give (``mkstemp`` alone would leave 0600).

    Raises:
        OSError: when the folder is missing or not writable, or the disk is full.
    """
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _target_mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _target_mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
