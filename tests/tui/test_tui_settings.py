"""The TUI's settings file (issue 21, item 16): read bounded, written atomically, comments kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from planner.report.column_choice import ColumnChoice
from planner.tui.settings import (
    MAX_SETTINGS_BYTES,
    SettingsError,
    column_choice,
    read_settings,
    save_column_choice,
    settings_path,
)

COMMENTED = """\
# planner TUI settings, shared by our team
columns:
  compare:   # the buyer's view
    hidden: [Groups]
  sizing:
    order: [disks_needed, 3, {a: b}]   # odd entries, skipped
other: kept  # a key of a newer version
"""


def test_the_path_follows_xdg_config_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "planner" / "tui.yaml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")  # ignored, as the XDG spec says
    assert settings_path() == Path.home() / ".config" / "planner" / "tui.yaml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert settings_path() == Path.home() / ".config" / "planner" / "tui.yaml"


def test_a_choice_is_read_and_odd_entries_skipped(tmp_path: Path) -> None:
    path = tmp_path / "tui.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    document = read_settings(path)
    assert column_choice(document, "compare") == ColumnChoice((), frozenset({"Groups"}))
    assert column_choice(document, "sizing") == ColumnChoice(("disks_needed",), frozenset())
    assert column_choice(document, "absent") is None
    assert read_settings(tmp_path / "missing.yaml") == {}


def test_saving_keeps_comments_and_unknown_keys(tmp_path: Path) -> None:
    path = tmp_path / "tui.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    choice = ColumnChoice(("total_disks", "Groups", "usable_tb"), frozenset({"Groups"}))
    save_column_choice(path, "compare", choice)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# planner TUI settings, shared by our team\n")
    assert "compare:   # the buyer's view\n" in text
    assert "# odd entries, skipped" in text
    assert "other: kept  # a key of a newer version\n" in text
    assert column_choice(read_settings(path), "compare") == choice


def test_saving_makes_the_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "planner" / "tui.yaml"
    save_column_choice(path, "compare", ColumnChoice(("a", "b"), frozenset({"b"})))
    assert column_choice(read_settings(path), "compare") == ColumnChoice(
        ("a", "b"), frozenset({"b"})
    )


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"columns: [unclosed\n", "not valid YAML"),
        (b"- a list\n", "expected a mapping"),
        (b"\xff\xfe bad", "not UTF-8"),
        (b"#" * (MAX_SETTINGS_BYTES + 1), "larger than 64 KB"),
        (b"[" * 30000, "nested too deeply"),  # refused before ruamel spends 30 s on it
        (b"a:\n" + b"".join(b" " * i + b"- [\n" for i in range(40)), "nested too deeply"),
        (b"columns: 1\ncolumns: 2\n", "2: not valid YAML"),
    ],
    ids=["unclosed", "list", "latin-1", "large", "deep", "deep-lines", "duplicate-key"],
)
def test_a_bad_file_is_named_and_never_written_over(
    tmp_path: Path, content: bytes, said: str
) -> None:
    path = tmp_path / "tui.yaml"
    path.write_bytes(content)
    with pytest.raises(SettingsError, match=said) as raised:
        read_settings(path)
    assert str(path) in str(raised.value)
    with pytest.raises(SettingsError):
        save_column_choice(path, "compare", ColumnChoice(("a",)))
    assert path.read_bytes() == content


def test_a_fifo_or_folder_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(SettingsError, match="not a regular file"):
        read_settings(fifo)
    with pytest.raises(SettingsError, match="not a regular file"):
        read_settings(tmp_path)
