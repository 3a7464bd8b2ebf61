"""A ruamel.yaml syntax error as a ScenarioError: what is wrong, where, and what to write."""

from __future__ import annotations

from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.parser import ParserError
from ruamel.yaml.reader import ReaderError

from planner.scenario.errors import ScenarioError, shown
from planner.scenario.yaml_indent import indentation_hint
from planner.scenario.yaml_tokens import in_words

Position = tuple[int, int]
"""A 1-based (line, column)."""


def _text_position(text: str, index: int) -> Position:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def yaml_error(exc: YAMLError, text: str, source: str) -> ScenarioError:
    """A ruamel error as a ScenarioError at the position ruamel reports."""
    if isinstance(exc, DuplicateKeyError):
        mark = exc.problem_mark
        problem = str(exc.problem or "")
        key = problem.split('"')[1] if problem.count('"') >= 2 else "?"
        return ScenarioError(
            f"duplicate key {shown(key)}: each key may appear once in a mapping",
            path=source,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        )
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        text_of = in_words if isinstance(exc, ParserError) else str
        problem = shown(text_of(exc.problem or exc.context or "syntax error"), 120, quote=False)
        context = f" ({shown(exc.context, 80, quote=False)})" if exc.context and exc.problem else ""
        opened = exc.context_mark
        lines = text.splitlines()
        hint = indentation_hint(str(exc.problem or ""), mark.line if mark else None, lines)
        if "'\\t'" in str(exc.problem or ""):
            hint = "indent with spaces: YAML does not allow tabs there"
        if hint:
            return ScenarioError(
                f"not valid YAML: {problem}; {hint}",
                path=source,
                line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None,
            )
        if opened is not None and mark is not None and opened.line < len(lines):
            # The parser notices an unclosed [ or { lines later: say where it was opened.
            char = lines[opened.line][opened.column : opened.column + 1]
            if char in ("[", "{") and opened.line != mark.line:
                context = (
                    f" (the {char} opened at line {opened.line + 1}, column "
                    f"{opened.column + 1} is not closed)"
                )
        return ScenarioError(
            f"not valid YAML: {problem}{context}",
            path=source,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        )
    if isinstance(exc, ReaderError):
        line, column = _text_position(text, exc.position)
        return ScenarioError(
            f"not valid YAML: character {shown(exc.character)} is not allowed ({exc.reason})",
            path=source,
            line=line,
            column=column,
        )
    first_line = (str(exc).splitlines() or ["syntax error"])[0]
    return ScenarioError(f"not valid YAML: {shown(first_line, 120, quote=False)}", path=source)
