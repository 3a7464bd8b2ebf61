"""Atomic file writes, shared by the CLI's ``--output``, the TUI's save and export, and the cache.

It sits in the scenario package, the layer where planner meets the file system (it reads
scenario files, bounded, in :mod:`planner.scenario.document`), so that every layer above it
writes through it: the derivation cache (:mod:`planner.analysis.derivation_cache`), the
CLI's outputs and the TUI's saved scenarios and exports. The core does no I/O.

What a write does depends on what is at the path now:

* nothing, or a regular file: the data goes to a temporary file beside it, is synced, and
  replaces it with a rename, so a reader (or a crash) never sees half a file;
* a symbolic link: the same, on the file the link points to; the link stays a link;
* a device, FIFO or socket (``/dev/null``, ``/dev/stdout``, a named pipe): written to
  directly, since there is no file to replace;
* a read-only file (no write permission bit, or not writable by this user): refused with
  :class:`ReadOnlyError`, even for root, rather than silently replaced.

A process killed mid-write leaves its temporary file behind (``.NAME.PID.XXXX.tmp``): the
next write to the same file removes those whose process is gone.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO


class ReadOnlyError(PermissionError):
    """The file exists and is read-only; it is left as it is."""


Payload = bytes | Iterable[str | bytes]
"""Bytes, or chunks (text as UTF-8, or bytes) written one by one as they come."""


def write_atomic(path: Path, data: str | bytes | Iterable[str | bytes]) -> None:
    """Write ``data`` (text as UTF-8, or text chunks) to ``path`` without ever leaving half a file.

    Chunks are written as they come (a 200,000-row sweep never becomes one string); the
    rename happens after the last one.

    The new file keeps the permission bits of the file it replaces, or gets the mode a
    plain ``open()`` would give (``mkstemp`` alone would leave 0600). Errors name ``path``
    (the file asked for), never the temporary file.

    Raises:
        ReadOnlyError: ``path`` is a read-only file.
        OSError: the folder is missing or not writable, the disk is full, ``path`` is a
            folder.
    """
    payload: Payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode: int | None = os.stat(path).st_mode  # follows links, /dev/stdout's included
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise _naming(err, path) from None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        _write_in_place(path, payload)
        return
    target = Path(os.path.realpath(path))  # a link's file, which may not exist yet
    if mode is not None and stat.S_ISREG(mode) and not _writable(target, mode):
        raise ReadOnlyError(errno.EACCES, "the file is read-only", str(path))
    try:
        _replace(target, payload, mode)
    except OSError as err:
        raise _naming(err, path) from None


def _writable(target: Path, mode: int) -> bool:
    # os.access is always true for root; the mode bits say what the owner meant.
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and os.access(target, os.W_OK)


def _write_payload(handle: BinaryIO, payload: Payload) -> None:
    if isinstance(payload, bytes):
        handle.write(payload)
        return
    for chunk in payload:
        handle.write(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8"))


def _write_in_place(path: Path, payload: Payload) -> None:
    try:
        with open(path, "wb") as handle:
            _write_payload(handle, payload)
    except OSError as err:
        raise _naming(err, path) from None


def _replace(target: Path, payload: Payload, mode: int | None) -> None:
    tmp = _temporary(target, payload, mode)
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _temporary(target: Path, payload: Payload, mode: int | None) -> Path:
    """``payload`` in a synced temporary file beside ``target``, with ``target``'s mode."""
    remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_payload(handle, payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else _default_mode())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def check_replaceable(paths: Iterable[Path]) -> None:
    """Raise the OSError that writing any of ``paths`` with :func:`write_atomic_set` would meet.

    Each must be a regular file (or nothing yet) that is not read-only, in a folder that
    exists and that this user may write.

    Raises:
        ReadOnlyError: a file is read-only.
        OSError: a folder is missing or not writable, or a path is not a regular file.
    """
    for path in paths:
        _plan(path)


def _plan(path: Path) -> tuple[Path, int | None]:
    """The file a set write replaces for ``path`` (a link's file) and its mode, or raise."""
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise _naming(err, path) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    target = Path(os.path.realpath(path))
    if mode is not None and not _writable(target, mode):
        raise ReadOnlyError(errno.EACCES, "the file is read-only", str(path))
    if not target.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, "the folder does not exist", str(path))
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "the folder is not writable", str(path))
    return target, mode


def write_atomic_set(files: dict[Path, str | bytes]) -> None:
    """Write several files as one step: every one of them is replaced, or none is.

    Every path is checked first (:func:`check_replaceable`); then each file is written to a
    temporary file beside it, and only when all are written are they renamed into place
    (renames within a folder do not fail for want of space). A failure or a signal before
    the renames leaves every old file as it was and no temporary file behind.

    Raises:
        ReadOnlyError: a file is read-only (nothing written).
        OSError: a check or a write failed (nothing replaced).
    """
    plans = [(path, *_plan(path)) for path in files]
    written: list[tuple[Path, Path]] = []
    try:
        for path, target, mode in plans:
            data = files[path]
            payload = data.encode("utf-8") if isinstance(data, str) else data
            try:
                written.append((_temporary(target, payload, mode), target))
            except OSError as err:
                raise _naming(err, path) from None
        while written:
            tmp, target = written[0]
            os.replace(tmp, target)
            written.pop(0)
    except BaseException:
        for tmp, _ in written:
            tmp.unlink(missing_ok=True)
        raise


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove temporary files of writes to ``target`` whose process has died; return them.

    A temporary file is ``.NAME.PID.XXXX.tmp`` beside ``target``; one whose PID is still
    running (perhaps another planner writing the same file) is left alone.
    """
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.(\d+)\.[A-Za-z0-9_]+\.tmp$")
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        match = pattern.match(entry.name)
        if match is None or _running(int(match[1])):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True  # a write of this process (another thread's) is under way
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except OverflowError:
        return False
    return True


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _naming(err: OSError, path: Path) -> OSError:
    """``err`` about ``path``, whatever file the system call named (a temporary one)."""
    if err.errno is None:
        return err
    return type(err)(err.errno, err.strerror, str(path))


def read_at_most(path: str | Path, limit_bytes: int) -> bytes:
    """The first ``limit_bytes + 1`` bytes of ``path`` at most: more means the file is too big.

    One byte past the limit is read, never more, whatever ``path`` is (a file, a pipe, a
    device with no end such as ``/dev/zero``), so the caller can refuse the file without
    holding it. Used by the readers that have a limit of their own (the fleet log of
    ``planner fit``); scenario files use :func:`planner.scenario.document.read_bounded`.

    Raises:
        OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as handle:
        return handle.read(limit_bytes + 1)
