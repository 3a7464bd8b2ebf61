"""``write_atomic_set``: several files replaced as one step, or none (issue 21, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

import planner.scenario.files as files


def test_every_file_is_written(tmp_path: Path) -> None:
    one, two = tmp_path / "a.md", tmp_path / "a.svg"
    files.write_atomic_set({one: "text", two: b"<svg/>"})
    assert one.read_text(encoding="utf-8") == "text"
    assert two.read_bytes() == b"<svg/>"


def test_a_failure_while_writing_replaces_none_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = tmp_path / "a.md", tmp_path / "a.svg"
    one.write_text("old", encoding="utf-8")
    two.write_text("old", encoding="utf-8")
    calls = []
    real = files._write_payload

    def full_disk_on_second(handle: object, payload: files.Payload) -> None:
        calls.append(payload)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(handle, payload)  # type: ignore[arg-type]

    monkeypatch.setattr(files, "_write_payload", full_disk_on_second)
    with pytest.raises(OSError, match="No space") as caught:
        files.write_atomic_set({one: "new", two: "new"})
    assert caught.value.filename == str(two)
    assert one.read_text(encoding="utf-8") == "old"
    assert two.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "a.svg"]


def test_a_read_only_file_is_found_before_anything_is_written(tmp_path: Path) -> None:
    one, two = tmp_path / "a.md", tmp_path / "a.svg"
    two.write_text("old", encoding="utf-8")
    two.chmod(0o444)
    with pytest.raises(files.ReadOnlyError):
        files.write_atomic_set({one: "new", two: "new"})
    assert not one.exists()
    assert two.read_text(encoding="utf-8") == "old"


def test_a_device_is_not_part_of_a_set(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="not a regular file"):
        files.write_atomic_set({tmp_path / "a.md": "new", Path("/dev/null"): "new"})
    assert not (tmp_path / "a.md").exists()
