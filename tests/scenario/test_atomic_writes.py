"""planner.scenario.files.write_atomic against what may be at the path (issue 13, item 8)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from planner.scenario.files import ReadOnlyError, remove_stale_temporaries, write_atomic


def litter(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "new"


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "later.md")
    write_atomic(link, "made")
    assert link.is_symlink()
    assert (tmp_path / "later.md").read_text(encoding="utf-8") == "made"


def test_a_fifo_is_written_to_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert litter(tmp_path) == []


def test_a_read_only_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text("keep me", encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(ReadOnlyError) as info:
        write_atomic(path, "replaced")
    assert info.value.filename == str(path)
    assert path.read_text(encoding="utf-8") == "keep me"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert litter(tmp_path) == []


def test_an_error_names_the_file_asked_for_not_the_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "out.md"
    with pytest.raises(FileNotFoundError) as info:
        write_atomic(path, "x")
    assert info.value.filename == str(path)


def test_the_mode_of_the_replaced_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "out.md"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    write_atomic(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# A writer that stops between writing its temporary file and renaming it, so the parent can
# kill it with SIGKILL exactly there: the state a kill -9 mid-write leaves.
_STALLED_WRITER = """
import os, sys, time
from pathlib import Path
import planner.scenario.files as files

def stall(fd):
    print("written", flush=True)
    time.sleep(60)

files.os.fsync = stall
files.write_atomic(Path(sys.argv[1]), b"x" * 2_000_000)
"""


def test_a_writer_killed_mid_write_leaves_litter_the_next_write_removes(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("before", encoding="utf-8")
    writer = subprocess.Popen(
        [sys.executable, "-c", _STALLED_WRITER, str(target)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "written\n"
        (stale,) = litter(tmp_path)
        assert stale.startswith(f".report.md.{writer.pid}.")
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    assert target.read_text(encoding="utf-8") == "before"
    write_atomic(target, "after")
    assert target.read_text(encoding="utf-8") == "after"
    assert litter(tmp_path) == []


def test_the_temporary_file_of_a_running_writer_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    running = tmp_path / f".report.md.{os.getppid()}.abc123.tmp"
    running.write_text("someone is writing", encoding="utf-8")
    other = tmp_path / ".other.md.999999999.abc123.tmp"
    other.write_text("not ours", encoding="utf-8")
    assert remove_stale_temporaries(target) == []
    assert running.exists()
    assert other.exists()
