"""A dRAID pool that leaves data drives' worth over says which widths would hold them.

A newcomer's small pool sized for 48 data drives took 2 pools, 25.6 drives' worth more than
asked, with nothing to say which width fits. Each width given is checked here: its pools
hold the data drives asked, and one child fewer would not (OpenZFS: a pool of C children,
s distributed spares, stripes of d data and p parity holds (C - s) x d / (d + p)).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli.app import app

TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
WIDTH = re.compile(r"(\d+) of (\d+) \(draid2:8d:(\d+)c:2s\)")


def _holds(children: int, pools: int) -> Fraction:
    return pools * Fraction((children - 2) * 8, 10)


@pytest.mark.parametrize(
    ("data_disks", "pools"), [(48, [1, 2]), (96, [1, 2, 3]), (600, [15, 16, 17])]
)
def test_each_width_said_holds_the_data_and_one_child_fewer_would_not(
    data_disks: int, pools: list[int]
) -> None:
    sets = ["--set", f"aggregate.data_disks={data_disks}"]
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), *sets, "--format", "markdown"])
    assert result.exit_code == 0, result.output
    note = next(line for line in result.output.splitlines() if "draid2:8d:48c:2s: a pool" in line)
    found = [(int(count), int(children)) for count, children, _ in WIDTH.findall(note)]
    assert all(children == named for _, children, named in WIDTH.findall(note))
    assert [count for count, _ in found] == pools, note
    for count, children in found:
        assert children <= 255  # OpenZFS's most children
        assert _holds(children, count) >= data_disks
        assert _holds(children - 1, count) < data_disks
