"""The scenario file behind the TUI: the text it was loaded from, and what a save may do.

A save edits the document the app loaded (at start, at Ctrl+R, or written by the last save),
never the file as it is on disk now: the on-screen scenario is valid even when the file has
since been edited into something invalid. A file changed on disk since then is overwritten
only when the user asks twice for the same state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from planner.scenario import (
    DEFAULT_SOURCE,
    Plan,
    Scenario,
    default_scenario_text,
    load_plan_text_document,
    load_scenario_text_document,
)
from planner.scenario.document import MAX_FILE_BYTES, decode_text, read_bounded
from planner.scenario.edits import FieldPath
from planner.scenario.files import write_atomic

DEFAULT_SAVE_NAME = "planner-scenario"
"""Stem of the file a scenario opened from the bundled default is saved to (in the cwd)."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def free_path(directory: Path, stem: str, suffix: str) -> Path:
    """``directory/stem.suffix``, or ``stem-2.suffix``... when that exists already."""
    candidate = directory / f"{stem}{suffix}"
    number = 2
    while candidate.exists():
        candidate = directory / f"{stem}-{number}{suffix}"
        number += 1
    return candidate


@dataclass(frozen=True)
class ScenarioSource:
    """A scenario's YAML text as the app read or wrote it.

    Attributes:
        path: the file, or None for the bundled default scenario.
        text: the YAML text (valid when read: the app opened or reloaded it).
        digest: SHA-256 of the file's bytes then (None for the bundled default).
    """

    path: Path | None
    text: str
    digest: str | None

    @classmethod
    def read(cls, path: Path | None) -> ScenarioSource:
        """The text of ``path`` (None: the bundled default) and its digest.

        Raises:
            planner.scenario.ScenarioError: the file cannot be read or is not UTF-8.
        """
        if path is None:
            return cls(None, default_scenario_text(), None)
        data = read_bounded(path)
        return cls(path, decode_text(data, str(path)), _digest(data))

    @property
    def name(self) -> str:
        """How the title bar and errors name the source (the file name, or the default)."""
        return DEFAULT_SOURCE if self.path is None else str(self.path)

    def document(self, overrides: Sequence[str] = ()) -> tuple[Scenario, CommentedMap]:
        """The scenario the text gives and its round-trip document.

        Raises:
            planner.scenario.ScenarioError: the text does not validate (or an override).
        """
        return load_scenario_text_document(self.text, self.name, overrides)

    def plan(self, overrides: Sequence[str] = ()) -> tuple[Plan, CommentedMap]:
        """The plan the text gives (a single-aggregate file: a plan of one tier), and its document.

        Raises:
            planner.scenario.ScenarioError: the text does not validate (or an override).
        """
        return load_plan_text_document(self.text, self.name, overrides)

    def disk_digest(self) -> str | None:
        """The digest of the file on disk now (None: no file, or the bundled default)."""
        if self.path is None:
            return None
        try:
            with self.path.open("rb") as handle:
                # bounded like every read; a file past the limit differs from any saved one
                return _digest(handle.read(MAX_FILE_BYTES + 1))
        except OSError:
            return None

    def write(self, target: Path, text: str) -> ScenarioSource:
        """Write ``text`` to ``target`` atomically; the source that is now on disk.

        Raises:
            OSError: the file cannot be written.
        """
        data = text.encode("utf-8")
        write_atomic(target, data)
        return ScenarioSource(target, text, _digest(data))


class ChangedOnDiskError(Exception):
    """The file changed on disk since it was loaded or saved; ``str()`` says what to do."""


@dataclass
class ScenarioFile:
    """The file a session edits: its source, the values typed, and the overwrite guard.

    Attributes:
        source: the text last loaded or saved (a save edits this document).
        typed: by tier (0 for a single-aggregate file), the YAML value last typed per field
            (``"4%"``), written back by a save.
    """

    source: ScenarioSource
    typed: dict[int, dict[FieldPath, Any]]
    _overwrite: tuple[Scenario | Plan, str | None] | None = None

    def check_disk(self, scenario: Scenario | Plan) -> None:
        """Refuse the first save of ``scenario`` over a file changed on disk since loaded.

        A second save of the same scenario over the same file on disk goes ahead.

        Raises:
            ChangedOnDiskError: the file changed on disk (first attempt).
        """
        path = self.source.path
        if path is None:
            return
        on_disk = self.source.disk_digest()
        if on_disk == self.source.digest:
            return
        armed = self._overwrite
        if armed is not None and armed[0] is scenario and armed[1] == on_disk:
            return
        self._overwrite = (scenario, on_disk)
        what = "removed" if on_disk is None else "changed on disk"
        raise ChangedOnDiskError(
            f"{path.name} {what} since loaded: Ctrl+S again to overwrite, Ctrl+R to reload"
        )

    def saved(self, source: ScenarioSource) -> None:
        """Remember a save: later saves edit what was written and compare with it."""
        self.source = source
        self.typed.clear()
        self._overwrite = None

    def target(self) -> Path:
        """The file a save writes: the scenario's own, or a new one in the cwd for the default."""
        if self.source.path is not None:
            return self.source.path
        return free_path(Path.cwd(), DEFAULT_SAVE_NAME, ".yaml")
