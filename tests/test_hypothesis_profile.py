"""No test asserts wall-clock time: Hypothesis runs without its deadline, in CI or not.

A newcomer's `make test` on a loaded 2-core machine failed a property test at 268 ms
against Hypothesis's default 200 ms deadline.
"""

from __future__ import annotations

from hypothesis import settings


def test_no_hypothesis_deadline() -> None:
    assert settings().deadline is None
