"""``planner report``: the design-review document, its pictures, and how it renders."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from markdown_it import MarkdownIt
from typer.testing import CliRunner

from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.cli import app
from planner.scenario import load_default_scenario

ROOT = Path(__file__).resolve().parents[2]


def _html(markdown: str) -> str:
    # GitHub-flavoured enough: CommonMark with tables, as GitHub renders a .md file
    return MarkdownIt("commonmark").enable("table").render(markdown)


def test_report_writes_the_document_and_its_pictures(tmp_path: Path) -> None:
    target = tmp_path / "review.md"
    result = CliRunner().invoke(app, ["report", "-o", str(target), "--time-budget", "0.1"])
    assert result.exit_code == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    for image in ("review-front.svg", "review-sweep.svg"):
        path = tmp_path / image
        assert ET.parse(path).getroot().tag.endswith("svg")
        assert f"]({image})" in text  # linked relative to the document
    top = recommendation(load_default_scenario(), fallback_target=DEFAULT_TARGET).top
    assert top is not None
    assert f"Recommended: {top.layout.label}:" in text
    assert f"## Sensitivity of {top.layout.label}" in text
    for section in (
        "## Recommendation",
        "## Inputs and their sources",
        "## The layouts compared",
        "## Cost against risk",
        "## Group size and parity",
        "## Methods cross-check",
    ):
        assert section in text
    assert "Simulation, exponential" in text
    # a section's heading says it once: the tornado and the cross-check bring no title of
    # their own under it (the sensitivity's read "### <scenario>: sensitivity of ...")
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert not any(
        h.lower().endswith((f"sensitivity of {top.layout.label}", "methods compared"))
        for h in headings
        if h.startswith("### ")
    ), headings
    html = _html(text)
    # every Markdown table became an HTML table: comparison, meeting, front, tornado, methods
    assert html.count("<table>") == 5
    assert not re.search(r"^\|", re.sub(r"<[^>]+>", "", html), re.MULTILINE)
    assert '<img src="review-front.svg"' in html
    assert '<img src="review-sweep.svg"' in html


def test_a_folder_that_does_not_exist_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "review.md"
    result = CliRunner().invoke(app, ["report", "-o", str(target)])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "missing").exists()


def test_a_workload_scenario_compares_the_sized_aggregates(tmp_path: Path) -> None:
    # the recommendation sizes for the workload; the comparison must too (review fault 1)
    from planner.analysis.design import REPORT_SIMULATION, design_report
    from planner.report.design import to_markdown
    from planner.scenario import load_scenario

    scenario = load_scenario(ROOT / "scenarios" / "recommend-400tb.yaml")
    settings = replace(REPORT_SIMULATION, time_budget_seconds=0.1)  # the sizes are read
    gathered = design_report(scenario, (), settings)
    top = gathered.recommendation.top
    assert top is not None
    text = to_markdown(gathered, None, None)
    compared = text.split("## The layouts compared")[1].split("## Cost against risk")[0]
    row = next(line for line in compared.splitlines() if line.startswith(f"| {top.layout.label}"))
    assert f"| {top.total_disks:,} |" in row
    # evaluate's "not sized for the workload" is false of this review (a newcomer's find)
    assert "Not sized for the workload" not in text


def test_no_target_section_is_said_once() -> None:
    """A newcomer's review: the opening sentence said it twice ("The scenario has no
    `target:` section: this report looks for ... (by default: the scenario has no target:
    section)") and the summary under it a third time.

    The document goes to stdout: the same text, without drawing the two pictures (~1 s).
    """
    scenario = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
    result = CliRunner().invoke(app, ["report", str(scenario), "-o", "-", "--time-budget", "0.1"])
    assert result.exit_code == 0, result.stderr
    assert "target" not in result.stderr
    text = result.stdout
    said = re.findall(r"no `?target:`? section", text)
    assert said == ["no `target:` section"], said
    assert "by default" not in text


def test_a_workload_review_says_one_figure_for_its_choice(tmp_path: Path) -> None:
    """The newcomer's review of recommend-400tb: the recommendation read 0.0016% (the
    sized aggregate, 134 groups) and the cross-check 0.00029% (the file's 24 data drives);
    the inputs section gave the spec sheet's and the bound's figures of that other aggregate
    beside the recommendation's own."""
    scenario = ROOT / "scenarios" / "recommend-400tb.yaml"
    target = tmp_path / "review.md"
    args = ["report", str(scenario), "-o", str(target), "--time-budget", "0.1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    recommended = re.search(r"Recommended: (\S+ \d+): [\d,]+ drives.*?, P\(loss\) ([\d.]+%)", text)
    assert recommended is not None
    label, p_loss = recommended.groups()
    exact = re.search(rf"\| {re.escape(label)} \| Markov, exact \|.*\| ([\d.]+%) \|\n", text)
    assert exact is not None
    assert exact.group(1) == p_loss  # the cross-check's aggregate is the one recommended
    inputs = text.split("## Inputs and their sources", 1)[1].split("\n## ", 1)[0]
    assert "web RAID calculators" not in inputs
    assert "NS3574's chain does not count" not in inputs


def test_the_review_sizes_the_choice_at_the_searchs_write_penalty() -> None:
    """The third newcomer: with search.write_penalty: 1 the review recommended raid-tp 17 at
    17 drives and then compared (and analysed) it at the preset's 8, 102 drives."""
    from planner.analysis.design import REPORT_SIMULATION, design_report
    from planner.report.design import to_markdown
    from planner.scenario import load_scenario

    sets = ["target.max_p_loss=1e-4", "search.write_penalty=1"]
    scenario = load_scenario(ROOT / "scenarios" / "ns3574-table9-250mb.yaml", sets)
    settings = replace(REPORT_SIMULATION, time_budget_seconds=0.1)
    gathered = design_report(scenario, sets, settings)
    top = gathered.recommendation.top
    assert top is not None
    text = to_markdown(gathered, None, None)
    compared = text.split("## The layouts compared")[1].split("## Cost against risk")[0]
    row = next(line for line in compared.splitlines() if line.startswith(f"| {top.layout.label}"))
    assert f"| {top.total_disks:,} |" in row, row
    assert "| 1 |" in row  # its write penalty, the search's
