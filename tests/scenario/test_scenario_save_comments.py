"""Saving after a key was removed drops the comment that belonged to it, and only that.

A comment directly above a key (no blank line between) is the key's; blank lines and the
comments of the keys around it stay. Before, removing the baseline layout in the TUI dropped
``baseline:`` but left "# Relative risks are measured against this layout..." with nothing
under it, and removing a key lost the comment of the key after it (newcomer review).
"""

from __future__ import annotations

from pathlib import Path

from planner.scenario import load_scenario_text
from planner.scenario.document import parse_yaml
from planner.scenario.edits import spec_of, with_value
from planner.scenario.layout_edits import with_layout_removed
from planner.scenario.save import updated_text
from planner.scenario.schema import Scenario

ROOT = Path(__file__).parents[2]
DEFAULT = ROOT / "scenarios" / "ns3574-default.yaml"
TUI = ROOT / "tests" / "tui" / "tui_scenario.yaml"


def comments(text: str) -> list[str]:
    """Every comment of ``text``, own-line or end-of-line, in order, without indentation."""
    found = []
    for line in text.splitlines():
        if "#" in line:
            found.append(line[line.index("#") :].strip())
    return found


def saved(path: Path, edit: str, field: str | None = None) -> tuple[str, str, Scenario]:
    """(original text, text saved after the edit, the edited scenario)."""
    text = path.read_text(encoding="utf-8")
    original = load_scenario_text(text)
    if field is None:
        edited = with_layout_removed(original, edit, None)
    else:
        edited = with_value(original, spec_of(field), None)
    out = updated_text(parse_yaml(text, path.name), text, original, edited, {})
    assert load_scenario_text(out) == edited
    return text, out, edited


def test_removing_the_baseline_layout_takes_the_baseline_comment_too() -> None:
    text, out, edited = saved(DEFAULT, "raid-dp 9")
    assert edited.baseline is None
    assert "baseline:" not in out
    gone = [
        "# Table 4: RAID-DP with 7 data disks, 6 groups",  # the removed layout's own
        "# Relative risks are measured against this layout (a label); Table 4 uses RAID-DP 7+2.",
    ]
    assert comments(out) == [c for c in comments(text) if c not in gone]
    assert out.endswith(
        "  - raid: raid-tp         # triple parity: 4 groups of 9+3 hold 36, "
        "so 5 groups\n    group_size: 12\n"
    )


def test_removing_the_baseline_layout_of_the_tui_scenario_keeps_every_other_comment() -> None:
    text, out, _ = saved(TUI, "raid-dp 9")
    assert "baseline:" not in out
    assert comments(out) == [c for c in comments(text) if c != "# Table 4's baseline"]
    assert out.endswith("    label: triple 12    # a label of our own\n")


def test_clearing_a_key_takes_the_comment_above_it_and_keeps_the_blank_line_after() -> None:
    text, out, _ = saved(DEFAULT, "", field="drive.capacity_tb")
    assert "capacity_tb" not in out
    gone = (
        "# Capacity of one drive in TB, for usable capacity and the NOMDL (optional; 300 GB FC "
        "drives)."
    )
    assert comments(out) == [c for c in comments(text) if c != gone]
    assert "  latent_defects_per_hour: 1.08e-4\n\nrestore:\n" in out


def test_clearing_a_key_keeps_the_comment_of_the_key_after_it() -> None:
    """capacity_tb moved between arr and latent_defects_per_hour: clearing it used to lose
    latent_defects_per_hour's comment, which ruamel keeps after capacity_tb's line."""
    text = DEFAULT.read_text(encoding="utf-8")
    capacity = (
        "  # Capacity of one drive in TB, for usable capacity and the NOMDL (optional; 300 GB FC "
        "drives).\n"
        "  capacity_tb: 0.3\n"
    )
    text = text.replace(capacity, "").replace("  arr: 1.9%\n", "  arr: 1.9%\n" + capacity)
    original = load_scenario_text(text)
    edited = with_value(original, spec_of("drive.capacity_tb"), None)
    out = updated_text(parse_yaml(text, "moved.yaml"), text, original, edited, {})
    assert load_scenario_text(out) == edited
    assert comments(out) == [c for c in comments(text) if not c.startswith("# Capacity of one")]
    assert (
        "  arr: 1.9%\n  # Latent defects (unreadable sectors) per drive-hour: read errors per byte"
    ) in out


def test_clearing_the_first_key_of_a_section_takes_its_comment() -> None:
    text = DEFAULT.read_text(encoding="utf-8").replace(
        "drive:\n", "drive:\n  # What one drive costs.\n  price: 300\n", 1
    )
    original = load_scenario_text(text)
    edited = with_value(original, spec_of("drive.price"), None)
    out = updated_text(parse_yaml(text, "price.yaml"), text, original, edited, {})
    assert load_scenario_text(out) == edited
    assert comments(out) == [c for c in comments(text) if c != "# What one drive costs."]
    assert "drive:\n  # Annualized return rate" in out


def test_removing_a_layout_takes_the_comment_above_it_and_keeps_the_next_ones() -> None:
    path = ROOT / "scenarios" / "ns3574-table9-250mb.yaml"
    text, out, _ = saved(path, "RAID 6 (6+2)")
    own = "# The Exchange 2007 calculator's RAID 6: six disk I/Os per host write (the default)."
    assert comments(out) == [c for c in comments(text) if c != own]
    assert (
        "    label: RAID 5 (7+1)\n"
        '  # Table 9\'s "RAID 6 (no write penalty)" row: the calculator '
        '"adjusted to one disk write\n'
        '  # per host write ... and all else kept the same".\n'
        "  - raid: raid6\n"
        "    group_size: 8\n"
        "    label: RAID 6 no penalty (6+2)\n"
    ) in out


def test_removing_the_layout_before_a_commented_one_keeps_that_comment() -> None:
    text, out, _ = saved(ROOT / "scenarios" / "today-20tb-nl-sas.yaml", "triple parity (12+3)")
    assert comments(out) == comments(text)
    assert ("    label: RAID 6 (10+2)\n  # A declustered pool (OpenZFS dRAID): 48 drives") in out
