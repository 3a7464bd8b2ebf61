"""The shipped scenarios: single-aggregate files, and plans of several tiers.

A test that checks every shipped scenario as one aggregate (``load_scenario``, the compare
table, the sweep of its drive) takes :data:`SINGLE_AGGREGATE`; a plan (a file with a
``tiers:`` list) is checked tier by tier and as a whole by the plan tests
(``tests/analysis/test_plan_totals.py``, ``tests/cli/test_cli_plan.py``,
``tests/tui/test_tui_tiers.py``), which load every file of :data:`PLANS`.
"""

from __future__ import annotations

from pathlib import Path

from planner.scenario.document import new_yaml

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "scenarios").glob("*.yaml"))
"""Every shipped scenario file."""


def is_plan(path: Path) -> bool:
    """Whether the scenario file at ``path`` is a plan (its top level has ``tiers``)."""
    top = new_yaml().load(path.read_text(encoding="utf-8"))
    return isinstance(top, dict) and "tiers" in top


PLANS = [path for path in SHIPPED if is_plan(path)]
"""The shipped plans of several tiers."""
SINGLE_AGGREGATE = [path for path in SHIPPED if not is_plan(path)]
"""The shipped single-aggregate scenarios."""
