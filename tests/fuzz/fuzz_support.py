"""Shared pieces of the fuzz suite: its Hypothesis settings, mutation strategies and checks.

Two sizes, chosen by the ``PLANNER_FUZZ`` environment variable:

* unset (``make test``): a few dozen examples per test, derandomized under CI (``CI`` set),
  so the suite stays fast and a red CI always reproduces;
* ``PLANNER_FUZZ=long`` (``make fuzz``): thousands of fresh examples per test, failures
  remembered in ``.hypothesis/``; ``PLANNER_FUZZ_EXAMPLES`` changes the count.

Every example has a deadline (:data:`DEADLINE`): a hang is a failure, not a slow run. It is
far above the few hundred milliseconds one example takes, so a loaded machine does not trip
it, and far below the 96 s the alias bomb once took.
"""

from __future__ import annotations

import json
import math
import os
import re
import warnings
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
LONG = os.environ.get("PLANNER_FUZZ") == "long"
DEADLINE = timedelta(seconds=20)

settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("PLANNER_FUZZ_EXAMPLES", "20")),
    deadline=DEADLINE,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "fuzz-long",
    max_examples=int(os.environ.get("PLANNER_FUZZ_EXAMPLES", "2000")),
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
FUZZ = settings.get_profile("fuzz-long" if LONG else "fuzz")
"""The settings every fuzz test runs under."""

SCENARIO_TEXTS = {
    path.name: path.read_text(encoding="utf-8") for path in sorted(REPO.glob("scenarios/*.yaml"))
} | {"default.yaml": (REPO / "planner" / "scenario" / "data" / "default.yaml").read_text("utf-8")}
"""Every shipped scenario, the seeds of the mutations."""

# -- values ----------------------------------------------------------------------------------

_EXTREME_NUMBERS = [
    "5e-324", "-5e-324", "2.2250738585072014e-308", "1e-300", "1e-100", "1e-12", "1e-6",
    "0.001", "0", "-0", "-0.0", "1", "0.999999", "1.0", "100", "1e10", "1e300",
    "1.7976931348623157e308", "1e309", ".nan", ".NaN", ".inf", "-.inf", "nan", "inf",
    "0x1F", "0o17", "1_000", "9" * 5000, "1" * 101, "1e-324", "99.9999999%", "100%",
    "1e-7%", "5e-324%", "0%", "-1%",
]  # fmt: skip

_ODD_SCALARS = [
    "~", "null", "", "[]", "{}", "[1, 2]", "{a: 1}", "yes", "no", "true", "on",
    "2001-13-45", "2024-05-01", "2024-05-01 10:00:00", "12:30:00", "'quoted'", '"5"',
    "!!str 5", "!!float 5", "!!python/object/apply:os.system ['true']", "!custom 1",
    "&anchor 5", "*undefined", "*a", "<<: *a", "- 1", "a: b: c", "'" + "x" * 2000 + "'",
    "\"\\x00\"", "\"\\u2028\"", "\"\\e]0;PWNED\\a\"", "\"\\e[2J\"", "\"\\u202e\"", "é",
    "🙂", "raid6", "raid-dp", "elerath2009", "|\n  text",
]  # fmt: skip


def floats_as_yaml() -> st.SearchStrategy[str]:
    """Floats of every size, subnormals included, written as YAML reads them."""
    return st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True).map(
        lambda x: (
            ".nan"
            if math.isnan(x)
            else (".inf" if x > 0 else "-.inf")
            if math.isinf(x)
            else repr(x)
        )
    )


def yaml_values() -> st.SearchStrategy[str]:
    """Replacement values for a scalar: extremes, odd YAML, floats, integers, text."""
    return st.one_of(
        st.sampled_from(_EXTREME_NUMBERS),
        st.sampled_from(_ODD_SCALARS),
        floats_as_yaml(),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.text(max_size=30),
    )


# -- mutations of a scenario's text ----------------------------------------------------------

_KEY_VALUE = re.compile(r"^(?P<indent>\s*(?:- )?)(?P<key>[A-Za-z_]+):(?P<rest>.*)$")


@st.composite
def mutated_scenario(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped scenario with one to three mutations: (name, text)."""
    name = draw(st.sampled_from(sorted(SCENARIO_TEXTS)))
    lines = SCENARIO_TEXTS[name].splitlines()
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        lines = draw(_mutation(lines))
    return name, "\n".join(lines) + "\n"


@st.composite
def _mutation(draw: st.DrawFn, lines: list[str]) -> list[str]:
    lines = list(lines)
    index = draw(st.integers(min_value=0, max_value=max(0, len(lines) - 1)))
    kind = draw(
        st.sampled_from(
            ["value", "value", "value", "delete", "duplicate", "swap", "indent", "anchor",
             "merge", "insert", "truncate", "characters"]
        )
    )  # fmt: skip
    line = lines[index] if lines else ""
    match = _KEY_VALUE.match(line)
    if kind == "value" and match is not None:
        lines[index] = f"{match['indent']}{match['key']}: {draw(yaml_values())}"
    elif kind == "delete" and lines:
        del lines[index]
    elif kind == "duplicate" and lines:
        lines.insert(index, line)
    elif kind == "swap" and lines:
        other = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "indent" and lines:
        lines[index] = draw(st.sampled_from(["  ", "    ", "\t", ""])) + line.lstrip()
    elif kind == "anchor" and match is not None:
        # An anchor here and an alias (or a second anchor of the same name) elsewhere.
        lines[index] = f"{match['indent']}{match['key']}: &a{match['rest']}"
        other = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        target = _KEY_VALUE.match(lines[other])
        if target is not None:
            use = draw(st.sampled_from(["*a", "&a 1", "*a\n" + target["indent"] + "  <<: *a"]))
            lines[other] = f"{target['indent']}{target['key']}: {use}"
    elif kind == "merge" and match is not None:
        lines.insert(index + 1, match["indent"] + "  <<: *" + draw(st.sampled_from("abm")))
        lines[index] = f"{match['indent']}{match['key']}: &{draw(st.sampled_from('abm'))}"
    elif kind == "insert":
        lines.insert(index, draw(st.sampled_from(_ODD_SCALARS + _EXTREME_NUMBERS)))
    elif kind == "truncate" and lines:
        lines[index] = line[: draw(st.integers(min_value=0, max_value=len(line)))]
    elif kind == "characters":
        noise = draw(st.text(alphabet=":-[]{}&*!%|>'\"#\t ,?@`\\\x00\x85\u2028é", max_size=6))
        cut = draw(st.integers(min_value=0, max_value=len(line)))
        lines[index] = line[:cut] + noise + line[cut:]
    return lines


# -- checks ----------------------------------------------------------------------------------


def assert_one_line(message: str) -> None:
    """A user-facing message: one line under 300 characters."""
    assert "\n" not in message, message
    assert "\r" not in message, message
    assert len(message) < 300, message


def numbers_in(document: Any) -> Iterator[tuple[str, float]]:
    """Every (key, number) of a JSON document, at any depth."""
    if isinstance(document, dict):
        for key, value in document.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                yield key, float(value)
            else:
                yield from numbers_in(value)
    elif isinstance(document, list):
        for item in document:
            yield from numbers_in(item)


def assert_sound_json(text: str) -> None:
    """Strict JSON (no NaN or Infinity) whose probabilities are in [0, 1]."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the JSON output")

    document = json.loads(text, parse_constant=refuse)
    for key, value in numbers_in(document):
        assert math.isfinite(value), (key, value)
        if key.startswith("p_loss") or key.startswith("ci95"):
            assert 0.0 <= value <= 1.0, (key, value)


class NoWarnings:
    """A context that fails when any warning (a numpy RuntimeWarning...) is raised in it."""

    def __enter__(self) -> None:
        self._context = warnings.catch_warnings(record=True)
        self._caught = self._context.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc: object) -> None:
        self._context.__exit__(*exc)
        messages = [f"{w.category.__name__}: {w.message}" for w in self._caught]
        assert not messages, messages
