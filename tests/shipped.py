"""The shipped scenarios: single-aggregate files, and plans of several tiers.

A test that checks every shipped scenario as one aggregate (``load_scenario``, the compare
table, the sweep of its drive) takes :data:`SINGLE_AGGREGATE`; a plan (a file with a
``tiers:`` list) is checked tier by tier and as a whole by the plan tests
(``tests/analysis/test_plan_totals.py``, ``tests/cli/test_cli_plan.py``,
``tests/tui/test_tui_tiers.py``), which load every file of :data:`PLANS`.

The split is read from the files' lines, not by parsing them: every test worker makes it
while collecting, and ruamel's round-trip parse of the shipped files took a quarter of a
second of each worker's start. ``tests/scenario/test_scenario_plan.py`` checks that it is
the loader's split.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "scenarios").glob("*.yaml"))
"""Every shipped scenario file."""


def is_plan(path: Path) -> bool:
    """Whether the scenario file at ``path`` is a plan: a top-level ``tiers:`` key.

    The shipped files are block-style YAML, whose top-level keys start their lines.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    return any(line.split("#")[0].rstrip() == "tiers:" for line in lines)


PLANS = [path for path in SHIPPED if is_plan(path)]
"""The shipped plans of several tiers."""
SINGLE_AGGREGATE = [path for path in SHIPPED if not is_plan(path)]
"""The shipped single-aggregate scenarios."""
