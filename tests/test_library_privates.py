"""The planner uses its libraries' public API only: no private module, name or attribute.

A private name (``textual.widgets._footer``, a DataTable's ``_render_cell``, plotext's
``_build_matrix``) may change in any release. This reads every module of ``planner/`` and
finds, for the libraries below:

* an import of a private module (``textual._types``, ``plotext._utility``) or of a private
  name (``from textual.widget import _x``);
* a private attribute of a library's module or object: ``plotext._x``, ``DataTable._x``;
  of an object a library call made (``plot = Plot()``, then ``plot._x``), or a cast of one;
* in a class derived from a library's class, a private name of that class (or a base of
  it) used through ``self``, ``cls`` or ``super()``, or defined again (an override of a
  private hook); found from the classes' own attributes and the ``self._x = ...``
  assignments in their source;
* any other ``something._x`` whose name the planner never defines itself, and
  ``getattr``/``setattr``/``hasattr`` of a private name written out.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LIBRARIES = frozenset(
    {"textual", "rich", "plotext", "textual_plotext", "typer", "pydantic", "lifelines"}
)
"""The libraries whose private names the planner must not use (top-level package names)."""

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "planner"


def is_private(name: str) -> bool:
    """``_x`` or ``__x`` (name-mangled), not a dunder such as ``__init__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def library_of(module: str) -> str | None:
    """The watched library a dotted module name belongs to, if any."""
    top = module.split(".")[0]
    return top if top in LIBRARIES else None


@dataclass(frozen=True)
class Finding:
    """One use of a private name: where, and what."""

    path: Path
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.what}"


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def planner_names() -> frozenset[str]:
    """Every private name the planner defines itself (functions, classes, attributes).

    A method of a ``Protocol`` describes another's API: it defines nothing.
    """
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.ClassDef) and any(
            (base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")) == "Protocol"
            for base in node.bases
        ):
            names.add(node.name)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.id if isinstance(node, ast.Name) else node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child)

    for path in modules():
        visit(ast.parse(path.read_text(encoding="utf-8")))
    return frozenset(name for name in names if is_private(name))


@cache
def library_private_names(cls: type) -> frozenset[str]:
    """The private names a library class defines: in its namespace or as ``self._x = ``."""
    names = {name for name in vars(cls) if is_private(name)}
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return frozenset(names)
    names.update(re.findall(r"self\.(_\w+)\s*(?::[^=\n]*)?=", source))
    return frozenset(name for name in names if is_private(name))


def library_bases(cls: type) -> list[type]:
    """The classes of ``cls``'s MRO that belong to a watched library."""
    return [base for base in cls.__mro__ if library_of(base.__module__ or "")]


class Scanner(ast.NodeVisitor):
    """Finds the private names of :data:`LIBRARIES` one module uses (see the docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.module = module_name(path)
        self.findings: list[Finding] = []
        self.library_names: dict[str, str] = {}
        """Names bound to a library's module or object, with what they are."""
        self.class_names: list[str] = []
        """The classes being visited, outermost first."""
        self.classes: list[type | None] = []
        """The runtime classes being visited (None: not derived from a library's class)."""
        self.library_values: list[set[str]] = [set()]
        """Per function: local names bound to what a library call returned."""

    def report(self, node: ast.AST, what: str) -> None:
        self.findings.append(Finding(self.path, getattr(node, "lineno", 0), what))

    # -- imports ---------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if library_of(alias.name) is None:
                continue
            if any(is_private(part) for part in alias.name.split(".")):
                self.report(node, f"imports the private module {alias.name}")
            bound = alias.asname or alias.name.split(".")[0]
            self.library_names[bound] = alias.name if alias.asname else bound

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or library_of(module) is None:
            return
        if any(is_private(part) for part in module.split(".")):
            self.report(node, f"imports from the private module {module}")
        for alias in node.names:
            if is_private(alias.name):
                self.report(node, f"imports the private name {alias.name} from {module}")
            self.library_names[alias.asname or alias.name] = f"{module}.{alias.name}"

    # -- classes and functions ---------------------------------------------------------

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        cls = self._runtime_class(node)
        bases = library_bases(cls) if cls is not None else []
        self.class_names.append(node.name)
        self.classes.append(cls if bases else None)
        if bases:
            for item in node.body:
                name = _defined_name(item)
                if name is not None and is_private(name):
                    self._check_class_name(item, cls, name, "defines again")
        self.generic_visit(node)
        self.classes.pop()
        self.class_names.pop()

    def _runtime_class(self, node: ast.ClassDef) -> type | None:
        """The class ``node`` defines, imported (None: not importable, or not a class)."""
        if not node.bases or self.module.endswith("__main__"):
            return None
        value: object = importlib.import_module(self.module)
        for name in [*self.class_names, node.name]:
            value = getattr(value, name, None)
        return value if isinstance(value, type) else None

    def _check_class_name(self, node: ast.AST, cls: type | None, name: str, how: str) -> None:
        if cls is None:
            return
        for base in library_bases(cls):
            if name in library_private_names(base):
                self.report(node, f"{how} {base.__module__}.{base.__qualname__}'s private {name}")
                return

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.library_values.append(set())
        self.generic_visit(node)
        self.library_values.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815

    def visit_Assign(self, node: ast.Assign) -> None:
        if self._from_library(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.library_values[-1].add(target.id)
        self.generic_visit(node)

    def _from_library(self, value: ast.expr) -> bool:
        """Whether ``value`` is what a library call returned (or a cast of such a name)."""
        if not isinstance(value, ast.Call):
            return False
        func = value.func
        if isinstance(func, ast.Name) and func.id == "cast" and len(value.args) == 2:
            return self._is_library_value(value.args[1])
        return self._is_library_value(func)

    def _is_library_value(self, node: ast.expr) -> bool:
        while isinstance(node, ast.Attribute | ast.Call):
            node = node.value if isinstance(node, ast.Attribute) else node.func
        return isinstance(node, ast.Name) and (
            node.id in self.library_names or node.id in self.library_values[-1]
        )

    # -- attributes ----------------------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if is_private(node.attr):
            self._check_attribute(node, node.value, node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and is_private(node.args[1].value)
        ):
            self._check_attribute(node, node.args[0], node.args[1].value)
        self.generic_visit(node)

    def _check_attribute(self, node: ast.AST, owner: ast.expr, name: str) -> None:
        cls = self.classes[-1] if self.classes else None
        if (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "super"
        ):
            self._check_class_name(node, cls, name, "uses")
            return
        if isinstance(owner, ast.Name):
            if owner.id in ("self", "cls"):
                self._check_class_name(node, cls, name, "uses")
                return
            if owner.id in self.library_names:
                what = self.library_names[owner.id]
                self.report(node, f"uses {what}'s private {name}")
                return
            if owner.id in self.library_values[-1]:
                self.report(node, f"uses the private {name} of what a library call returned")
                return
        if name not in planner_names():
            self.report(node, f"uses a private {name} the planner does not define")


def _defined_name(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def findings() -> Iterator[Finding]:
    for path in modules():
        scanner = Scanner(path)
        scanner.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        yield from scanner.findings


def test_the_planner_uses_no_private_name_of_its_libraries() -> None:
    found = [str(finding) for finding in findings()]
    assert not found, "private names of libraries used:\n" + "\n".join(found)
