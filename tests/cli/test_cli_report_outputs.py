"""Where ``planner report`` writes, and that it writes its files as a set (issue 21, 4-6).

``-o /dev/stdout`` once wrote ``/dev/stdout-front.svg`` into /dev; with the Markdown file
read-only the report exited 2 having already replaced both pictures; ``-o ''`` computed for
seconds and then failed with "unexpected ValueError".
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

FAST = ["--time-budget", "0.1"]


def test_report_to_stdout_writes_no_pictures_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["report", "-o", "-", *FAST])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Design review: ")
    assert ".svg" not in result.stdout
    assert "no pictures" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_report_to_a_fifo_writes_no_pictures_beside_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = CliRunner().invoke(app, ["report", "-o", str(fifo), *FAST])
    reader.join(timeout=60)
    assert result.exit_code == 0, result.output
    assert received[0].startswith(b"# Design review: ")
    assert b".svg" not in received[0]
    assert "no pictures" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_read_only_document_leaves_the_pictures_as_they_were(tmp_path: Path) -> None:
    document = tmp_path / "r.md"
    document.write_text("old review\n", encoding="utf-8")
    document.chmod(0o444)
    pictures = [tmp_path / "r-front.svg", tmp_path / "r-sweep.svg"]
    for picture in pictures:
        picture.write_text("<svg>old</svg>", encoding="utf-8")
    result = CliRunner().invoke(app, ["report", "-o", str(document), *FAST])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "r.md" in lines[0]
    assert "read-only" in lines[0]
    assert document.read_text(encoding="utf-8") == "old review\n"
    for picture in pictures:
        assert picture.read_text(encoding="utf-8") == "<svg>old</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r-front.svg", "r-sweep.svg", "r.md"]


def test_a_folder_in_the_place_of_a_picture_is_refused_before_any_write(tmp_path: Path) -> None:
    document = tmp_path / "r.md"
    document.write_text("old review\n", encoding="utf-8")
    (tmp_path / "r-sweep.svg").mkdir()
    result = CliRunner().invoke(app, ["report", "-o", str(document), *FAST])
    assert result.exit_code == 2, result.output
    assert "r-sweep.svg" in result.stderr
    assert document.read_text(encoding="utf-8") == "old review\n"
    assert not (tmp_path / "r-front.svg").exists()


def test_an_empty_report_name_is_refused_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import planner.analysis.design as design

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the report was computed")

    monkeypatch.setattr(design, "design_report", never)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["report", "-o", ""])
    assert result.exit_code == 2, result.output
    assert "the file name is empty" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_report_to_dev_stdout_redirected_to_a_file_puts_nothing_in_dev(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """``planner report -o /dev/stdout > review.md``: /dev/stdout is then a regular file
    (stat follows the link), and pictures went into /dev.

    In-process: under ``capfd`` this process's descriptor 1 is a regular (temporary) file,
    as the shell's redirection makes it, so /dev/stdout names a regular file here too.
    """
    pictures = [Path("/dev/stdout-front.svg"), Path("/dev/stdout-sweep.svg")]
    assert not any(p.exists() for p in pictures)
    assert stat.S_ISREG(os.fstat(1).st_mode)
    monkeypatch.chdir(tmp_path)
    try:
        result = CliRunner().invoke(app, ["report", "-o", "/dev/stdout", *FAST])
        assert not any(p.exists() for p in pictures)
    finally:
        for picture in pictures:
            picture.unlink(missing_ok=True)
    assert result.exit_code == 0, result.stderr
    assert capfd.readouterr().out.startswith("# Design review: ")
    assert "no pictures" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["review.xlsx", "review.json", "review.pdf"])
def test_a_name_that_is_not_markdown_is_refused_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The second newcomer: ``report -o x.xlsx`` exited 0 and wrote Markdown into x.xlsx,
    where evaluate, sweep and recommend refuse a suffix they have no format for."""
    import planner.analysis.design as design

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the report was computed")

    monkeypatch.setattr(design, "design_report", never)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["report", "-o", name])
    assert result.exit_code == 2, result.output
    assert f"-o {name}: the design review is Markdown; name the file .md" in result.stderr
    assert list(tmp_path.iterdir()) == []
