"""One meaning of usable capacity (issue 20, item 5).

``target.usable_tb`` and ``workload.capacity_tb`` are the same amount of storable data: the
drive's usable fraction (default 0.9) applied once, so a 400 TB target asks for
ceil(400 / (20 x 0.9)) = 23 data drives of a 20 TB drive, whichever key asks, and in TB or
TiB (1 TiB = 2^40 bytes, 1 TB = 10^12 bytes).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.analysis.recommend import recommendation
from planner.cli import app
from planner.scenario import load_scenario

SHIPPED = Path(__file__).parents[2] / "scenarios" / "recommend-400tb.yaml"
WORKLOAD = """\
workload:
  # 20,000 host IOPS, 70 % reads (a plain workload: iops, read_fraction, capacity_tb).
  iops: 20000
  read_fraction: 0.7
  capacity_tb: 400
"""
TIB_OF_400_TB = 400e12 / 2**40  # 363.797... TiB


def _ways(tmp_path: Path, iops: str) -> dict[str, Path]:
    """The same 400 TB asked several ways, with ``iops`` host IOPS (0: capacity decides)."""
    limit = "  max_p_loss: 0.01%"
    workload = WORKLOAD.replace("iops: 20000", f"iops: {iops}")
    text = SHIPPED.read_text(encoding="utf-8").replace(WORKLOAD, workload)
    tib = f"{TIB_OF_400_TB!r} TiB"
    # the capacity moved to the target: the workload keeps its IOPS, or goes (0 IOPS)
    no_capacity = workload.replace("capacity_tb: 400", "capacity_tb: 0") if iops != "0" else ""
    texts = {
        "workload.capacity_tb": text,
        "workload.capacity_tb in TiB": text.replace("capacity_tb: 400", f"capacity_tb: {tib}"),
        "target.usable_tb": text.replace(workload, no_capacity).replace(
            limit, f"  usable_tb: 400\n{limit}"
        ),
        "target.usable_tb in TiB": text.replace(workload, no_capacity).replace(
            limit, f"  usable_tb: {tib}\n{limit}"
        ),
    }
    texts["target.usable_tb with a unit"] = text.replace(workload, no_capacity).replace(
        limit, f"  usable_tb: 400 TB\n{limit}"
    )
    ways = {}
    for i, (label, body) in enumerate(texts.items()):
        assert body != text or i == 0, label
        path = tmp_path / f"way{i}-{iops}.yaml"
        path.write_text(body, encoding="utf-8")
        ways[label] = path
    return ways


@pytest.mark.parametrize("iops", ["20000", "0"])
def test_the_same_400_tb_gives_the_same_recommendation_however_asked(
    tmp_path: Path, iops: str
) -> None:
    # failed first: without a workload, target.usable_tb 400 counted 20 TB a drive (raid-tp
    # 23) where workload.capacity_tb counted 18 (raid-tp 26), and TiB was refused.
    ways = _ways(tmp_path, iops)
    # Defects come from the workload's reads (h/defects): a workload of 0 IOPS reads nothing,
    # no workload reads NS3574's field figure. The same reads in every way keep the question
    # to capacity: the field figure, 1.125e10 bytes per drive-hour, when there are no IOPS.
    reads = ["drive.bytes_read_per_hour=1.125e10"] if iops == "0" else []
    found = {label: recommendation(load_scenario(path, reads)) for label, path in ways.items()}
    picks = {
        label: (r.top.layout.label, r.top.total_disks, [c.layout.label for c in r.meeting])
        for label, r in found.items()
        if r.top is not None
    }
    assert len(picks) == len(ways)
    assert len(set(map(str, picks.values()))) == 1, picks
    if iops == "0":
        # capacity decides: 23 data drives of 18 TB usable (20 TB x 0.9): raid-tp 26
        assert math.ceil(400 / (20 * 0.9)) == 23
        assert next(iter(picks.values()))[:2] == ("raid-tp 26", 26)


def test_usable_fraction_is_honoured_by_set(tmp_path: Path) -> None:
    # failed first: --set drive.usable_fraction was accepted and ignored for target.usable_tb
    path = _ways(tmp_path, "0")["target.usable_tb"]
    runner = CliRunner()
    picks = {}
    for fraction in ("1", "0.9", "0.5"):
        result = runner.invoke(
            app,
            ["recommend", str(path), "-f", "json", "--set", f"drive.usable_fraction={fraction}"],
        )
        assert result.exit_code == 0, result.stderr
        picks[fraction] = result.stdout
    drives = {f: json.loads(t)["recommended"]["total_disks"] for f, t in picks.items()}
    # 400 TB of 20 TB drives: 20, 23 and 40 data drives, + 3 parity a group (raid-tp; 40
    # data drives take two groups of 20 + 3: the search's groups hold at most 30 drives)
    assert drives == {"1": 23, "0.9": 26, "0.5": 46}


def test_evaluate_counts_usable_tb_with_the_usable_fraction(tmp_path: Path) -> None:
    # failed first: evaluate's Usable TB was data drives x drive.capacity_tb (no fraction)
    path = _ways(tmp_path, "0")["target.usable_tb"]
    scenario = load_scenario(path)
    raid6 = comparison(scenario).results[0]  # RAID 6 (10+2) over 24 data drives: 3 groups
    assert raid6.usable_tb == pytest.approx(3 * 10 * 20 * 0.9, rel=1e-12)
    scenario = load_scenario(path, ["drive.usable_fraction=0.8"])
    assert comparison(scenario).results[0].usable_tb == pytest.approx(3 * 10 * 20 * 0.8)


def test_evaluate_says_when_the_target_asks_for_other_data_drives(tmp_path: Path) -> None:
    """20 data drives of 20 TB beside target.usable_tb: 400 (a newcomer's "400 TB"): the
    table is of 20 drives, 360 TB usable, and recommend sizes for 23; evaluate's notes say
    so. With the drives the target takes, no note."""
    wanted = math.ceil(400 / (20 * 0.9))  # 23 data drives of 18 TB usable
    for data_disks, said in ((20, True), (wanted, False)):
        path = tmp_path / f"s{data_disks}.yaml"
        path.write_text(
            "name: 400 TB\nmission_years: 5\ndrive: {model: nl-sas-20tb, arr: 1%}\n"
            "restore: {scrub_hours: 168}\n"
            f"aggregate: {{data_disks: {data_disks}}}\n"
            "layouts: [{raid: raid6, group_size: 12}]\n"
            "target: {usable_tb: 400, max_p_loss: 0.01%}\n",
            encoding="utf-8",
        )
        assert load_scenario(path).aggregate.data_disks == data_disks
        result = CliRunner().invoke(app, ["evaluate", str(path), "--format", "markdown"])
        assert result.exit_code == 0, result.output
        words = " ".join(result.stdout.split())
        assert ("target.usable_tb" in words) == said, words[-600:]
        if said:
            assert f"takes {wanted} data drives of 18 TB usable" in words
            assert "aggregate.data_disks, 20 (360.0 TB)" in words
