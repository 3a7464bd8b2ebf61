"""The recommend search is counted before it is built, and refused past a size (issue 21,
items 3 and 11).

1..255 in ``draid_data``/``draid_children``/``draid_spares`` asked for 8.2 million candidates
(14 GB, or "unexpected MemoryError" under a cap); lists of which no pool fits dropped every
pool without a word.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner.analysis.recommend import MAX_CANDIDATES
from planner.cli import app
from planner.core.design.candidates import SearchSpace, candidate_layouts, count_candidates

SCENARIO = """\
name: wide search
drive:
  arr: 2%
  latent_defects_per_hour: 1e-5
  capacity_tb: 10
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
target:
  max_p_loss: 0.01%
search:
  declustered: true
{search}
"""


def _flow(numbers: range) -> str:
    return "[" + ", ".join(str(n) for n in numbers) + "]"


WIDEST = (
    f"  draid_data: {_flow(range(1, 256))}\n  draid_children: {_flow(range(3, 256))}\n"
    f"  draid_spares: {_flow(range(0, 256))}"
)
"""The widest dRAID lists the file allows: 3.8 KB of YAML."""


def _pools_by_broadcast(
    parities: list[int], data: list[int], children: list[int], spares: list[int]
) -> int:
    """Pools with d + k <= C - s, counted over the whole grid at once (an independent way)."""
    d = np.array(data)[:, None, None]
    c = np.array(children)[None, :, None]
    s = np.array(spares)[None, None, :]
    return sum(int(np.count_nonzero(d + k <= c - s)) for k in parities if k <= 3)


def lists(low: int) -> st.SearchStrategy[list[int]]:
    """A draid_ list as the file allows (data from 1, children from 3, spares from 0)."""
    return st.lists(st.integers(low, 40), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    st.booleans(),
    st.lists(st.integers(1, 8), min_size=1, max_size=4),
    st.integers(2, 40),
    st.integers(0, 40),
    st.booleans(),
    lists(1),
    lists(3),
    lists(0),
)
def test_the_count_is_the_length_of_the_list(
    mirrors: bool,
    parities: list[int],
    low: int,
    span: int,
    declustered: bool,
    data: list[int],
    children: list[int],
    spares: list[int],
) -> None:
    space = SearchSpace(
        mirrors,
        tuple(parities),
        low,
        low + span,
        declustered,
        tuple(data),
        tuple(children),
        tuple(spares),
    )
    assert count_candidates(space).total == len(candidate_layouts(space))


def _write(tmp_path: Path, search: str) -> Path:
    path = tmp_path / "wide.yaml"
    path.write_text(SCENARIO.format(search=search), encoding="utf-8")
    return path


def test_a_huge_search_is_refused_with_its_count_and_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, WIDEST)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["recommend", "wide.yaml"])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    pools = _pools_by_broadcast(
        [1, 2, 3], list(range(1, 256)), list(range(3, 256)), list(range(0, 256))
    )
    assert pools > 8_000_000
    assert f"{pools:,} dRAID pools" in line
    assert f"(at most {MAX_CANDIDATES:,})" in line
    assert "search.draid_data" in line
    assert len(line) < 300


def test_the_refusal_comes_before_the_memory(tmp_path: Path) -> None:
    # Under a 1.5 GB address-space cap, building the 8.2 million candidates ends in
    # MemoryError; counting them first ends in the one line.
    path = _write(tmp_path, WIDEST)

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    out = subprocess.run(
        [sys.executable, "-m", "planner", "recommend", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        preexec_fn=capped,
    )
    assert out.returncode == 2, out.stderr
    assert "candidates (at most" in out.stderr


def test_pools_of_which_none_fits_are_named(tmp_path: Path) -> None:
    search = "  draid_data: [16]\n  draid_children: [12]\n  draid_spares: [1]"
    result = CliRunner().invoke(app, ["recommend", str(_write(tmp_path, search))])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert "no dRAID pool" in line
    assert "17 drives" in line  # 16 data + parity 1
    assert "11" in line  # 12 children less 1 spare
