"""Every YAML mistake an admin makes in a scenario reads in plain words, saying what is right.

Each file below holds one mistake and goes through ``planner validate`` in-process (the load
every command and the TUI share): exit 2, one line ``planner: error: FILE:LINE:COLUMN: ...``
with no traceback, at the spot to fix, with the words that matter (what is wrong and the
text that would be right) and none of ruamel's parser words ("while parsing a flow node",
"found unexpected end of stream", "expected <block end>", "simple key").
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from scenario_texts import SMALL
from typer.testing import CliRunner

from planner.cli import app

GOOD = SMALL

JARGON = (
    "token",
    "scalar",
    "stream",
    "node",
    "block",
    "flow",
    "simple key",
    "while parsing",
    "while scanning",
    "<",
    "start of a document",
    "the end of a",
)
"""ruamel's parser words, none of which an admin wrote or needs to know."""


def edit(old: str, new: str) -> str:
    """The good scenario with its one ``old`` text replaced by ``new``."""
    assert GOOD.count(old) == 1, old
    return GOOD.replace(old, new)


class Mistake(NamedTuple):
    """A file with one mistake, where the message must point, and what it must say."""

    text: str | bytes
    line: int | None
    column: int | None
    says: tuple[str, ...]


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files named ``s.yaml``: a long temporary path would be shortened beside the message."""
    monkeypatch.chdir(tmp_path)


def said(text: str | bytes) -> tuple[str, str]:
    """The one line ``planner validate`` prints for the file, and the file's name."""
    path = "s.yaml"
    Path(path).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    result = CliRunner().invoke(app, ["validate", path])
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("planner: error: ")
    assert len(lines[0]) < 300
    return lines[0].removeprefix("planner: error: "), path


def check(mistake: Mistake) -> str:
    """The line, checked for its spot, its words and the absence of the parser's words."""
    line, path = said(mistake.text)
    spot = ":".join(str(n) for n in (mistake.line, mistake.column) if n is not None)
    assert line.startswith(f"{path}:{spot}: " if spot else f"{path}: "), line
    message = line.removeprefix(f"{path}:{spot}: " if spot else f"{path}: ")
    for words in mistake.says:
        assert words in message, (words, message)
    lowered = message.lower()
    assert not [word for word in JARGON if word in lowered], message
    return message


BRACKETS_AND_QUOTES = {
    # the brief's case: an unclosed [ seen by the parser only at the next item
    "[ then an item": Mistake(
        "name: t\nlayouts:\n  - raid: [raid10,\n  - parity: 2\n",
        3,
        11,
        ("the [ opened at line 3, column 11 is not closed", "- raid: [raid10]"),
    ),
    "[ then the next key": Mistake(
        edit("  arr: 1.9%", "  arr: [1.9%"), 3, 8, ("[ opened at", "not closed", "arr: [1.9%]")
    ),
    "[ at the end of the file": Mistake(
        GOOD + "tags: [a, b\n", 13, 7, ("not closed", "tags: [a, b]")
    ),
    "[ of several lines": Mistake(
        GOOD + "tags: [\n  a,\n  b\n", 13, 7, ("not closed", "end the list with ]")
    ),
    "{ then the next key": Mistake(
        edit("restore:\n  rebuild_hours: 12\n", "restore: {rebuild_hours: 12\n"),
        5,
        10,
        ("the { opened at line 5, column 10 is not closed", "restore: {rebuild_hours: 12}"),
    ),
    "{ at the end of the file": Mistake(
        GOOD + "extra: {a: 1\n", 13, 8, ("not closed", "extra: {a: 1}")
    ),
    "[ closed with }": Mistake(
        edit("name: test", "x: {a: [1, 2}"), 1, 8, ("closed with }", "x: {a: [1, 2]}")
    ),
    "a comma left out in { }": Mistake(
        edit(
            "layouts:\n  - raid: raid5\n    group_size: 8\n",
            "layouts: [\n  {raid: raid5 group_size: 8}\n]\n",
        ),
        11,
        16,
        ("',' is missing before 'group_size'", "{raid: raid5, group_size: 8}"),
    ),
    "a stray }": Mistake(
        edit("restore:\n  rebuild_hours: 12\n  scrub_hours: 168", "restore: {rebuild_hours: 12}}"),
        5,
        29,
        ("closes no {", "remove it"),
    ),
    "text after a ]": Mistake(edit("name: test", "name: [a] b"), 1, 11, ("after the closing ]",)),
    # the brief's case: an unclosed " seen at the end of the file
    "unclosed double quote": Mistake(
        'name: "t\nmission_years: 5\n',
        1,
        7,
        ('the " opened at line 1, column 7 is not closed', 'name: "t"'),
    ),
    "unclosed single quote": Mistake(
        edit("  arr: 1.9%", "  arr: '1.9%"), 3, 8, ("' opened at", "not closed", "arr: '1.9%'")
    ),
    "unclosed quote in { }": Mistake(
        edit("restore:\n  rebuild_hours: 12\n", "restore: {rebuild_hours: '12}\n"),
        5,
        26,
        ("' opened at", "not closed", "restore: {rebuild_hours: '12'}"),
    ),
    "a quote closed by the next one": Mistake(
        edit("  arr: 1.9%", '  arr: "1.9%\n  x: "y"'),
        3,
        8,
        ("closed only at line 4", 'close it on line 3: arr: "1.9%"'),
    ),
    "an apostrophe in single quotes": Mistake(
        edit("name: test", "name: 'admin's plan'"),
        1,
        13,
        ("''", 'name: "admin\'s plan"'),
    ),
    "text after the closing quote": Mistake(
        edit("name: test", 'name: "test" x'), 1, 14, ('after the closing "', 'name: "test x"')
    ),
    "an unknown escape": Mistake(
        edit("name: test", 'name: "C:\\data"'), 1, 10, ("\\d is not an escape", "single quotes")
    ),
}


CHARACTERS = {
    "a tab as indentation": Mistake(edit("  arr:", "\tarr:"), 3, 1, ("tab", "indent with spaces")),
    "a tab after a colon": Mistake(
        edit("  arr: 1.9%", "  arr:\t1.9%"), 3, 7, ("tab", "write a space instead")
    ),
    "a value starting with %": Mistake(
        edit("  arr: 1.9%", "  arr: %2"), 3, 8, ("cannot start with %", "arr: '%2'")
    ),
    "a value starting with @": Mistake(
        edit("name: test", "name: @home"), 1, 7, ("cannot start with @", "name: '@home'")
    ),
    "a value starting with a backtick": Mistake(
        edit("name: test", "name: `x`"), 1, 7, ("cannot start with `", "name: '`x`'")
    ),
    "a value starting with a comma": Mistake(
        edit("  rebuild_hours: 12", "  rebuild_hours: ,12"),
        6,
        18,
        ("cannot start with ','", "rebuild_hours: ',12'"),
    ),
    "an alias with no anchor": Mistake(
        edit("  arr: 1.9%", "  arr: *rate"), 3, 8, ("&rate", "arr: '*rate'")
    ),
    "an & with no name": Mistake(edit("name: test", "name: &"), 1, 7, ("&name", "name: '&'")),
    "text after >": Mistake(edit("name: test", "name: > x"), 1, 7, ("lines below", "name: '> x'")),
    "a control character": Mistake(
        edit("name: test", "name: te\x00st"), 1, 9, ("U+0000", "remove it")
    ),
    "%YAML 1.3": Mistake("%YAML 1.3\n---\n" + GOOD, 1, 1, ("reads YAML 1.2", "%YAML 1.2")),
    "%YAML 2.0": Mistake("%YAML 2.0\n---\n" + GOOD, 1, 1, ("reads YAML 1.2", "%YAML 1.2")),
}


KEYS_AND_COLONS = {
    # the brief's case: read as text where drive's keys belong
    "no space after a colon, alone": Mistake(
        edit("  arr: 1.9%\n  latent_defects_per_hour: 1.08e-4\n", "  arr:2%\n"),
        3,
        3,
        ("drive: expected a mapping", "got 'arr:2%'", "put a space after the colon: arr: 2%"),
    ),
    "no space after a colon, keys below": Mistake(
        edit("  arr: 1.9%", "  arr:1.9%"), 3, 6, ("space after its colon", "arr: 1.9%")
    ),
    "no space after the first key's colon": Mistake(
        edit("name: test", "name:test"), 1, 5, ("space after its colon", "name: test")
    ),
    "no space after a section's one key": Mistake(
        edit("  data_disks: 42", "  data_disks:42"),
        9,
        3,
        ("space after the colon", "data_disks: 42"),
    ),
    "a key without its value": Mistake(
        edit("  data_disks: 42", "  data_disks"),
        9,
        3,
        ("data_disks needs a value", "data_disks: 42"),
    ),
    "a section without its keys": Mistake(
        edit("aggregate:\n  data_disks: 42\n", "aggregate:\n"),
        8,
        1,
        ("got null", "keys on the lines below", "aggregate: {data_disks: 42}"),
    ),
    "a key without its colon, keys below": Mistake(
        edit("  latent_defects_per_hour: 1.08e-4", "  latent_defects_per_hour"),
        4,
        3,
        ("has no ':'", "latent_defects_per_hour: followed by its value"),
    ),
    "a space for the colon": Mistake(
        edit("  arr: 1.9%", "  arr 1.9%"), 3, 3, ("has no ': '", "arr: 1.9%")
    ),
    "a value holding ': '": Mistake(
        edit("name: test", "name: RAID: the plan"), 1, 11, ("quotes", "name: 'RAID: the plan'")
    ),
    "two keys on one line": Mistake(
        edit("  - raid: raid5", "  - raid: raid5, group_size: 8"),
        11,
        28,
        ("braces", "- {raid: raid5, group_size: 8}"),
    ),
    "a dash without its space": Mistake(
        edit("  - raid: raid5", "  -raid: raid5"), 11, 3, ("space after its '-'", "- raid: raid5")
    ),
    "a list on its key's line": Mistake(
        edit("layouts:\n  - raid", "layouts: - raid"), 10, 10, ("below layouts:", "'- '")
    ),
}


STRUCTURE = {
    "a key indented under a value": Mistake(
        edit("  latent", "    latent"), 4, 5, ("indented under line 3 (arr: 1.9%)",)
    ),
    "a key pulled back": Mistake(
        edit("  latent", " latent"), 4, 2, ("check the indentation of line 4",)
    ),
    "an item's key pulled back": Mistake(
        edit("    group_size", "   group_size"), 12, 4, ("check the indentation of line 12",)
    ),
    "an item's key under its dash": Mistake(
        edit("    group_size", "  group_size"),
        12,
        3,
        ("column of the '- ' of line 11", "indent it to column 5"),
    ),
    "the first key indented": Mistake("  " + GOOD, 2, 1, ("check the indentation of line 2",)),
    "a list item among keys": Mistake(
        edit("  arr: 1.9%", "  arr: 1.9%\n  - 2"), 4, 3, ("list item ('- ') among the keys",)
    ),
    "a dash before a section's first key": Mistake(
        edit("  arr: 1.9%", "  - arr: 1.9%"),
        4,
        3,
        ("column of the '- ' of line 3", "remove the '- '"),
    ),
    "a key given twice": Mistake(
        edit("  arr: 1.9%", "  arr: 1.9%\n  arr: 2%"),
        4,
        3,
        ("duplicate key 'arr' (first on line 3)", "keep one"),
    ),
    "a '? ' before an item": Mistake(
        edit("  - raid: raid5", "? - raid: raid5"), 11, 3, ("this key is a list", "remove the '?'")
    ),
    "a second document": Mistake(
        GOOD + "---\nname: x\n", 13, 1, ("single document", "remove this '---' line")
    ),
}


FILES = {
    "not UTF-8": Mistake(edit("name: test", "name: t\xe9st").encode("latin-1"), 1, 8, ("UTF-8",)),
    "empty": Mistake(b"", None, None, ("empty", "drive, restore, aggregate and layouts")),
    "a list at the top": Mistake(b"- a\n- b\n", 1, 1, ("must be a mapping", "not a list")),
    "a value at the top": Mistake(b"hello\n", 1, 1, ("must be a mapping", "'hello'")),
    "Windows line endings": Mistake(
        edit("  arr: 1.9%", "  arr: [1.9%").replace("\n", "\r\n"),
        3,
        8,
        ("the [ opened at line 3, column 8 is not closed",),
    ),
    "a byte-order mark": Mistake(
        b"\xef\xbb\xbf" + edit("  arr: 1.9%", "  arr: '1.9%").encode(), 3, 8, ("not closed",)
    ),
}


def cases(table: dict[str, Mistake]) -> list[object]:
    return [pytest.param(mistake, id=name) for name, mistake in table.items()]


@pytest.mark.parametrize("mistake", cases(BRACKETS_AND_QUOTES))
def test_brackets_and_quotes_name_where_they_were_opened(mistake: Mistake) -> None:
    check(mistake)


@pytest.mark.parametrize("mistake", cases(CHARACTERS))
def test_characters_yaml_keeps_say_how_to_write_the_value(mistake: Mistake) -> None:
    check(mistake)


@pytest.mark.parametrize("mistake", cases(KEYS_AND_COLONS))
def test_keys_and_colons_say_the_line_to_write(mistake: Mistake) -> None:
    check(mistake)


@pytest.mark.parametrize("mistake", cases(STRUCTURE))
def test_indentation_and_structure_name_the_lines(mistake: Mistake) -> None:
    check(mistake)


@pytest.mark.parametrize("mistake", cases(FILES))
def test_whole_file_mistakes(mistake: Mistake) -> None:
    check(mistake)


STRAY_BRACKETS = {
    # a newcomer's `group_size: {8`: the number was meant, not a mapping (nor a list)
    "{ before a number": ("{8", 17, "the { opened at line 12, column 17 is not closed"),
    "[ before a number": ("[8", 17, "the [ opened at line 12, column 17 is not closed"),
    "( before a number": ("(8", 17, "got '(8'"),
    "} after a number": ("8}", 17, "got '8}'"),
    "{ } around a number": ("{8}", 18, "{8} is a mapping with the key 8 and no value"),
    "[ ] around a number": ("[8]", 5, "got a list"),
}


@pytest.mark.parametrize(
    ("typed", "column", "says"), list(STRAY_BRACKETS.values()), ids=list(STRAY_BRACKETS)
)
def test_a_stray_bracket_by_a_number_says_the_number_is_meant(
    typed: str, column: int, says: str
) -> None:
    """The number is offered; a closing bracket that makes a mapping of it is not."""
    message = check(
        Mistake(edit("group_size: 8", f"group_size: {typed}"), 12, column, (says, "if 8 is meant"))
    )
    assert "write group_size: 8" in message or "write 8 without the" in message, message
    assert "{8}" not in message.replace("{8} is a mapping", ""), message


def test_a_stray_bracket_before_a_list_of_one_still_offers_the_list() -> None:
    """``ageing.arr_by_year: [1.5%`` may be a list left open: both readings are offered."""
    message = check(Mistake(edit("group_size: 8", "group_size: [8"), 12, 17, ()))
    number, listed = "if 8 is meant, write group_size: 8", "close it on that line: group_size: [8]"
    assert message.endswith(f"{number}; or, for a list, {listed}"), message


def test_a_sections_key_without_its_colon_says_the_colon_is_missing() -> None:
    """``data_disks 20`` alone under ``aggregate:`` reads as the section's text (valid YAML)."""
    message = check(
        Mistake(
            edit("  data_disks: 42", "  data_disks 20"),
            9,
            3,
            ("aggregate: a ':' is missing after data_disks", "write data_disks: 20"),
        )
    )
    assert "expected a mapping" not in message, message
    below = check(
        Mistake(
            edit("  data_disks: 42", "  data_disks 20\n  hot_spares 2"),
            9,
            3,
            ("write data_disks: 20;", "the lines below it need theirs too"),
        )
    )
    assert "data_disks: 20 hot_spares" not in below, below
    check(
        Mistake(
            edit("  - raid: raid5\n    group_size: 8", "  - raid raid5"),
            11,
            5,
            ("layouts[0]: a ':' is missing after raid", "write raid: raid5"),
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(': b ?\na- "||:\x85\n  3\n  \r1@', id="NotImplementedError"),
        pytest.param(
            "#  ---\n|- ##{.- 3: a'&:...\n!.a\n   a?0>#\t-\n.@\\`{\t", id="AssertionError"
        ),
    ],
)
def test_a_fault_of_the_yaml_reader_is_an_error_not_a_crash(text: str) -> None:
    """Two tangles (found by fuzzing) on which ruamel 0.19's round-trip reader failed with an
    error of its own: "unexpected NotImplementedError: overlap in comment", exit 1."""
    line, _ = said(text)
    assert "not valid YAML: " in line
    assert not [word for word in JARGON if word in line.lower()], line


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(GOOD.replace("\n", "\r\n"), id="Windows line endings"),
        pytest.param("\ufeff" + GOOD, id="a byte-order mark"),
        pytest.param(edit("name: test", "name: a:b"), id="a colon inside a word"),
    ],
)
def test_what_is_not_a_mistake_loads(text: str) -> None:
    Path("s.yaml").write_bytes(text.encode("utf-8"))
    result = CliRunner().invoke(app, ["validate", "s.yaml"])
    assert result.exit_code == 0, result.output
