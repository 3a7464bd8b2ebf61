"""docs/simulation.md's JSON example keeps the rule the page states above it.

The page says a conditional or biased run stops on its relative error after 15,000 trials
at the earliest; its example showed a conditional run stopped by ``rel_error`` after 3,500
(a newcomer's find: every real run showed 15,500 or more).
"""

from __future__ import annotations

import re
from pathlib import Path

from planner.core.simulation.estimate import MIN_TRIALS_REL_ERROR

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "simulation.md").read_text(encoding="utf-8")


def test_the_weighted_example_ran_past_the_floor() -> None:
    block = re.search(r"```json\n(.*?)```", PAGE, re.DOTALL)
    assert block is not None
    text = block[1]
    assert '"method": "conditional"' in text
    assert '"stopped_by": "rel_error"' in text
    trials = re.search(r'"trials": (\d+)', text)
    assert trials is not None
    assert int(trials[1]) >= MIN_TRIALS_REL_ERROR == 15_000
    assert f"{MIN_TRIALS_REL_ERROR:,} trials at the earliest" in " ".join(PAGE.split())
