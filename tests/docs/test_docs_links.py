"""Every relative link of the documentation leads somewhere: a file, and a heading in it.

The manual moved out of README.md into docs/ (issue 22); a page renamed or a heading
reworded would leave links that GitHub renders as dead ends. Links are read with the
Markdown parser Rich already brings (markdown-it-py), so links in code are not links.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from planner.report.scenario_reference import anchor

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "ARCHITECTURE.md",
        ROOT / "benchmarks" / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
)
PARSER = MarkdownIt("commonmark").enable("table")


def _tokens(path: Path) -> list[Token]:
    flat: list[Token] = []
    for token in PARSER.parse(path.read_text(encoding="utf-8")):
        flat.append(token)
        flat.extend(token.children or ())
    return flat


def _targets(path: Path) -> list[str]:
    """Every link and image target of a page."""
    found = []
    for token in _tokens(path):
        if token.type == "link_open":
            found.append(str(token.attrs["href"]))
        elif token.type == "image":
            found.append(str(token.attrs["src"]))
    return found


@functools.cache  # asked once per link with a fragment: a page's own links ask it again
def _anchors(path: Path) -> frozenset[str]:
    """The fragments GitHub gives the page's headings (a repeated one gets -1, -2, ...)."""
    tokens = PARSER.parse(path.read_text(encoding="utf-8"))
    seen: Counter[str] = Counter()
    anchors = set()
    for opening, inline in pairwise(tokens):
        if opening.type != "heading_open":
            continue
        text = "".join(child.content for child in inline.children or ())
        slug = anchor(text)
        anchors.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return frozenset(anchors)


def _relative(target: str) -> bool:
    parts = urlsplit(target)
    return not parts.scheme and not target.startswith("//")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in filter(_relative, _targets(page)):
        parts = urlsplit(target)
        file = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT)}")
        elif parts.fragment and file.suffix == ".md" and parts.fragment not in _anchors(file):
            broken.append(f"{target}: no heading #{parts.fragment} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: broken links:\n" + "\n".join(broken)


def test_every_docs_page_is_in_the_index() -> None:
    index = set(_targets(ROOT / "docs" / "README.md"))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"README.md"}
    assert pages <= index, f"docs/README.md does not list {sorted(pages - index)}"


def test_the_readme_is_a_front_door() -> None:
    """README.md: what planner is, the two commands, a tour, links; the manual is in docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    assert "make run" in text
    assert "make test" in text
    assert "docs/README.md" in _targets(ROOT / "README.md")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.MULTILINE)
    assert re.search(r"^test:", makefile, re.MULTILINE)


def test_the_checker_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## A `code` heading\n\n[ok](#a-code-heading) [dead](missing.md) "
        "[gone](#nowhere)\n\n```\n[not a link](in-code.md)\n```\n",
        encoding="utf-8",
    )
    assert _targets(page) == ["#a-code-heading", "missing.md", "#nowhere"]
    assert _anchors(page) == {"title", "a-code-heading"}
