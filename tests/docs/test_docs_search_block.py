"""docs/recommend.md's ``search:`` block says each key's default, and says it right.

The block was headed "these are the defaults" while it set ``raidz: false``,
``declustered: true`` and ``write_penalty: 1``: the third newcomer pasted it into a ZFS
scenario and got a hardware RAID recommendation. Each key now carries its default after
``#``; the ones that are plain values are checked against the scenario model's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from planner.scenario.target import SearchSpec

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "recommend.md").read_text(encoding="utf-8")


def test_every_plain_default_in_the_block_is_the_models() -> None:
    block = PAGE[PAGE.index("search:  ") :].split("```")[0]
    defaults = dict(re.findall(r"^  (\w+): .*# default: (\[[^\]]*\]|true|false)$", block, re.M))
    assert set(defaults) >= {"mirrors", "parity", "group_sizes", "draid_data", "draid_spares"}
    for key, text in defaults.items():
        assert json.loads(text) == SearchSpec.model_fields[key].default, key
    assert "these are the defaults" not in block
