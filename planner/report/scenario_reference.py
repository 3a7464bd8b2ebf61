"""The scenario file reference, rendered as Markdown from the scenario's JSON Schema.

The reference is generated, so it cannot drift from the code: every key, type, range,
default and description comes from the Pydantic models' ``model_json_schema()`` (with the
editing metadata of :func:`planner.scenario.base.meta`: ``x-unit``, ``x-example``,
``x-replaces``). ``planner schema --format markdown`` prints it; docs/scenario-reference.md
is that output, and a test regenerates it and fails when the committed file differs.

The renderer takes the schema as a plain mapping and knows nothing of the models: one
section per scenario section (a ``$defs`` entry), in the order a reader meets them from
the top level, each with a table of its keys.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["REGENERATE", "scenario_reference_markdown"]

REGENERATE = "planner schema --format markdown -o docs/scenario-reference.md"
"""The command that writes docs/scenario-reference.md (run from the repository root)."""

_TOP = "Top level"
_REF = re.compile(r"^#/\$defs/(?P<name>.+)$")
_ANCHOR_DROP = re.compile(r"[^\w\- ]")
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_KINDS = {
    "number": "number",
    "integer": "whole number",
    "boolean": "true or false",
    "string": "text",
}
"""JSON Schema's type names in a reader's words."""
_PLURAL = re.compile(r"\b(number|mapping)\b")
_MAX_DEPTH = 8
"""Deeper than any scenario nests; a schema that refers to itself stops here."""

Schema = Mapping[str, Any]


@dataclass
class _Section:
    """One table of the reference: a schema object and the key paths that lead to it."""

    name: str
    node: Schema
    paths: list[str] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return self.paths[0] if self.paths else self.name

    @property
    def anchor(self) -> str:
        return anchor(self.heading)


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: ``restore`` for ``## restore``.

    Lower case; everything but letters, digits, ``_``, ``-`` and spaces dropped; spaces
    become ``-`` (``layouts[]`` -> ``layouts``).
    """
    return _ANCHOR_DROP.sub("", heading.lower()).replace(" ", "-")


def scenario_reference_markdown(schema: Schema) -> str:
    """The reference of every scenario key, as one Markdown document.

    Args:
        schema: the scenario's JSON Schema (``planner.scenario.scenario_json_schema()``):
            an object with ``properties`` and ``$defs``.

    Returns:
        GitHub-flavoured Markdown ending in a newline.
    """
    defs: Mapping[str, Schema] = schema.get("$defs", {})
    sections = _sections(schema, defs)
    links = {name: section for name, section in sections.items() if name != _TOP}
    lines = [
        "# Scenario file reference",
        "",
        f"<!-- Generated from the scenario models' JSON Schema: do not edit. Regenerate "
        f"with `{REGENERATE}`. -->",
        "",
        _text(schema.get("description", "")),
        "",
        "Every key a scenario file may hold, generated from the models that validate it "
        f"(`{REGENERATE}`; `planner schema` prints the JSON Schema itself, for an editor's "
        "YAML language server). How to write a scenario, with examples: "
        "[scenarios.md](scenarios.md). A key not listed here is an error.",
        "",
        "Contents: " + ", ".join(f"[{s.heading}](#{s.anchor})" for s in sections.values()) + ".",
        "",
    ]
    for section in sections.values():
        lines += _section_lines(section, defs, links)
    return "\n".join(lines).rstrip("\n") + "\n"


def _sections(schema: Schema, defs: Mapping[str, Schema]) -> dict[str, _Section]:
    """The top level, then every ``$defs`` entry in the order the keys lead to them.

    Each section lists every key path that leads to it (``distributions.scrub.weibull``
    as well as ``distributions.restoration.weibull``), but a top-level section reached
    again deeper (a plan's ``tiers[].drive``) is the top level's: its row links there.
    """
    sections = {_TOP: _Section(_TOP, schema, [_TOP])}
    pending: list[tuple[Schema, str, int]] = [(schema, "", 0)]
    top = {name for _, prop in _properties(schema) for name, _ in _refs(prop)}
    while pending:
        node, prefix, depth = pending.pop(0)
        for key, prop in _properties(node):
            for name, many in _refs(prop):
                if depth > 0 and name in top:
                    continue  # a plan's tier holds the top level's sections: said once, there
                path = f"{prefix}{key}{'[]' if many else ''}"
                found = sections.setdefault(name, _Section(name, defs.get(name, {})))
                found.paths.append(path)
                if depth < _MAX_DEPTH:
                    pending.append((found.node, f"{path}.", depth + 1))
    return sections


def _properties(node: Schema) -> Iterator[tuple[str, Schema]]:
    """The keys of an object, or of the object branch of an ``anyOf`` (a preset or a mapping)."""
    yield from node.get("properties", {}).items()
    for branch in node.get("anyOf", ()):
        yield from branch.get("properties", {}).items()


def _refs(node: Schema, many: bool = False) -> Iterator[tuple[str, bool]]:
    """The ``$defs`` names a property leads to, and whether through a list."""
    ref = node.get("$ref")
    if isinstance(ref, str) and (match := _REF.match(ref)):
        yield match["name"], many
    for branch in (*node.get("anyOf", ()), *node.get("oneOf", ())):
        yield from _refs(branch, many)
    if isinstance(node.get("items"), Mapping):
        yield from _refs(node["items"], True)


def _section_lines(
    section: _Section, defs: Mapping[str, Schema], links: Mapping[str, _Section]
) -> list[str]:
    node = section.node
    lines = [f"## {section.heading}", ""]
    if section.name != _TOP:
        if len(section.paths) > 1:
            others = ", ".join(f"`{path}`" for path in section.paths[1:])
            lines += [f"The same keys also at {others}.", ""]
        if description := _text(node.get("description", "")):
            lines += [description, ""]
        presets = _alternatives(node)
        if presets:
            alternatives = " or ".join(_type(b, defs, links) for b in presets)
            lines += [f"Instead of a mapping: {alternatives}.", ""]
    lines += [_rules(node), ""] if _rules(node) else []
    required = set(node.get("required", ()))
    for branch in node.get("anyOf", ()):
        required |= set(branch.get("required", ())) if "properties" in branch else set()
    lines += [
        "| Key | Type | Unit and range | Default | Description |",
        "|:---|:---|:---|:---|:---|",
    ]
    for key, prop in _properties(node):
        cells = (
            f"`{key}`",
            _type(prop, defs, links),
            _range(prop),
            "required" if key in required else _default(prop),
            _description(prop),
        )
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return [*lines, ""]


def _alternatives(node: Schema) -> list[Schema]:
    """The branches of an object's ``anyOf`` that are another kind of value (a preset name).

    Not the object itself (a branch with ``properties``), nor a rule on its keys (a branch
    with only ``required``).
    """
    return [b for b in node.get("anyOf", ()) if "properties" not in b and set(b) != {"required"}]


def _rules(node: Schema) -> str:
    """Which keys go together: at least one of, exactly one of, never both."""
    rules = []
    for word, combinator in (("at least one", "anyOf"), ("exactly one", "oneOf")):
        groups = [b["required"] for b in node.get(combinator, ()) if set(b) == {"required"}]
        if groups and all(len(group) == 1 for group in groups):
            rules.append(f"Give {word} of {_keys([group[0] for group in groups])}.")
        elif groups:
            sets = "; or ".join(_keys(group, " and ") for group in groups)
            rules.append(f"Give {word} of these sets of keys: {sets}.")
    excluded = node.get("not", {}).get("required")
    if excluded:
        rules.append(f"Not both {_keys(excluded, ' and ')}.")
    return " ".join(rules)


def _keys(keys: Sequence[str], last: str = " or ") -> str:
    names = [f"`{key}`" for key in keys]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + last + names[-1]


def _type(node: Schema, defs: Mapping[str, Schema], links: Mapping[str, _Section]) -> str:
    """A value's type in words: ``number or text such as `1.9%```, ``list of whole number``."""
    ref = node.get("$ref")
    if isinstance(ref, str) and (match := _REF.match(ref)):
        target = links.get(match["name"])
        where = f"[{target.heading}](#{target.anchor})" if target else match["name"]
        definition = defs.get(match["name"], {})
        presets = _alternatives(definition)
        words = [_type(b, defs, links) for b in presets]
        return " or ".join([*words, f"mapping ({where})"])
    if "enum" in node:
        return "one of " + ", ".join(f"`{_value(v)}`" for v in node["enum"])
    if "const" in node:
        return f"`{_value(node['const'])}`"
    branches = [b for b in (*node.get("anyOf", ()), *node.get("oneOf", ())) if not _is_null(b)]
    if branches:
        return " or ".join(dict.fromkeys(_type(b, defs, links) for b in branches))
    kind = node.get("type")
    if kind == "array":
        items = node.get("items")
        if not isinstance(items, Mapping):
            return "list"
        return "list of " + _PLURAL.sub(r"\1s", _type(items, defs, links), count=1)
    if kind == "string" and "pattern" in node:
        examples = node.get("examples")
        if examples:
            return "text such as " + " or ".join(f"`{_value(e)}`" for e in examples)
        return f"text matching `{node['pattern']}`"
    return _KINDS.get(str(kind), str(kind or "any"))


def _is_null(node: Schema) -> bool:
    return node.get("type") == "null"


def _range(node: Schema) -> str:
    """Unit (``x-unit``) and limits of the value, from every branch of an ``anyOf``."""
    parts = [node["x-unit"]] if node.get("x-unit") else []
    for branch in (node, *node.get("anyOf", ()), *node.get("oneOf", ())):
        if isinstance(branch.get("items"), Mapping):
            parts += _limits(branch["items"], "each ")
        parts += _limits(branch)
    return "; ".join(dict.fromkeys(parts))


_BOUNDS = (
    (("minimum", "ge"), "≥"),
    (("exclusiveMinimum", "gt"), ">"),
    (("maximum", "le"), "≤"),
    (("exclusiveMaximum", "lt"), "<"),
)


def _limits(node: Schema, prefix: str = "") -> list[str]:
    found = []
    for names, sign in _BOUNDS:
        for name in names:
            if name in node and not isinstance(node[name], bool):
                found.append(f"{sign} {_number(node[name])}")
    numeric = [f"{prefix}{', '.join(found)}"] if found else []
    for low, high, what in (
        ("minLength", "maxLength", "characters"),
        ("minItems", "maxItems", "items"),
    ):
        if low in node or high in node:
            numeric.append(_count(node.get(low), node.get(high), what))
    return numeric


def _count(low: int | None, high: int | None, what: str) -> str:
    if low is not None and high is not None:
        return f"{low} to {high} {what}" if low != high else f"exactly {low} {what}"
    if low is not None:
        return f"at least {low} {what.removesuffix('s') if low == 1 else what}"
    return f"at most {high} {what}"


def _number(value: float) -> str:
    """``100,000``, ``8,760``, ``0.001``, ``1e-06``, ``1e+12``: as a reader writes limits."""
    if isinstance(value, int) or (math.isfinite(value) and value.is_integer() and value < 1e7):
        return f"{int(value):,}"
    return f"{value:g}"


def _default(node: Schema) -> str:
    if "default" not in node:
        return ""
    default = node["default"]
    return "none" if default is None else f"`{_value(default)}`"


def _value(value: object) -> str:
    """A value as YAML would show it: ``true``, ``[1, 2, 3]``, ``lose-sectors``."""
    if isinstance(value, str):
        return value or '""'
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return json.dumps(value, ensure_ascii=False).replace('"', "")


def _description(node: Schema) -> str:
    text = _text(node.get("description", ""))
    if node.get("x-example"):
        text += f" Example: `{node['x-example']}`."
    replaces = node.get("x-replaces") or []
    if replaces:
        text += f" Excludes {_keys(replaces, ' and ')}."
    return text.strip()


def _text(text: str) -> str:
    """A docstring or description on one line, reST ``code`` made Markdown `code`."""
    return " ".join(_ROLE.sub(r"`\1`", text.replace("``", "`")).split())


def _cell(text: str) -> str:
    """``text`` safe in a table cell: a ``|`` would end the cell."""
    return text.replace("|", "\\|")
