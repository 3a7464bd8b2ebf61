"""``planner fit`` end to end: the shipped example's truth recovered, the JSON contract, the
formats, the snippet loading into a real scenario, and one-line errors for bad logs."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import load_scenario_text

# every module that fits with lifelines runs on one worker: only that worker imports it
# and pandas (~1.7 s of CPU; make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("lifelines")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "fleet-log-example.csv"
DEFAULT = ROOT / "scenarios" / "ns3574-default.yaml"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_fleet_log", ROOT / "scripts" / "make_fleet_log.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def fit_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["fit", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    return fit_json(str(EXAMPLE))


def small_log(tmp_path: Path, rows: str, name: str = "log.csv") -> Path:
    path = tmp_path / name
    path.write_text("hours,failed\n" + rows, encoding="utf-8")
    return path


def test_the_shipped_example_is_what_the_script_writes() -> None:
    assert _script().fleet_log() == EXAMPLE.read_text(encoding="utf-8")


def test_the_fit_of_the_example_recovers_its_truth(example: dict[str, Any]) -> None:
    script = _script()
    models = {entry["model"]: entry for entry in example["models"]}
    assert set(models) == set(script.MODELS)
    for name, (shape, scale) in script.MODELS.items():
        weibull = models[name]["weibull"]
        assert weibull["shape_ci"][0] <= shape <= weibull["shape_ci"][1], name
        assert weibull["scale_hours_ci"][0] <= scale <= weibull["scale_hours_ci"][1], name
    degraded = example["degraded_multiplier"]
    low, high = degraded["multiplier_ci"]
    assert low <= script.DEGRADED_MULTIPLIER <= high
    assert degraded["window_hours"] == script.WINDOW_HOURS
    # wear-out shows as ARR rising with the year of service
    by_year = [row["arr"] for row in example["arr_by_year"]]
    assert by_year[0] < by_year[2]


def test_the_json_contract(example: dict[str, Any]) -> None:
    assert list(example)[:8] == [
        "log", "drives", "failures", "drive_hours", "exponential", "weibull",
        "weibull_note", "arr_by_year",
    ]  # fmt: skip
    exponential, weibull = example["exponential"], example["weibull"]
    assert set(exponential) >= {"arr", "arr_ci", "rate_per_hour", "rate_per_hour_ci"}
    assert set(weibull) == {"shape", "shape_ci", "scale_hours", "scale_hours_ci"}
    assert exponential["arr"] == pytest.approx(
        example["failures"] / example["drive_hours"] * 8760, rel=1e-12
    )
    low, high = exponential["arr_ci"]
    assert low < exponential["arr"] < high
    assert set(example["arr_by_year"][0]) >= {"year", "failures", "drive_years", "arr", "arr_ci"}
    assert set(example["degraded_multiplier"]) >= {"multiplier", "multiplier_ci", "window_hours"}
    assert example["snippet"].count("\ndrive:\n") == 1
    assert {"model", "exponential", "weibull", "snippet"} <= set(example["models"][0])


def _into_scenario(snippet: str) -> str:
    """The default scenario with the snippet's keys put in, as a user pasting it would."""
    yaml = YAML(typ="safe", pure=True)
    scenario = yaml.load(DEFAULT.read_text(encoding="utf-8"))
    pasted = yaml.load(snippet)
    scenario["drive"].pop("arr")
    scenario["drive"].update(pasted["drive"])
    for section in ("distributions", "ageing"):
        if section in pasted:
            scenario[section] = pasted[section]
    out = __import__("io").StringIO()
    yaml.dump(scenario, out)
    return out.getvalue()


def test_the_snippet_loads_into_a_real_scenario_and_evaluates(
    example: dict[str, Any], tmp_path: Path
) -> None:
    model = example["models"][1]
    text = _into_scenario(model["snippet"])
    scenario = load_scenario_text(text, source="pasted")
    assert scenario.drive.arr == pytest.approx(model["exponential"]["arr"], rel=5e-3)
    assert scenario.distributions is not None
    law = scenario.distributions.to_core(scenario.rates()).operational_failure
    assert law.shape == pytest.approx(model["weibull"]["shape"], rel=5e-3)
    assert law.scale_hours == pytest.approx(model["weibull"]["scale_hours"], rel=5e-3)
    path = tmp_path / "pasted.yaml"
    path.write_text(text, encoding="utf-8")
    assert scenario.ageing is not None
    assert scenario.ageing.weibull is not None
    assert scenario.ageing.weibull.shape == law.shape
    assert scenario.ageing.weibull.scale_hours == law.scale_hours
    result = CliRunner().invoke(app, ["evaluate", str(path), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["inputs"]["arr"] == scenario.drive.arr
    assert document["layouts"][0]["p_loss_aggregate_ageing"] > 0
    # the ARR by year of service, uncommented in place of the Weibull, loads too
    table = (
        model["snippet"]
        .replace("\nageing:\n  weibull:", "\nageing:\n  # weibull:")
        .replace("  # or by year of service: arr_by_year:", "  arr_by_year:")
    )
    by_year = load_scenario_text(_into_scenario(table), source="pasted").ageing
    assert by_year is not None
    assert by_year.arr_by_year == pytest.approx([y["arr"] for y in model["arr_by_year"]], rel=5e-3)
    multiplier = example["degraded_multiplier"]["multiplier"]
    assert f"#   degraded_multiplier: {multiplier:.3g}" in example["snippet"]


def test_table_markdown_and_csv(tmp_path: Path) -> None:
    log = small_log(tmp_path, "".join(f"{h},{h % 3 == 0:d}\n" for h in range(100, 9000, 37)))
    table = CliRunner().invoke(app, ["fit", str(log)])
    assert table.exit_code == 0, table.stderr
    assert "Weibull shape" in table.stdout
    assert "ARR, year 2" in table.stdout
    assert "Paste into a scenario:" in table.stdout
    assert "\ndrive:\n  arr: " in table.stdout
    markdown = CliRunner().invoke(app, ["fit", str(log), "-f", "markdown"])
    assert "| Drives | Figure | Estimate | 95% low | 95% high |" in markdown.stdout
    assert "```yaml\n# planner fit" in markdown.stdout
    text = tmp_path / "fit.txt"
    written = CliRunner().invoke(app, ["fit", str(log), "-o", str(text)])
    assert written.exit_code == 0
    assert written.stdout == ""
    written_text = text.read_text(encoding="utf-8")
    assert "Weibull shape" in written_text  # every column, no colour, and the snippet
    assert "\ndrive:\n  arr: " in written_text
    assert "\x1b[" not in written_text
    out = tmp_path / "fit.csv"
    written = CliRunner().invoke(app, ["fit", str(log), "-f", "csv", "-o", str(out)])
    assert written.exit_code == 0
    assert written.stdout == ""
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"# Log: {log}; degraded window 168 h")
    assert lines[1] == "subset,figure,estimate,ci_low,ci_high,failures,drive_years"
    assert lines[2].startswith("all drives,arr,")


def test_a_log_without_failures_gives_an_upper_bound(tmp_path: Path) -> None:
    document = fit_json(str(small_log(tmp_path, "8760,0\n" * 100)))
    exponential = document["exponential"]
    assert exponential["arr"] == 0
    assert exponential["upper_bound_only"] is True
    # 100 drive-years and no failure: below -ln(0.025)/100 per year at 95% (two-sided)
    assert exponential["arr_ci"][1] == pytest.approx(3.6888794541139363 / 100)
    assert document["weibull"] is None
    assert "2 different times" in document["weibull_note"]
    assert "only an upper bound" in " ".join(document["notes"])
    scenario = load_scenario_text(_into_scenario(document["snippet"]), source="pasted")
    assert scenario.drive.arr == pytest.approx(0.0369)


@pytest.mark.parametrize(("hours", "key"), [(3000, "mtbf_hours"), (200, None)])
def test_an_arr_of_100_percent_or_more_is_written_as_mtbf_or_left_out(
    tmp_path: Path, hours: int, key: str | None
) -> None:
    rows = "".join(f"{hours + i},1\n" for i in range(20))  # every drive failed
    document = fit_json(str(small_log(tmp_path, rows)))
    assert document["exponential"]["arr"] > 1
    assert document["weibull"] is not None
    snippet = document["snippet"]
    if key is None:
        assert "\ndrive:" not in snippet
        assert "outside what a scenario accepts" in snippet
        return
    scenario = load_scenario_text(_into_scenario(snippet), source="pasted")
    assert scenario.drive.mtbf_hours == pytest.approx(
        document["exponential"]["mean_life_hours"], rel=5e-3
    )


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("100,0\n200,yes\n", "log.csv:3: column 'failed': 'yes' is not 0 or 1"),
        ("100,0\n-5,1\n", "log.csv:3: column 'hours': '-5' is not a finite number of hours"),
        ("", "log.csv: the log has a header but no drives"),
    ],
)
def test_a_bad_log_is_one_line_with_exit_code_2(tmp_path: Path, rows: str, message: str) -> None:
    path = small_log(tmp_path, rows)
    result = CliRunner().invoke(app, ["fit", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"planner: error: {tmp_path}/{message}")


def test_a_log_too_large_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with open(path, "wb") as handle:
        handle.truncate(64_000_001)  # sparse
    result = CliRunner().invoke(app, ["fit", str(path)])
    assert result.exit_code == 2
    assert "the log has more than 64,000,000 bytes" in result.stderr


def test_the_output_may_not_replace_the_log(tmp_path: Path) -> None:
    path = small_log(tmp_path, "10,1\n20,1\n30,0\n")
    result = CliRunner().invoke(app, ["fit", str(path), "-o", str(path)])
    assert result.exit_code == 2
    assert "the scenario file this command reads" in result.stderr
    assert path.read_text(encoding="utf-8").startswith("hours,failed\n")


def test_without_lifelines_fit_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "lifelines" else real(name, *a),
    )
    result = CliRunner().invoke(app, ["fit", str(small_log(tmp_path, "10,1\n"))])
    assert result.exit_code == 2
    assert "pip install -e '.[fit]'" in result.stderr


def test_the_page_shows_what_the_fit_of_the_example_gives(example: dict[str, Any]) -> None:
    from planner.report.numbers import format_count

    page = (ROOT / "docs" / "fit.md").read_text(encoding="utf-8")

    def row(figure: dict[str, Any], key: str, unit: str = "") -> str:
        low, high = (format_count(v, 3) for v in figure[f"{key}_ci"])
        return f"| {format_count(figure[key], 3)}{unit} | {low} to {high}{unit} |"

    for model in example["models"]:
        name, weibull = model["model"], model["weibull"]
        assert row(weibull, "shape") in page.split(f"| {name} shape |")[1].split("\n")[0]
        scale_line = page.split(f"| {name} scale |")[1].split("\n")[0]
        assert row(weibull, "scale_hours", " h") in scale_line
    multiplier = page.split("| degraded multiplier (168 h) |")[1].split("\n")[0]
    assert row(example["degraded_multiplier"], "multiplier") in multiplier


def test_a_small_log_suggests_nothing_a_scenario_refuses(tmp_path: Path) -> None:
    """Newcomer review: 18 drives, one failure with no group-mate down. The snippet offered
    ``degraded_multiplier: 0``, which a scenario refuses (1 is independent drives), and the
    title read "1 failures"."""
    rows = ["hours,failed,model,group,installed_at_hours"]
    rows += ["43800,0,hdd-a,g1,0"] * 8
    rows += ["36000,1,hdd-b,g2,0", "7800,0,hdd-b,g2,36000"]  # the failed drive's replacement
    rows += ["43800,0,hdd-b,g2,0"] * 8
    log = tmp_path / "small.csv"
    log.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fit", str(log)])
    assert result.exit_code == 0, result.stderr
    words = " ".join(result.stdout.split())  # the title may wrap
    assert "1 failures" not in words
    assert "18 drives, 1 failure," in words
    assert "no correlation: section is suggested" in words
    suggested = [line for line in result.stdout.splitlines() if "degraded_multiplier:" in line]
    for line in suggested:
        value = float(line.split("degraded_multiplier:")[1].split()[0])
        assert value >= 1, line
    snippet = fit_json(str(log))["snippet"]
    assert "degraded_multiplier: 0" not in snippet


def test_the_snippet_fits_an_80_column_terminal(example: dict[str, Any]) -> None:
    """A newcomer found comment lines of 82-88 characters that wrapped when pasted."""
    relative = CliRunner().invoke(app, ["fit", "scenarios/fleet-log-example.csv", "-f", "json"])
    assert relative.exit_code == 0, relative.stderr
    document = json.loads(relative.stdout)
    for snippet in [document["snippet"], *(m["snippet"] for m in document["models"])]:
        long = [line for line in snippet.splitlines() if len(line) > 80]
        assert not long, long
    assert example["snippet"].startswith(f"# planner fit {EXAMPLE}\n# all drives: 8,968 drives")


def test_a_multiplier_from_few_window_failures_is_called_rough(tmp_path: Path) -> None:
    """A ZFS admin's log gave a degraded multiplier of 7.93x from one failure in a window
    (95%: 0.19x to 48x), said like any other figure; the Weibull fit of 9 failures was
    called rough. The multiplier from fewer than 10 window failures is too, in the notes
    and the pasted snippet (failed first); the example log's 27 are not."""
    rows = ["hours,failed,group"]
    rows += [f"20000,0,g{g}" for g in range(40) for _ in range(8)]
    rows += ["5000,1,g0", "5100,1,g0", "9000,1,g1", "15000,1,g2"]  # one pair 100 h apart
    log = tmp_path / "log.csv"
    log.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fit", str(log)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    words = " ".join(result.stdout.split())
    assert "Only 1 failure in a degraded window: the multiplier's 95% interval is" in words
    assert "# (from 1 failure(s) in a window only: a rough figure)" in result.stdout
    example = CliRunner().invoke(app, ["fit", str(EXAMPLE)], env={"COLUMNS": "250"})
    assert "in a degraded window" not in example.stdout
    assert "rough figure" not in example.stdout
