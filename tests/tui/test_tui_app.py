"""Pilot tests that drive the real planner TUI on a fixed, commented scenario file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pilot_helpers import (
    SCENARIO,
    app_of,
    field_input,
    open_add_dialog,
    record_notifications,
    retype,
    settle,
)
from textual.widgets import DataTable, Input, Static

from planner.analysis.compare import compare_data, comparison
from planner.analysis.derivation import chain_transitions
from planner.analysis.inputs import scenario_inputs
from planner.report.comparison import notes, to_markdown
from planner.scenario import load_scenario
from planner.tui import PlannerApp, make_app
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import AddLayoutScreen, HelpScreen, UnsavedChangesScreen
from planner.tui.footer import KeyFooter
from planner.tui.model_view import SIDE_BY_SIDE_WIDTH, ModelView
from planner.tui.params import ParamsPanel
from planner.tui.simulation_line import SimulationLine
from planner.tui.sweep_view import SweepView
from planner.tui.tornado import SensitivityView

SIZE = (120, 40)

pytestmark = pytest.mark.asyncio


def table_labels(app: PlannerApp) -> list[str]:
    table = app.query_one("#compare-table", DataTable)
    return [str(key.value) for key in table.rows]


async def test_the_fields_take_good_text_and_refuse_the_rest() -> None:
    """One session through the parameter fields (each part was a session of its own).

    The cursor starts in the ARR field; out-of-range values say why and change nothing; a
    higher ARR raises every probability of loss; ARR as a fraction is accepted; text that
    is no number is marked while the old results stay, and fixing it recomputes.
    """
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # The cursor starts in the ARR field.
        assert app.focused is field_input(app, "drive-arr")
        assert field_input(app, "drive-arr").value == "1.9%"
        assert table_labels(app) == ["raid5 8", "raid-dp 9", "raid6 16", "triple 12"]

        # Ctrl+U empties a field: refused, a value is required.
        await pilot.press("end", "ctrl+u")
        await settle(pilot)
        assert field_input(app, "drive-arr").value == ""
        assert "required" in app.field_errors["drive-arr"]
        assert field_input(app, "drive-arr").has_class("-invalid")

        # Out-of-range values say why.
        await retype(pilot, "drive-arr", "5")
        assert "did you mean 5%?" in app.field_errors["drive-arr"]
        await retype(pilot, "aggregate-data-disks", "4.5")
        assert "whole number" in app.field_errors["aggregate-data-disks"]
        await retype(pilot, "restore-scrub-hours", "0")
        assert "must be at least 0.001" in app.field_errors["restore-scrub-hours"]
        assert app.scenario.drive.arr == pytest.approx(0.019)
        # The file's values typed back: nothing refused, the scenario as it was.
        await retype(pilot, "drive-arr", "1.9%")
        await retype(pilot, "aggregate-data-disks", "42")
        await retype(pilot, "restore-scrub-hours", "168")
        assert app.field_errors == {}
        assert app.scenario == app.saved_scenario

        # A higher ARR raises every probability of loss.
        assert app.comparison is not None
        before = {r.layout.label: r for r in app.comparison.results}
        shown_before = app.query_one("#compare-table", DataTable).get_row("raid5 8")
        await retype(pilot, "drive-arr", "4%")
        assert app.scenario.drive.arr == pytest.approx(0.04)
        after = {r.layout.label: r for r in app.comparison.results}
        assert set(after) == set(before)
        for label, result in after.items():
            assert result.p_loss_group > before[label].p_loss_group
            assert result.p_loss_aggregate > before[label].p_loss_aggregate
        # The table on screen follows.
        table = app.query_one("#compare-table", DataTable)
        shown_after = table.get_row("raid5 8")
        headers = [" ".join(str(c.label).split()) for c in table.columns.values()]
        aggregate = headers.index("P(loss) aggregate")
        assert str(shown_after[aggregate]) != str(shown_before[aggregate])

        # ARR as a fraction is accepted too.
        await retype(pilot, "drive-arr", "0.03")
        assert app.scenario.drive.arr == pytest.approx(0.03)
        assert app.field_errors == {}

        # Text that is no number is marked, and the old results stay.
        comparison = app.comparison
        scenario = app.scenario
        # As if "abc" were pasted over the value, then typed on.
        field_input(app, "restore-rebuild-hours").value = "ab"
        field_input(app, "restore-rebuild-hours").focus()
        await pilot.press("end", "c")
        await settle(pilot)
        assert field_input(app, "restore-rebuild-hours").value == "abc"
        assert app.field_errors.keys() == {"restore-rebuild-hours"}
        assert "'abc' is not a number" in app.field_errors["restore-rebuild-hours"]
        errors = app.query_one("#param-errors", Static)
        assert errors.display
        assert "Rebuild h: 'abc' is not a number" in str(errors.render())
        assert field_input(app, "restore-rebuild-hours").has_class("-invalid")
        assert app.scenario is scenario
        assert app.comparison is comparison
        assert table_labels(app) == ["raid5 8", "raid-dp 9", "raid6 16", "triple 12"]
        # Fixing the text clears the mark and recomputes.
        await retype(pilot, "restore-rebuild-hours", "30")
        assert app.field_errors == {}
        assert not errors.display
        assert app.scenario.restore.rebuild_hours == 30
        assert app.comparison is not comparison


async def test_layouts_are_refused_sorted_rebased_added_and_removed() -> None:
    """One session through the compare table's keys (each part was a session of its own).

    A bad layout is refused inside the dialog; s sorts by risk, then by overhead (and back
    to the file's order); b makes the layout under the cursor the baseline; the dialog adds
    a preset, a parity layout and a declustered pool, and x removes one.
    """
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # A bad layout is refused inside the dialog.
        app.query_one("#compare-table", DataTable).focus()
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("2", "enter")  # RAID 6 in groups of 2: no room for data
        await settle(pilot)
        assert isinstance(app.screen, AddLayoutScreen)
        assert "group_size must be at least 3" in str(
            app.screen.query_one("#add-error", Static).render()
        )
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, AddLayoutScreen)
        assert len(app.scenario.layouts) == 4

        # Sort by risk, then by overhead.
        app.query_one("#compare-table", DataTable).focus()
        await pilot.press("s")
        await settle(pilot)
        assert table_labels(app) == ["triple 12", "raid-dp 9", "raid6 16", "raid5 8"]
        await pilot.press("s")
        await settle(pilot)
        # Overhead 6, 6, 12, 15 drives; the tie goes to the lower risk.
        assert table_labels(app) == ["raid6 16", "raid5 8", "raid-dp 9", "triple 12"]
        await pilot.press("s")  # the third key: the file's order again
        await settle(pilot)
        assert table_labels(app) == ["raid5 8", "raid-dp 9", "raid6 16", "triple 12"]

        # Choose the baseline.
        table = app.query_one("#compare-table", DataTable)
        table.focus()
        table.move_cursor(row=2)  # raid6 16
        await pilot.press("b")
        await settle(pilot)
        assert app.comparison is not None
        assert app.comparison.baseline == "raid6 16"
        by_label = {r.layout.label: r for r in app.comparison.results}
        assert by_label["raid6 16"].relative_risk_aggregate == 1.0
        assert by_label["raid-dp 9"].relative_risk_aggregate < 1.0
        assert str(table.get_row("raid6 16")[0]).startswith("◆")

        # Add a preset and a parity layout, then remove one.
        await open_add_dialog(pilot)
        await pilot.press("2", "0", "enter")  # RAID 6 is preselected
        await settle(pilot)
        assert table_labels(app)[-1] == "raid6 20"
        # The cursor goes to the layout just added: an x right after removed the layout
        # under the old cursor (newcomer review).
        assert app.query_one(CompareView).selected_label == "raid6 20"

        dialog = await open_add_dialog(pilot)
        dialog.query_one("#add-preset").value = "custom"  # type: ignore[attr-defined]
        await settle(pilot)
        dialog.query_one("#add-parity", Input).value = "4"
        dialog.query_one("#add-size", Input).value = "14"
        await pilot.click("#add-ok")
        await settle(pilot)
        assert table_labels(app)[-1] == "n+4 14"
        result = next(r for r in app.comparison.results if r.layout.label == "n+4 14")  # type: ignore[union-attr]
        assert result.layout.parity == 4
        assert result.shape.groups == 5  # ceil(42 / 10)

        # A declustered pool: the data and spares inputs open for dRAID presets only.
        dialog = await open_add_dialog(pilot)
        assert dialog.query_one("#add-spares", Input).disabled
        dialog.query_one("#add-preset").value = "draid2"  # type: ignore[attr-defined]
        await settle(pilot)
        assert not dialog.query_one("#add-spares", Input).disabled
        dialog.query_one("#add-size", Input).value = "24"
        dialog.query_one("#add-data", Input).value = "4"
        dialog.query_one("#add-spares", Input).value = "1"
        await pilot.click("#add-ok")
        await settle(pilot)
        assert table_labels(app)[-1] == "draid2:4d:24c:1s"
        pool = next(r for r in app.comparison.results if r.layout.label == "draid2:4d:24c:1s")  # type: ignore[union-attr]
        # a 12 h rebuild: w / (C - 1) x 1.35 x (1 + d / 13.4) of it (docs/declustered.md),
        # and a spare taken by another failure a tiny share of the time
        resilver = 12.0 * (4 + 2) / (24 - 1) * 1.35 * (1 + 4 / 13.4)
        assert pool.rebuild_hours == pytest.approx(resilver, rel=5e-3)
        assert pool.shape.groups == 3  # ceil(42 / (23 x 4 / 6 = 15.33))
        table = app.query_one("#compare-table", DataTable)
        headers = " ".join(str(column.label) for column in table.columns.values())
        notes = str(app.query_one("#compare-notes", Static).render())
        # The pool's column: shown, or named among those left out at 120 columns (the
        # pool's long label widens the table).
        assert (
            "lost k+1" in headers
            or "Stripes lost on k+1" in notes.split("Not shown at this width")[1]
        )

        # Remove the layout under the cursor (the last one).
        # Each removal is said, and the cursor stays by the removed row (it went back to
        # the first row, so a second x removed the wrong layout: newcomer review).
        notices = record_notifications(app)
        table = app.query_one("#compare-table", DataTable)
        table.focus()
        table.move_cursor(row=table.row_count - 1)
        await pilot.press("x")
        await settle(pilot)
        assert "draid2:4d:24c:1s" not in table_labels(app)
        assert len(app.scenario.layouts) == 6
        assert table.cursor_row == table.row_count - 1  # the new last row
        assert notices == ["Removed draid2:4d:24c:1s"]
        labels = table_labels(app)
        table.move_cursor(row=1)
        await pilot.press("x")
        await settle(pilot)
        assert table_labels(app) == [labels[0], *labels[2:]]
        assert table.cursor_row == 1  # the row below the removed one
        assert notices[-1] == f"Removed {labels[1]}"


async def test_save_keeps_comments_and_reload_reads_the_saved_values(
    scenario_copy: Path,
) -> None:
    original = scenario_copy.read_text(encoding="utf-8")
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        await retype(pilot, "drive-arr", "4%")
        await retype(pilot, "restore-rebuild-hours", "30")
        table = app.query_one("#compare-table", DataTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("x")  # drop raid5 8 (its comment goes with it)
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
    saved = scenario_copy.read_text(encoding="utf-8")
    for comment in (
        "# A fixed scenario for the TUI tests: the paper's aggregate of 42 data disks.",
        "# Comments here must survive a save from the TUI.",
        "mission_years: 5   # years of 8,760 h",
        "scrub_hours: 168    # one week",
        "  - raid: raid-dp       # Table 4's baseline",
        "    label: triple 12    # a label of our own",
    ):
        assert comment in saved
    assert "arr: 4%" in saved
    assert "rebuild_hours: 30" in saved
    assert "# 6 groups of 7+1" not in saved
    # Key order as written; only the changed lines differ.
    changed = [line for line in saved.splitlines() if line not in original.splitlines()]
    assert changed == [
        "  arr: 4%                         # the paper's ARR",
        "  rebuild_hours: 30   # hours",
    ]
    reloaded = load_scenario(scenario_copy)
    assert reloaded.drive.arr == pytest.approx(0.04)
    assert [layout.label for layout in reloaded.layouts] == ["raid-dp 9", "raid6 16", "triple 12"]

    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert field_input(app, "drive-arr").value == "4%"
        # An edit on disk, then Ctrl+R (and r: reload over the invalid field typed): the
        # app shows the file again.
        scenario_copy.write_text(saved.replace("arr: 4%", "arr: 2.5%"), encoding="utf-8")
        await retype(pilot, "restore-scrub-hours", "xyz")
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert app.scenario.drive.arr == pytest.approx(0.025)
        assert field_input(app, "drive-arr").value == "2.5%"
        assert field_input(app, "restore-scrub-hours").value == "168"
        assert app.field_errors == {}


async def test_removing_the_baseline_layout_saves_without_its_comment(tmp_path: Path) -> None:
    """The comment above baseline: stayed behind with nothing under it (newcomer review)."""
    path = tmp_path / "default.yaml"
    shutil.copy(Path(__file__).parents[2] / "scenarios" / "ns3574-default.yaml", path)
    original = path.read_text(encoding="utf-8")
    async with make_app(path).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        table = app.query_one("#compare-table", DataTable)
        table.focus()
        table.move_cursor(row=table_labels(app).index("raid-dp 9"))
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
    saved = path.read_text(encoding="utf-8")
    assert "baseline:" not in saved
    assert "Relative risks are measured against this layout" not in saved
    assert saved.endswith("    group_size: 12\n")
    kept = [line for line in original.splitlines() if line.lstrip().startswith("#")]
    assert kept[-1].startswith("# Relative risks")
    for line in kept[:-1]:
        assert line in saved
    assert [x.label for x in load_scenario(path).layouts] == [
        "raid10 2",
        "raid5 8",
        "raid-dp 16",
        "raid-tp 12",
    ]


async def test_saving_without_changes_leaves_the_file_byte_for_byte_then_quit(
    scenario_copy: Path,
) -> None:
    """Ctrl+S with nothing changed rewrites nothing; then Ctrl+Q quits at once."""
    original = scenario_copy.read_bytes()
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert scenario_copy.read_bytes() == original
        assert sorted(p.name for p in scenario_copy.parent.iterdir()) == ["aggregate.yaml"]
        # The quit key.
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app_of(pilot).is_running
    assert scenario_copy.read_bytes() == original


async def test_the_default_scenario_saves_to_a_new_file_in_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with make_app(None).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await retype(pilot, "aggregate-data-disks", "48")
        await pilot.press("ctrl+s")
        await settle(pilot)
    saved = tmp_path / "planner-scenario.yaml"
    assert "data_disks: 48" in saved.read_text(encoding="utf-8")
    assert load_scenario(saved).aggregate.data_disks == 48


async def test_help_sweep_and_model_views_follow_the_parameters_and_the_layout() -> None:
    """One session through F1, F3 and F4 (each part was a session of its own).

    The help screen opens and closes and the palette offers the file commands; the sweep
    and model views follow the parameters; the model view follows the selected layout,
    and its rates per hour share one notation, filled and then updated for new rates.
    """
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # The help screen and the palette's commands.
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {"Export Markdown", "Save scenario", "Reload scenario", "Quit"} <= titles

        # The sweep and model views follow the parameters. Each is built when first shown.
        assert not app.query(SweepView)
        assert not app.query(ModelView)
        await pilot.press("f3")
        await settle(pilot)
        sweep = app.query_one(SweepView)
        assert [s.parity for s in sweep.series] == [1, 2, 3]
        n2 = {p.group_size: p for p in sweep.series[1].points}
        assert n2[9].exact_division
        assert not n2[10].exact_division
        assert n2[16].overhead_disks == 6
        before = n2[16].p_loss_aggregate
        await retype(pilot, "restore-rebuild-hours", "48")
        after = {p.group_size: p for p in sweep.series[1].points}[16].p_loss_aggregate
        assert after > before

        await pilot.press("f4")
        await settle(pilot)
        model = app.query_one(ModelView)
        assert model.subject is not None
        # the compare table's cursor starts on the baseline, the file's second layout
        assert model.subject.layout.label == "raid-dp 9"
        assert "MTTDL, leading order" in model.closed_form
        states = app.query_one("#model-states", DataTable)
        assert states.row_count == 6  # Figure 4

        # The model view follows the selected layout: back to the table, the first row.
        await pilot.press("f2")
        await settle(pilot)
        app.query_one("#compare-table", DataTable).focus()
        await pilot.press("up")
        await settle(pilot)
        await pilot.press("f4")  # a hidden model view catches up when it is shown
        await settle(pilot)
        assert model.subject is not None
        assert model.subject.layout.label == "raid5 8"
        assert states.row_count == 4  # (0,0) (0,1) (1,0) loss: Figure 1

        # Its rates per hour share one notation. The "per hour" column once showed
        # 4.34e-06 beside 0.000216 (each rate alone, .3g).
        transitions = app.query_one("#model-transitions", DataTable)
        for hours in ("", "24"):  # filled, then updated in place for new rates
            if hours:
                await retype(pilot, "restore-rebuild-hours", hours)
                await pilot.press("f4")
                await settle(pilot)
            subject = model.subject
            assert subject is not None
            layout = subject.layout
            rates = [
                t.rate_per_hour
                for t in chain_transitions(layout.parity, layout.group_size, subject.rates)
            ]
            assert min(rates) < 1e-4 < max(rates)  # .3g would write the least with e-05
            cells = [str(c) for c in transitions.get_column_at(4)]
            assert all("e" not in c for c in cells), cells  # fixed: at most 10 decimals here
            for cell, rate in zip(cells, rates, strict=True):
                assert float(cell.replace(",", "")) == pytest.approx(rate, rel=0.01), cell
        assert subject.rates.rebuild_hours == 24

        # A click on a tab never shown builds its view and computes it, as its key does.
        assert not app.query(SensitivityView)
        await pilot.click("#--content-tab-sensitivity")
        await settle(pilot)
        assert app.views.active == "sensitivity"
        assert app.query_one(SensitivityView).tornado is not None


async def test_small_terminal_shows_two_fields_a_row() -> None:
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert app.screen.has_class("-narrow")
        grid = app.query_one("#param-grid")
        assert grid.styles.grid_size_columns == 2
        assert app.query_one(CompareView).table.row_count == 4
        assert app.query_one(ParamsPanel).region.height <= 5
        # The class is the screen's from its start (no restyle at the first resize); a
        # resize still moves it.
        await pilot.resize_terminal(SIDE_BY_SIDE_WIDTH, 40)
        await settle(pilot)
        assert app.screen.has_class("-widest")
        assert not app.screen.has_class("-narrow")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen.has_class("-narrow")
        assert not app.screen.has_class("-widest")


async def test_export_follows_the_order_on_screen_and_reads_back(scenario_copy: Path) -> None:
    """Ctrl+O exports the table in the order on screen; back in the file's order, with a
    new ARR, the export is the comparison of the file with that ARR (one session for
    what were two)."""
    exported = scenario_copy.with_name("aggregate-comparison.md")
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        app.query_one("#compare-table", DataTable).focus()
        await pilot.press("s")  # by risk, lowest first
        await settle(pilot)
        shown = table_labels(app)
        assert shown == ["triple 12", "raid-dp 9", "raid6 16", "raid5 8"]
        await pilot.press("ctrl+o")
        await settle(pilot)
        text = exported.read_text(encoding="utf-8")
        rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
        in_file = [row.replace("**", "").removesuffix(" (baseline)") for row in rows[1:]]
        assert in_file == shown

        await pilot.press("s", "s")  # by overhead, then the file's order again
        await settle(pilot)
        assert table_labels(app) == ["raid5 8", "raid-dp 9", "raid6 16", "triple 12"]
        notices = record_notifications(app)
        await retype(pilot, "drive-arr", "3%")
        await pilot.press("ctrl+o")
        await settle(pilot)
        text = exported.read_text(encoding="utf-8")
        expected_scenario = load_scenario(scenario_copy, ["drive.arr=3%"])
        assert text == to_markdown(
            comparison(expected_scenario),
            expected_scenario.name,
            notes(compare_data(expected_scenario)),
            inputs=scenario_inputs(expected_scenario),
        )
        assert "Inputs: ARR 3%/yr" in text
        assert "drive.capacity_tb (4 TB) does not change it" in text
        assert "| **raid-dp 9** (baseline) |" in text
        # the file's path under the message, lines cut at separators (joined: the path)
        assert any(
            str(exported).endswith("".join(message.splitlines()[1:]).removeprefix("…"))
            and message.endswith(exported.name)
            for message in notices
        )


def footer_keys_painted(app: PlannerApp) -> set[str]:
    """The keys the footer of the screen on top draws (the palette key left out)."""
    footer = app.screen.query_one(KeyFooter)
    return {placed.entry.key for placed in footer.fitted().keys}


async def test_each_dialog_shows_its_own_keys_in_the_footer() -> None:
    # The dialogs used to leave the compare table's keys (a Add layout, x Remove...) in
    # view, keys that do nothing while the dialog is open. 160 columns: at 120 the file
    # and view keys fill the footer, and the table's come after them.
    async with make_app(SCENARIO).run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        app.query_one("#compare-table", DataTable).focus()
        await settle(pilot)
        assert "a" in footer_keys_painted(app)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AddLayoutScreen)
        assert footer_keys_painted(app) == {"escape"}
        await pilot.press("escape", "f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "escape" in footer_keys_painted(app)
        assert "a" not in footer_keys_painted(app)
        await pilot.press("escape")
        await retype(pilot, "drive-arr", "2%")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, UnsavedChangesScreen)
        assert footer_keys_painted(app) == {"s", "q", "escape"}


async def test_usable_tb_past_a_million_reads_in_words() -> None:
    # 100,000 data drives of 12 TB once read 1,200,000.0 in the compare table.
    async with make_app(SCENARIO).run_test(size=(240, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        await retype(pilot, "aggregate-data-disks", "100000")  # the most a scenario may hold
        await retype(pilot, "drive-capacity-tb", "12")
        assert not app.field_errors
        table = app.query_one("#compare-table", DataTable)
        key = next(k for k, c in table.columns.items() if "Usable" in str(c.label))
        cells = [str(c) for c in table.get_column(key)]
        assert app.comparison is not None
        usable = [r.usable_tb for r in app.comparison.results]
        assert all(u is not None and u >= 1e6 for u in usable), usable
        for cell, tb in zip(cells, usable, strict=True):
            assert cell.endswith(" million"), cells
            number, _, _ = cell.partition(" ")
            assert float(number) * 1e6 == pytest.approx(tb, rel=0.005), cell


async def test_todays_drive_tb_and_the_pools_model_view() -> None:
    """Today's 20 TB scenario, one session for what were two.

    Issue 20: a pool's model view showed a traditional group's chain (the scenario's
    rebuild, every defect meeting the failed drives); it is the pool's own now. Issue 11:
    with the drive from its spec sheet, a smaller drive rebuilds sooner and every layout's
    risk falls.
    """
    today = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    async with make_app(today).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert app.comparison is not None
        assert field_input(app, "drive-capacity-tb").value == "20"
        assert "h" in app.query_one("#derived-drive-sustained-mb-per-s", Static).content
        before = {r.layout.label: r.p_loss_group for r in app.comparison.results}

        # The pool's model view shows its own chain.
        app.query_one("#compare-table", DataTable).focus()
        await pilot.press("down", "down", "down")
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        subject = app.query_one(ModelView).subject
        assert subject is not None
        layout = subject.layout
        assert layout.declustered is not None
        sigma = 9 * 8 / (47 * 46)  # both failed drives in a defect's stripe of 10 of 48
        assert subject.rates.defect_stripe_share == pytest.approx(sigma, rel=1e-15)
        assert app.comparison is not None
        row = next(r for r in app.comparison.results if r.layout == layout)
        assert subject.rates.rebuild_hours == pytest.approx(row.rebuild_hours)
        formulas = [str(c) for c in app.query_one("#model-transitions", DataTable).get_column_at(3)]
        assert "46·σ·λ_Op" in formulas
        assert "46·(1−σ)·λ_Op" in formulas
        # Its title says what the chain models for a pool, in the compare notes' words:
        # all C drives, the stripe 8d+2p, the spares, (48 - 2) x 8 / 10 = 36.8 drives'
        # worth of data, and 3 drives down losing C(45, 7) / C(48, 10) = 0.69% of the
        # stripes; not "N = 48 drives per group (46 data + 2 parity)".
        title = str(app.query_one("#model-title", Static).render())
        assert "drives per group" not in title
        assert "46 data" not in title
        for part in ("all 48 drives", "8d+2p", "2 distributed spares", "36.8 drives' worth"):
            assert part in title, (part, title)
        assert f"3 drives down at once leave {10 * 9 * 8 / (48 * 47 * 46):.2%}" in title
        assert "MTTDL of the pool" in title
        # and F6's offer simulates the pool, not "one group" of it
        offer = str(app.query_one(SimulationLine).render())
        assert "F6: simulate the pool draid2:8d:48c:2s" in offer, offer
        await pilot.pause(0.5)
        await app.workers.wait_for_complete()
        await settle(pilot)
        text = str(app.query_one("#model-formula", Static).render())
        assert "σ = 0.0333" in text
        # F5's title names the pool as the compare table does, not as a group of 48
        await pilot.press("f5")
        await settle(pilot)
        tornado = str(app.query_one("#tornado-title", Static).render())
        assert "drives per group" not in tornado
        assert "pool of 48 (8d+2p, 2s)" in tornado
        assert "pools)" in tornado or "(1 pool)" in tornado
        await pilot.press("f2")
        await settle(pilot)

        # A smaller drive of a spec sheet rebuilds sooner: every layout's risk falls.
        await retype(pilot, "drive-capacity-tb", "10")
        assert app.scenario.drive.capacity_tb == 10
        after = {r.layout.label: r.p_loss_group for r in app.comparison.results}
        assert all(after[label] < before[label] for label in before)
