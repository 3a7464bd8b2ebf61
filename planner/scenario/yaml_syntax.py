"""A ruamel.yaml syntax error as a ScenarioError: what is wrong, where, and what to write.

ruamel.yaml says a syntax error in its parser's terms ("found unexpected end of stream
(while scanning a quoted scalar)"), where the parser gave up, often lines after the mistake.
Each mistake an admin makes in a scenario is recognised here from the error's class, its
problem and marks (ruamel's public ``problem``, ``problem_mark``, ``context`` and
``context_mark``) and the text, and said as what is wrong, at the spot to fix, with the text
that would be right. A mistake not recognised keeps the parser's problem, its token names in
words and its "while ..." context left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from planner.scenario.errors import ScenarioError, shown
from planner.scenario.yaml_flow import flow_problem, quote_problem, read_tokens
from planner.scenario.yaml_indent import indent, indentation_hint, key_column
from planner.scenario.yaml_keys import colon_problem, no_colon
from planner.scenario.yaml_said import Said, Syntax, fixed, on_that_line, where, without_comment
from planner.scenario.yaml_tokens import in_words


def _unclosed_quote(syntax: Syntax) -> Said | None:
    """``name: "t`` and no closing quote: the scanner reads on to the end of the file."""
    if "quoted scalar" not in syntax.context or syntax.opened is None:
        return None
    if not syntax.problem.startswith(
        ("found unexpected end of stream", "found unexpected document separator")
    ):
        return None
    line_number, column = syntax.opened
    line = syntax.line(line_number).rstrip()
    quote = line[column : column + 1]
    end = len(line)
    if "[" in line[:column] or "{" in line[:column]:  # {raid: 'raid5}: before the }
        end -= len(line) - len(line.rstrip("]}, "))
    return Said(
        f"the {quote} opened at {where(syntax.opened, syntax.lines)} is not closed; close it"
        f"{on_that_line(syntax.lines)}: {fixed(line[:end] + quote + line[end:])}",
        *syntax.opened,
    )


def _bad_escape(syntax: Syntax) -> Said | None:
    r"""``"C:\data"``: a backslash in double quotes starts an escape such as ``\n``."""
    if "double-quoted scalar" not in syntax.context or syntax.spot is None:
        return None
    line_number, column = syntax.spot
    escape = syntax.line(line_number)[max(column - 1, 0) : column + 1]
    return Said(
        f"{shown(escape, quote=False)} is not an escape in double quotes (\\n, \\t, \\\\ "
        'and \\" are); write \\\\ for a backslash, or put the text in single quotes, which '
        "keep \\ as typed",
        line_number,
        max(column - 1, 0),
    )


def _cannot_start(syntax: Syntax) -> Said | None:
    """A tab, or a value starting with a character YAML keeps (``%``, ``@``, a backtick)."""
    if "cannot start any token" not in syntax.problem or syntax.spot is None:
        return None
    line_number, column = syntax.spot
    line = syntax.line(line_number)
    char = line[column : column + 1]
    if char == "\t":
        if not line[:column].strip():
            return Said(
                "a tab in the indentation; indent with spaces: YAML does not allow tabs there",
                *syntax.spot,
            )
        return Said(
            "a tab character; write a space instead: YAML does not allow tabs there",
            *syntax.spot,
        )
    what = "key" if column == key_column(line) and ":" in line[column:] else "value"
    return Said(
        f"a {what} cannot start with {shown(char, quote=False)} (YAML keeps it for itself); "
        f"put the {what} in quotes: {syntax.value_quoted(syntax.spot)}",
        *syntax.spot,
    )


def _nameless_anchor(syntax: Syntax) -> Said | None:
    """``&`` or ``*`` with no name after it: an anchor or alias, or text to quote."""
    if not syntax.context.startswith(("while scanning an anchor", "while scanning an alias")):
        return None
    if syntax.opened is None:
        return None
    char = syntax.char_at(syntax.opened)
    return Said(
        f"{char} must be followed by a name ({char}name); if it is text, put it in quotes: "
        f"{syntax.value_quoted(syntax.opened)}",
        *syntax.opened,
    )


def _block_text(syntax: Syntax) -> Said | None:
    """``name: > x``: ``|`` and ``>`` start text on the lines below, nothing after them."""
    if "block scalar" not in syntax.context or syntax.opened is None:
        return None
    char = syntax.char_at(syntax.opened)
    return Said(
        f"{char} starts text on the lines below it, indented, with nothing after it on its "
        f"line; put a value of one line in quotes: {syntax.value_quoted(syntax.opened)}",
        *syntax.opened,
    )


def _directive_or_tag(syntax: Syntax) -> Said | None:
    """``%`` at the start of a line (a directive) or ``!`` before a value (a tag), broken."""
    if syntax.opened is None:
        return None
    if "directive" in syntax.context:
        return Said(
            "a % at the start of a line begins a YAML directive (%YAML 1.2); remove the %, "
            f"or put the text in quotes: {syntax.value_quoted(syntax.opened)}",
            *syntax.opened,
        )
    if "tag" in syntax.context:
        return Said(
            "a value cannot start with ! (a YAML tag, which a scenario has none of); put the "
            f"value in quotes: {syntax.value_quoted(syntax.opened)}",
            *syntax.opened,
        )
    return None


def _undefined_alias(syntax: Syntax) -> Said | None:
    """``arr: *rate`` with no ``&rate`` above it."""
    found = re.match(r"found undefined alias '?([^']*)'?", syntax.problem)
    if found is None or syntax.spot is None:
        return None
    name = found[1]
    return Said(
        f"*{name} repeats a value marked &{name} above it, and no value is; mark the value "
        f"to repeat with &{name}, or put text in quotes: {syntax.value_quoted(syntax.spot)}",
        *syntax.spot,
    )


def _second_document(syntax: Syntax) -> Said | None:
    """A second ``---`` with content after it: a scenario file is one document."""
    if "another document" not in syntax.problem or syntax.spot is None:
        return None
    return Said(
        "a second document starts here; a scenario file is a single document: remove this "
        "'---' line and what follows it, or move them to a file of their own",
        *syntax.spot,
    )


def _version(syntax: Syntax) -> Said | None:
    """``%YAML 2.0``: a version ruamel does not read."""
    if "incompatible YAML document" not in syntax.problem or syntax.spot is None:
        return None
    return version_said(syntax.lines) or Said(
        "planner reads YAML 1.2; write %YAML 1.2, or remove the %YAML line", *syntax.spot
    )


def reader_fault(text: str, source: str) -> ScenarioError:
    """The error for a text ruamel's round-trip reader failed on with an error of its own.

    ruamel 0.19 fails on ``%YAML 1.3`` with an ``AssertionError``, and on some tangles of
    comments and odd characters (found by fuzzing) with an ``AssertionError`` or a
    ``NotImplementedError`` ("overlap in comment"), not a YAMLError. The %YAML line is
    named; otherwise the text's events are read again by the plain (safe) parser, which
    constructs nothing and keeps no comments: its syntax error, if it finds one, is said as
    any other.
    """
    said = version_said(text.splitlines())
    if said is not None:
        return _at(said, source)
    try:
        for _ in YAML(typ="safe", pure=True).parse(text):
            pass
    except YAMLError as exc:
        return yaml_error(exc, text, source)
    return ScenarioError(
        "not valid YAML: the YAML reader failed on this file's comments and layout; write "
        "it as plain key: value lines, with comments after a '# ' on lines of their own",
        path=source,
    )


def version_said(lines: list[str]) -> Said | None:
    """The ``%YAML`` line of a version planner does not read, said, if there is one."""
    for number, line in enumerate(lines):
        if line.startswith("%YAML") and line.split()[1:2] not in (["1.1"], ["1.2"]):
            return Said(
                f"{shown(without_comment(line), 20, quote=False)}: planner reads YAML 1.2; "
                "write %YAML 1.2, or remove the line",
                number,
                0,
            )
        if line.startswith("---"):
            break
    return None


def _list_on_key_line(syntax: Syntax) -> Said | None:
    """``layouts: - raid: raid5``: a list starts on the line after its key."""
    if not syntax.problem.startswith("sequence entries are not allowed") or not syntax.spot:
        return None
    line = syntax.line(syntax.spot[0])
    key = without_comment(line[: syntax.spot[1]]).strip()
    below = f" below {fixed(key)}" if key.endswith(":") else ""
    return Said(
        f"a list cannot start on the line of its key; put each item on a line of its own"
        f"{below}, indented, starting with '- '",
        *syntax.spot,
    )


def _block_end(syntax: Syntax) -> Said | None:
    """A line whose indentation fits no level above it (its hint says which line and why)."""
    if syntax.spot is None:
        return None
    hint = indentation_hint(syntax.problem, syntax.spot[0], syntax.lines)
    if hint is None:
        return None
    return Said(hint.text, hint.line, indent(syntax.lines[hint.line]))


def _tokens(syntax: Syntax) -> Said | None:
    """The ``[``, ``{`` or quote a parser error lies inside or after (:mod:`yaml_flow`)."""
    if not syntax.parser or syntax.spot is None:
        return None
    before, found = read_tokens(syntax.text, syntax.spot)
    return flow_problem(syntax.lines, before, found) or quote_problem(syntax.lines, before, found)


_RECOGNISED: tuple[Callable[[Syntax], Said | None], ...] = (
    _tokens,
    _unclosed_quote,
    _bad_escape,
    _cannot_start,
    _nameless_anchor,
    _block_text,
    _directive_or_tag,
    _undefined_alias,
    _second_document,
    _version,
    _list_on_key_line,
    colon_problem,
    no_colon,
    _block_end,
)
"""Each mistake's recogniser, the first to say a mistake speaks for it."""


def _in_parser_words(syntax: Syntax) -> Said:
    """An error no recogniser knows: its problem, token names in words, no "while ..."."""
    problem = in_words(syntax.problem or syntax.context or "syntax error")
    problem = re.sub(r"\(([^(),]*),\)", r"\1", problem)  # ruamel's "(a mapping,)"
    problem = problem.replace("the node content", "a value")
    problem = problem.replace(
        "could not find expected ':'", "a key here has no ': ' after it; write key: value"
    )
    if syntax.spot is None:
        return Said(shown(problem, 120, quote=False), -1, -1)
    if "'<document end>'" in syntax.problem:
        problem = "a line of '...' ends the document here; remove it (or quote it: '...')"
    if syntax.problem.startswith(("expected <block end>", "expected '<document start>'")):
        content = without_comment(syntax.line(syntax.spot[0])).strip()
        problem = (
            f"line {syntax.spot[0] + 1} ({shown(content, 40, quote=False)}) does not line up "
            "with the lines above it: check its indentation (keys of one mapping start in one "
            "column, and so do the '- ' of one list's items)"
        )
    return Said(shown(problem, 200, quote=False), *syntax.spot)


def _duplicate(exc: DuplicateKeyError, lines: list[str], source: str) -> ScenarioError:
    """A key given twice in one mapping, with the line of the first."""
    mark = exc.problem_mark
    problem = str(exc.problem or "")
    key = problem.split('"')[1] if problem.count('"') >= 2 else "?"
    first = ""
    if mark is not None and exc.context_mark is not None:
        for number in range(exc.context_mark.line, mark.line):
            line = lines[number] if number < len(lines) else ""
            text = line[mark.column :]
            if key_column(line) == mark.column and re.match(
                rf"""['"]?{re.escape(key)}['"]?\s*:""", text
            ):
                first = f" (first on line {number + 1})"
                break
    return ScenarioError(
        f"duplicate key {shown(key)}{first}: each key may appear once in a mapping; keep one",
        path=source,
        line=mark.line + 1 if mark else None,
        column=mark.column + 1 if mark else None,
    )


def _at(said: Said, source: str) -> ScenarioError:
    known = said.line >= 0
    return ScenarioError(
        f"not valid YAML: {said.message}",
        path=source,
        line=said.line + 1 if known else None,
        column=said.column + 1 if known else None,
    )


def yaml_error(exc: YAMLError, text: str, source: str) -> ScenarioError:
    """A ruamel error as a ScenarioError at the spot to fix, in a reader's words."""
    if isinstance(exc, DuplicateKeyError):
        return _duplicate(exc, text.splitlines(), source)
    if isinstance(exc, MarkedYAMLError):
        syntax = Syntax.of(exc, text)
        said = next(
            (found for recognise in _RECOGNISED if (found := recognise(syntax)) is not None),
            None,
        ) or _in_parser_words(syntax)
        return _at(said, source)
    if isinstance(exc, ReaderError):
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1])
        return ScenarioError(
            f"not valid YAML: the control character U+{code:04X} is not allowed; remove it",
            path=source,
            line=line,
            column=column,
        )
    first_line = (str(exc).splitlines() or ["syntax error"])[0]
    return ScenarioError(f"not valid YAML: {shown(first_line, 120, quote=False)}", path=source)
