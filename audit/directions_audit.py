"""One-off audit: every figure ``planner evaluate`` / ``size`` / ``sweep`` show moves the right way.

Not a test. For every shipped scenario (a plan tier by tier), nudge one input at a time in
the direction that must not lower the risk (``--set``, as the CLI takes it), run the command
in-process with ``-f json`` and check that no risk figure falls and no MTTDL rises beyond a
relative tolerance. Each case is written to ``audit/directions.jsonl``; a summary goes to
stdout. Run once: ``.venv/bin/python audit/directions_audit.py`` (a few minutes of CPU).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import Scenario, load_plan

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "audit" / "directions.jsonl"
REL = 1e-9
RUNNER = CliRunner()

# Figures that must not fall when the risk rises, by JSON key (a layout's row).
UP = (
    "p_loss_group",
    "p_loss_aggregate",
    "p_group_lost",
    "p_group_lost_aggregate",
    "p_sectors_lost",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events_group",
    "expected_sector_loss_events",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "expected_group_losses_group",
    "expected_group_losses",
    "nomdl_bytes_per_tb",
    "losses_per_10k_groups",
    "p_loss_aggregate_independent",
    "p_loss_aggregate_ageing",
    "p_loss_group_ageing",
    "p_loss_aggregate_ageing_low",
    "p_loss_aggregate_ageing_high",
    "p_loss_group_ageing_low",
    "p_loss_group_ageing_high",
    "p_unavailable_group",
    "p_unavailable_aggregate",
    "p_loss_mttdl",
    "p_loss_mttdl_approx",
    "p_loss_no_latent",
    "p_loss_spec_sheet",
)
DOWN = ("mttdl_hours", "mttdl_approx_hours")
RELATIVE = ("relative_risk_group", "relative_risk_aggregate")


@dataclass(frozen=True)
class Nudge:
    """One input moved toward more risk: ``worse`` over ``base`` (both --set lists).

    ``layout`` names the one layout a layout-only nudge moves (None: every layout).
    ``expected`` is "up" (the risk must not fall) or "explore" (no rule claimed: record).
    """

    input: str
    size: str
    worse: tuple[str, ...]
    base: tuple[str, ...] = ()
    layout: str | None = None
    expected: str = "up"


@dataclass
class Tally:
    """Counts of what was checked."""

    runs: int = 0
    refused: list[tuple[str, str, str]] = field(default_factory=list)
    comparisons: Counter[str] = field(default_factory=Counter)
    by_scenario: Counter[str] = field(default_factory=Counter)
    inputs: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


TALLY = Tally()
CACHE: dict[tuple[str, str, tuple[str, ...]], dict[str, Any] | None] = {}


def run(command: str, path: Path, sets: tuple[str, ...]) -> dict[str, Any] | None:
    """The command's JSON document, or None when the input is refused (exit 2)."""
    key = (command, str(path), sets)
    if key in CACHE:
        return CACHE[key]
    args = [command, str(path), "-f", "json", *[a for s in sets for a in ("--set", s)]]
    if command == "evaluate":
        args.append("--methods")
    result = RUNNER.invoke(app, args)
    TALLY.runs += 1
    document: dict[str, Any] | None
    if result.exit_code != 0:
        TALLY.refused.append((str(path.name), " ".join(sets), result.stderr.strip()[:200]))
        document = None
    else:
        document = json.loads(result.stdout)
        consistent(path.stem, command, sets, document)
    CACHE[key] = document
    return document


INCONSISTENT: list[tuple[str, str, str, str, float, float]] = []


def consistent(
    scenario: str, command: str, sets: tuple[str, ...], document: dict[str, Any]
) -> None:
    """A count's mean is at least the probability that it is at least one."""
    for label, row in rows(document).items():
        for mean, p in (
            ("expected_group_losses_group", "p_group_lost"),
            ("expected_sector_loss_events_group", "p_sectors_lost"),
        ):
            if row.get(mean) is None or row.get(p) is None:
                continue
            TALLY.comparisons["E[count] >= P(count >= 1)"] += 1
            if row[mean] < row[p] * (1 - REL):
                INCONSISTENT.append(
                    (scenario, command, " ".join(sets), f"{label}: {mean} < {p}", row[mean], row[p])
                )


def g(value: float) -> str:
    """A value as --set takes it, 12 significant digits."""
    return f"{value:.12g}"


def scaled(
    name: str, path: str, value: float | None, factors: tuple[float, ...], cap: float = math.inf
) -> Iterator[Nudge]:
    """``path`` times each factor (a factor below 1 lowers it), capped."""
    if value is None or value == 0:
        return
    for f in factors:
        moved = min(value * f, cap)
        if moved != value:
            yield Nudge(name, f"x{f:g}", (f"{path}={g(moved)}",))


UPS = (1.1, 2.0, 10.0)
DOWNS = (1 / 1.1, 0.5, 0.1)


def drive_nudges(s: Scenario, pre: str) -> Iterator[Nudge]:
    """Failure rate, latent defects, the drive's rate (a derived rebuild)."""
    d = s.drive
    if d.arr is not None:
        yield from scaled("drive.arr", f"{pre}drive.arr", d.arr, UPS, 0.99)
        # the same rate as an AFR and as an MTBF (no shipped scenario gives them)
        afr = (f"{pre}drive.arr=null", f"{pre}drive.afr={g(d.arr)}")
        mtbf = (f"{pre}drive.arr=null", f"{pre}drive.mtbf_hours={g(8760 / d.arr)}")
        for f in UPS:
            yield Nudge(
                "drive.afr", f"x{f:g}", (*afr[:1], f"{pre}drive.afr={g(min(d.arr * f, 0.99))}"), afr
            )
            yield Nudge(
                "drive.mtbf_hours (down)",
                f"x{1 / f:g}",
                (*mtbf[:1], f"{pre}drive.mtbf_hours={g(8760 / d.arr / f)}"),
                mtbf,
            )
    if d.afr is not None:
        yield from scaled("drive.afr", f"{pre}drive.afr", d.afr, UPS, 0.99)
    if d.mtbf_hours is not None:
        yield from scaled("drive.mtbf_hours (down)", f"{pre}drive.mtbf_hours", d.mtbf_hours, DOWNS)
    if d.latent_defects_per_hour is not None:
        yield from scaled(
            "drive.latent_defects_per_hour",
            f"{pre}drive.latent_defects_per_hour",
            d.latent_defects_per_hour,
            UPS,
            0.5,
        )
    else:
        if d.read_errors_per_byte is not None:
            yield from scaled(
                "drive.read_errors_per_byte",
                f"{pre}drive.read_errors_per_byte",
                d.read_errors_per_byte,
                UPS,
                1e-6,
            )
        elif d.unrecoverable_read_errors_per_bit is not None:
            yield from scaled(
                "drive.unrecoverable_read_errors_per_bit",
                f"{pre}drive.unrecoverable_read_errors_per_bit",
                d.unrecoverable_read_errors_per_bit,
                UPS,
                1e-10,
            )
        bytes_read = s.latent_defect_rate.bytes_read_per_hour
        yield from scaled(
            "drive.bytes_read_per_hour",
            f"{pre}drive.bytes_read_per_hour",
            bytes_read,
            UPS,
            9.9e12,
        )
    if s.restore.uses_drive_rate and d.sustained_mb_per_s is not None:
        yield from scaled(
            "drive.sustained_mb_per_s (down)",
            f"{pre}drive.sustained_mb_per_s",
            d.sustained_mb_per_s,
            DOWNS,
        )


def restore_nudges(s: Scenario, pre: str) -> Iterator[Nudge]:
    """Longer rebuilds, a busier restore, a wait, rarer scrubs, serial rebuilds."""
    r = s.restore
    if r.rebuild_hours is not None:
        yield from scaled(
            "restore.rebuild_hours", f"{pre}restore.rebuild_hours", r.rebuild_hours, UPS, 8760
        )
    if r.load_factor is not None:
        yield from scaled("restore.load_factor", f"{pre}restore.load_factor", r.load_factor, UPS)
    elif s.rebuild_mb_per_s is not None and r.load is None:
        for f in UPS:
            yield Nudge("restore.load_factor", f"1->{f:g}", (f"{pre}restore.load_factor={f:g}",))
    if s.rebuild_mb_per_s is not None and s.drive.capacity_tb is not None:
        # a larger drive rebuilds longer (the defect rate is per drive-hour: unchanged)
        yield from scaled(
            "drive.capacity_tb (derived rebuild)",
            f"{pre}drive.capacity_tb",
            s.drive.capacity_tb,
            UPS,
            1000,
        )
    if r.rebuild_mb_per_s is not None:
        yield from scaled(
            "restore.rebuild_mb_per_s (down)",
            f"{pre}restore.rebuild_mb_per_s",
            r.rebuild_mb_per_s,
            DOWNS,
        )
    if s.rebuild_mb_per_s is not None:  # a derived rebuild: the load slows it
        loads = ["idle", "busy", "busy-worst"]
        now = r.load or "idle"
        for heavier in loads[loads.index(now) + 1 :]:
            yield Nudge(
                "restore.load (heavier)", f"{now}->{heavier}", (f"{pre}restore.load={heavier}",)
            )
        if r.load is None:
            yield Nudge(
                "restore.load (heavier)",
                "busy->busy-worst",
                (f"{pre}restore.load=busy-worst",),
                (f"{pre}restore.load=busy",),
            )
    delay = r.replace_delay_hours or 0.0
    for more in (1.0, 24.0, 168.0):
        yield Nudge(
            "restore.replace_delay_hours",
            f"+{more:g}",
            (f"{pre}restore.replace_delay_hours={g(delay + more)}",),
        )
    yield from scaled(
        "restore.scrub_hours", f"{pre}restore.scrub_hours", r.scrub_hours, UPS, 87_600
    )
    yield Nudge(
        "restore.parallel_rebuilds (true->false)",
        "",
        (f"{pre}restore.parallel_rebuilds=false",),
        (f"{pre}restore.parallel_rebuilds=true",),
    )
    yield Nudge(
        "restore.parallel_rebuilds (3->2)",
        "",
        (f"{pre}restore.parallel_rebuilds=2",),
        (f"{pre}restore.parallel_rebuilds=3",),
    )


def aggregate_nudges(s: Scenario, pre: str, plan: bool) -> Iterator[Nudge]:
    """Mission, more data drives, fewer hot spares."""
    if not plan:
        yield from scaled("mission_years", "mission_years", s.mission_years, (1.1, 2.0), 100)
        yield Nudge("mission_years", "+1", (f"mission_years={g(s.mission_years + 1)}",))
    n = s.aggregate.data_disks
    for size, more in (("+1", n + 1), ("x2", 2 * n), ("x10", 10 * n)):
        yield Nudge(
            "aggregate.data_disks", size, (f"{pre}aggregate.data_disks={min(more, 100_000)}",)
        )
    if s.aggregate.hot_spares > 0:
        yield Nudge("aggregate.hot_spares (down)", "->0", (f"{pre}aggregate.hot_spares=0",))


def layout_nudges(s: Scenario, pre: str) -> Iterator[Nudge]:
    """Wider groups at the same parity, less parity at the same width; a pool's terms."""
    for i, spec in enumerate(s.layouts):
        at = f"{pre}layouts[{i}]"
        keep = f"{at}.label={spec.label}"
        if spec.children is not None:  # a declustered pool
            c, sp, d, p = spec.children, spec.spares or 0, spec.data, spec.parity
            for more in (1, 8, 48):
                if c + more <= 255:
                    yield Nudge(
                        "draid children (up)",
                        f"+{more}",
                        (f"{at}.children={c + more}", keep),
                        layout=spec.label,
                        expected="explore",
                    )
            if sp > 0:
                yield Nudge(
                    "draid spares (down)",
                    f"{sp}->{sp - 1}",
                    (f"{at}.spares={sp - 1}", keep),
                    layout=spec.label,
                    expected="explore",
                )
                yield Nudge(
                    "draid spares (down)",
                    f"{sp}->0 (delay 24 h)",
                    (f"{at}.spares=0", keep, f"{pre}restore.replace_delay_hours=24"),
                    (f"{pre}restore.replace_delay_hours=24",),
                    layout=spec.label,
                    expected="explore",
                )
            if d is not None:
                yield Nudge(
                    "draid data (wider stripe)",
                    f"{d}->{d + 1}",
                    (f"{at}.data={d + 1}", keep),
                    layout=spec.label,
                    expected="explore",
                )
            if p > 1:
                yield Nudge(
                    "parity (down, same width)",
                    f"draid{p}->draid{p - 1}",
                    (f"{at}.raid=draid{p - 1}", keep),
                    layout=spec.label,
                )
            continue
        if spec.raid is not None and spec.raid.startswith("raid1"):  # mirrors fix the width
            continue
        k, n = spec.parity, spec.group_size
        for size, more in (("+1", n + 1), ("+4", n + 4), ("x2", 2 * n)):
            if more <= 1000:
                yield Nudge(
                    "group_size (up, same parity)",
                    size,
                    (f"{at}.group_size={more}", keep),
                    layout=spec.label,
                )
        if k > 1:
            yield Nudge(
                "parity (down, same width)",
                f"{k}->{k - 1}",
                (f"{at}.raid=null", f"{at}.parity={k - 1}", keep),
                layout=spec.label,
            )


def section_nudges(s: Scenario, pre: str) -> Iterator[Nudge]:
    """Correlation, enclosures, ageing, workload (where the scenario has them)."""
    c = s.correlation
    if c is not None:
        yield from scaled(
            "correlation.degraded_multiplier",
            f"{pre}correlation.degraded_multiplier",
            c.degraded_multiplier,
            UPS,
            100,
        )
        yield from scaled(
            "correlation.shocks_per_year",
            f"{pre}correlation.shocks_per_year",
            c.shocks_per_year,
            UPS,
            50,
        )
        yield from scaled(
            "correlation.shock_drive_probability",
            f"{pre}correlation.shock_drive_probability",
            c.shock_drive_probability,
            UPS,
            1.0,
        )
        if s.drive.unrecoverable_read_errors_per_bit is not None:
            # frequent shocks that fail 5 % of the drives each: where a defect shields its holder
            often = (
                f"{pre}correlation.shock_drive_probability=0.05",
                f"{pre}correlation.shocks_per_year=1",
            )
            ure = s.drive.unrecoverable_read_errors_per_bit
            for f in (10.0, 100.0):
                yield Nudge(
                    "drive.unrecoverable_read_errors_per_bit (q 5 %, 1 shock a year)",
                    f"x{f:g}",
                    (*often, f"{pre}drive.unrecoverable_read_errors_per_bit={g(ure * f)}"),
                    often,
                )
    e = s.enclosures
    if e is not None:
        yield from scaled(
            "enclosures.failures_per_year",
            f"{pre}enclosures.failures_per_year",
            e.failures_per_year,
            UPS,
            52,
        )
        yield from scaled(
            "enclosures.repair_hours", f"{pre}enclosures.repair_hours", e.repair_hours, UPS, 8760
        )
    a = s.ageing
    if a is not None:
        if a.arr_by_year is not None:
            table = list(a.arr_by_year)
            for year in range(len(table)):
                for f in (1.1, 2.0):
                    moved = list(table)
                    moved[year] = min(moved[year] * f, 0.99)
                    text = "[" + ", ".join(g(v) for v in moved) + "]"
                    yield Nudge(
                        "ageing.arr_by_year (one year up)",
                        f"year {year + 1} x{f:g}",
                        (f"{pre}ageing.arr_by_year={text}",),
                    )
        age = a.drive_age_years_at_start
        # the table rises: older drives meet higher rates every hour
        for more in (0.5, 2.0):
            yield Nudge(
                "ageing.drive_age_years_at_start",
                f"+{more:g}",
                (f"{pre}ageing.drive_age_years_at_start={g(age + more)}",),
            )
        weibull = f"{pre}ageing={{weibull: {{shape: 1.48, scale_hours: 116000}}, drive_age_years_at_start: 1}}"
        for f in (0.9, 0.5):
            yield Nudge(
                "ageing.weibull.scale_hours (down)",
                f"x{f:g}",
                (
                    f"{pre}ageing={{weibull: {{shape: 1.48, scale_hours: {g(116000 * f)}}}, drive_age_years_at_start: 1}}",
                ),
                (weibull,),
            )
        # scale from drive.arr, drives a year old: every later hour's hazard rises with the shape
        from_arr = f"{pre}ageing={{weibull: {{shape: 1.48}}, drive_age_years_at_start: 1}}"
        for shape in (1.6, 2.5):
            yield Nudge(
                "ageing.weibull.shape (up, scale from ARR, age 1)",
                f"1.48->{shape:g}",
                (f"{pre}ageing={{weibull: {{shape: {shape:g}}}, drive_age_years_at_start: 1}}",),
                (from_arr,),
            )
        for f in (1.1, 2.0):
            yield Nudge(
                "drive.arr (Weibull scale from ARR)",
                f"x{f:g}",
                (from_arr, f"{pre}drive.arr={g(s.drive.arr * f)}") if s.drive.arr else (from_arr,),
                (from_arr,),
            )
        for more in (0.5, 2.0):
            yield Nudge(
                "ageing.drive_age_years_at_start (Weibull)",
                f"+{more:g}",
                (
                    f"{pre}ageing={{weibull: {{shape: 1.48, scale_hours: 116000}}, drive_age_years_at_start: {g(1 + more)}}}",
                ),
                (weibull,),
            )
    w = s.workload
    if w is not None:
        for name in ("users", "iops", "capacity_tb", "iops_per_user", "mailbox_mb"):
            value = getattr(w, name, None)
            if value:
                moved = value * 2 if name != "users" else int(value) * 2
                yield Nudge(
                    f"workload.{name} (up)",
                    "x2",
                    (f"{pre}workload.{name}={g(moved)}",),
                    expected="explore",
                )


def nudges(s: Scenario, pre: str, plan: bool) -> list[Nudge]:
    """Every nudge of one scenario (a plan's tier: ``pre`` is ``tiers[i].``)."""
    return [
        *drive_nudges(s, pre),
        *restore_nudges(s, pre),
        *aggregate_nudges(s, pre, plan),
        *layout_nudges(s, pre),
        *section_nudges(s, pre),
    ]


def rows(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Layout rows by ``tier/label`` (a plan: each tier's), plus the plan's totals."""
    found: dict[str, dict[str, Any]] = {}
    if "tiers" in document:
        for tier in document["tiers"]:
            for row in tier["layouts"]:
                found[f"{tier['tier']}/{row['label']}"] = row
        total = document["total"]
        found["PLAN/total"] = {
            "p_loss_any_tier": total["p_loss_any_tier"],
            "plan_nomdl_bytes_per_tb": total["nomdl_bytes_per_tb"],
        }
        for row in total["tiers"]:
            found[f"PLAN/{row['tier']}"] = {
                "plan_tier_p_loss": row["p_loss"],
                "degraded_hours_per_year": row["degraded_hours_per_year"],
                "critical_hours_per_year": row["critical_hours_per_year"],
                "nomdl_bytes_per_tb": row["nomdl_bytes_per_tb"],
            }
        return found
    for row in document["layouts"]:
        found[row["label"]] = row
    return found


PLAN_UP = ("p_loss_any_tier", "plan_nomdl_bytes_per_tb", "plan_tier_p_loss")


def compare(
    scenario: str,
    command: str,
    nudge: Nudge,
    before: dict[str, Any],
    after: dict[str, Any],
    baseline: str | None,
    out: Any,
) -> None:
    """Write every figure that moved the wrong way; count every comparison."""
    a_rows, b_rows = rows(before), rows(after)
    for label, b in b_rows.items():
        a = a_rows.get(label)
        if a is None:
            continue
        # a plan's totals follow its tiers' baselines: always compared
        moved_here = nudge.layout is None or label == nudge.layout or label.startswith("PLAN/")
        for key in (*UP, *PLAN_UP, *DOWN, *RELATIVE):
            if key not in b or b[key] is None or a.get(key) is None:
                continue
            x, y = float(a[key]), float(b[key])
            sign = -1 if key in DOWN else 1
            if key in RELATIVE:
                if nudge.layout is None:
                    continue  # a global nudge moves the baseline too
                is_base = label == baseline
                if moved_here and not is_base:
                    sign = 1
                elif not moved_here and nudge.layout == baseline:
                    sign = -1  # the baseline got riskier: others' ratios must not rise
                else:
                    continue
            elif not moved_here:
                # another layout's figures must not change at all
                TALLY.comparisons["unchanged"] += 1
                if not math.isclose(x, y, rel_tol=REL, abs_tol=1e-300):
                    record(out, scenario, command, nudge, label, key, x, y, "changed (not moved)")
                continue
            TALLY.comparisons[key] += 1
            TALLY.by_scenario[scenario] += 1
            if sign * (y - x) < -REL * abs(x) - 1e-300:
                record(
                    out, scenario, command, nudge, label, key, x, y, "down" if sign > 0 else "up"
                )


FALLS: list[dict[str, Any]] = []


def record(
    out: Any,
    scenario: str,
    command: str,
    nudge: Nudge,
    label: str,
    key: str,
    before: float,
    after: float,
    how: str,
) -> None:
    """One wrong-way move."""
    case = {
        "scenario": scenario,
        "command": command,
        "input": nudge.input,
        "size": nudge.size,
        "set": list(nudge.worse),
        "base_set": list(nudge.base),
        "expected": nudge.expected,
        "layout": label,
        "figure": key,
        "before": before,
        "after": after,
        "relative": (after - before) / before if before else math.inf,
        "how": how,
    }
    FALLS.append(case)
    out.write(json.dumps(case) + "\n")


def audit_file(path: Path, out: Any) -> None:
    """Every nudge of one shipped file, through evaluate (and size with a workload)."""
    plan = load_plan(path)
    commands = ["evaluate"]
    tiers = plan.tiers
    if plan.tiered:
        pres = [(f"tiers[{i}].", t.scenario) for i, t in enumerate(tiers)]
        extra = [
            Nudge(
                "mission_years",
                f"x{f:g}",
                (f"mission_years={g(tiers[0].scenario.mission_years * f)}",),
            )
            for f in (1.1, 2.0)
        ]
    else:
        pres = [("", tiers[0].scenario)]
        extra = []
        if tiers[0].scenario.workload is not None:
            commands.append("size")
    for pre, s in pres:
        every = nudges(s, pre, plan.tiered) + extra
        extra = []
        # a plan's tier gives its own restore, or takes the top level's whole
        if plan.tiered:
            every = [fix_plan_restore(path, pre, n) for n in every]
        variants: list[tuple[str, ...]] = [()]
        if not plan.tiered:
            variants += [
                ("restore.on_unreadable_sector=fail-rebuild",),
                ("restore.parallel_rebuilds=true",),
            ]
        for command, variant, nudge in (
            (c, v, n) for c in commands for v in variants for n in every
        ):
            if variant and (nudge.layout is not None or "parallel" in nudge.input):
                continue
            if variant:
                nudge = replace(
                    nudge, base=(*variant, *nudge.base), size=f"{nudge.size} [{variant[0]}]"
                )
            if True:
                before = run(command, path, nudge.base)
                after = run(command, path, nudge.worse + nudge.base)
                TALLY.inputs[path.stem].add(nudge.input)
                if before is None or after is None:
                    continue
                base = s.baseline_label()
                if plan.tiered:  # a plan's rows are tier/label
                    tier = tiers[int(pre[6:-2])].name
                    base = f"{tier}/{base}"
                    if nudge.layout is not None:
                        nudge = replace(nudge, layout=f"{tier}/{nudge.layout}")
                compare(path.stem, command, nudge, before, after, base, out)


def fix_plan_restore(path: Path, pre: str, nudge: Nudge) -> Nudge:
    """A tier without a restore section takes the top level's: nudge that one instead."""
    text = path.read_text()
    tier_restores = "rebuild_mb_per_s: 27" in text and pre == "tiers[1]."
    if tier_restores or f"{pre}restore." not in " ".join(nudge.worse + nudge.base):
        return nudge
    swap = lambda t: tuple(x.replace(f"{pre}restore.", "restore.") for x in t)  # noqa: E731
    return Nudge(
        nudge.input + " (top level)",
        nudge.size,
        swap(nudge.worse),
        swap(nudge.base),
        nudge.layout,
        nudge.expected,
    )


SWEEPS = {
    "drive.arr": (0.002, 0.2),
    "drive.latent_defects_per_hour": (1e-7, 1e-2),
    "restore.rebuild_hours": (1.0, 1000.0),
    "restore.scrub_hours": (1.0, 20000.0),
    "mission_years": (0.1, 20.0),
    "aggregate.data_disks": (1, 5000),
    "correlation.degraded_multiplier": (1.0, 20.0),
    "correlation.shocks_per_year": (0.001, 5.0),
    "correlation.shock_drive_probability": (0.001, 0.9),
    "enclosures.failures_per_year": (0.001, 10.0),
    "enclosures.repair_hours": (1.0, 2000.0),
    "ageing.drive_age_years_at_start": (0.0, 10.0),
}


def sweep_file(path: Path, out: Any) -> None:
    """``planner sweep --vary`` over each field, low to high: each label's figures monotone."""
    plan = load_plan(path)
    if plan.tiered:
        targets = [(["--tier", t.name], t.scenario) for t in plan.tiers]
    else:
        targets = [([], plan.tiers[0].scenario)]
    for tier_args, s in targets:
        for name, (low, high) in SWEEPS.items():
            section = name.split(".")[0]
            if section in ("correlation", "enclosures", "ageing") and getattr(s, section) is None:
                continue
            lin = name in (
                "aggregate.data_disks",
                "ageing.drive_age_years_at_start",
                "correlation.degraded_multiplier",
            )
            args = [
                "sweep",
                str(path),
                *tier_args,
                "--vary",
                f"{name}={g(low)}..{g(high)}:13",
                "-f",
                "json",
            ]
            if not lin:
                args.append("--log")
            result = RUNNER.invoke(app, args)
            TALLY.runs += 1
            if result.exit_code != 0:
                TALLY.refused.append((path.name, " ".join(args[3:]), result.stderr.strip()[:200]))
                continue
            document = json.loads(result.stdout)
            by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for row in document["rows"]:
                by_label[row.get("label", f"{row['parity']} {row['group_size']}")].append(row)
            for label, series in by_label.items():
                series.sort(key=lambda r: r["value"])
                for first, second in zip(series, series[1:]):
                    nudge = Nudge(f"sweep {name}", f"{g(first['value'])}->{g(second['value'])}", ())
                    compare(
                        f"{path.stem}{' ' + tier_args[1] if tier_args else ''}",
                        "sweep",
                        nudge,
                        {"layouts": [first]},
                        {"layouts": [second]},
                        None,
                        out,
                    )
                    TALLY.inputs[path.stem].add(f"sweep {name}")


def main() -> None:
    """Run the audit over every shipped scenario; summarise."""
    start = time.process_time()
    files = sorted((ROOT / "scenarios").glob("*.yaml"))
    if len(sys.argv) > 1:
        files = [f for f in files if any(a in f.name for a in sys.argv[1:])]
    with OUT.open("w") as out:
        for path in files:
            audit_file(path, out)
            sweep_file(path, out)
            print(
                f"{path.stem}: {TALLY.by_scenario[path.stem]} comparisons, {len(FALLS)} falls so far",
                flush=True,
            )
    print(
        f"runs {TALLY.runs}, comparisons {sum(TALLY.comparisons.values())}, cpu {time.process_time() - start:.0f} s"
    )
    print("by figure:", dict(TALLY.comparisons))
    print("refused:", len(TALLY.refused))
    for r in TALLY.refused:
        print("  ", r)
    summary: Counter[tuple[str, str, str]] = Counter(
        (f["input"], f["figure"], f["how"]) for f in FALLS
    )
    for (inp, fig, how), count in sorted(summary.items()):
        print(f"{count:5d}  {inp:45s} {fig:36s} {how}")
    print("\ninputs nudged, by scenario:")
    for name, inputs in sorted(TALLY.inputs.items()):
        print(f"  {name}: {len(inputs)} inputs: {', '.join(sorted(inputs))}")
    print("\nby class:")
    classes: Counter[str] = Counter(classify(f) for f in FALLS)
    for name, count in classes.most_common():
        print(f"{count:5d}  {name}")
    print(f"\nE[count] < P(count >= 1): {len(INCONSISTENT)} rows")
    shown_once = {(i[0], i[3]) for i in INCONSISTENT if not i[2]}
    for scenario, what in sorted(shown_once):
        print("   ", scenario, what)


LONGER_REBUILD = (
    "restore.rebuild_hours",
    "restore.rebuild_mb_per_s",
    "restore.load",
    "restore.load_factor",
    "restore.replace_delay_hours",
    "drive.sustained_mb_per_s",
    "drive.capacity_tb",
    "sweep restore.rebuild_hours",
)
SECTOR_FIGURES = (
    "p_sectors_lost",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events",
    "expected_sector_loss_events_group",
)
GOING_ON_FIGURES = (
    "expected_group_losses",
    "expected_group_losses_group",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "nomdl_bytes_per_tb",
)
DEFECTS = (
    "drive.bytes_read_per_hour",
    "drive.unrecoverable_read_errors_per_bit",
    "drive.read_errors_per_byte",
    "drive.latent_defects_per_hour",
    "restore.scrub_hours",
    "sweep drive.latent_defects_per_hour",
    "sweep restore.scrub_hours",
)


def classify(fall: dict[str, Any]) -> str:
    """Each fall against the docs (the audit's reading; see audit/README.md)."""
    inp, fig, scenario, command = fall["input"], fall["figure"], fall["scenario"], fall["command"]
    if fall["how"] == "changed (not moved)":
        return "UNCLASSIFIED: a layout not moved changed"
    if fig in SECTOR_FIGURES and inp.startswith(LONGER_REBUILD):
        return "documented: longer rebuilds, whole-group losses come first (loss.md)"
    if fig == "p_loss_spec_sheet" and inp.startswith(LONGER_REBUILD):
        return "explained: spec-sheet method, reads cut at the mission's end (drives.md, added)"
    if (
        "correlated" in scenario
        and inp.startswith(DEFECTS)
        and (
            fig in GOING_ON_FIGURES
            or fig.startswith(("p_loss", "p_group_lost", "losses_per", "relative_risk", "mttdl"))
        )
    ):
        return "WRONG WAY: a shock never fails the defect's holder (correlated.md, added; for the lead)"
    if "shock_drive_probability" in inp and fig in SECTOR_FIGURES:
        return "explained: larger q, shocks past parity come first (loss.md, added)"
    if fig in ("degraded_hours_per_year", "critical_hours_per_year") and (
        inp.startswith(
            (
                "parity",
                "correlation.degraded_multiplier",
                "correlation.shock_drive_probability",
                "sweep correlation",
            )
        )
    ):
        return "explained: a lost group is restored at once (availability.md, added)"
    if inp.startswith("draid children"):
        return "explained: wider pool, faster rebuild and smaller sigma (declustered.md; no direction claimed)"
    if inp == "aggregate.data_disks" and scenario == "recommend-400tb":
        return "documented: workload reads spread over aggregate.data_disks; size's rate an upper bound (drives.md)"
    if fig == "plan_nomdl_bytes_per_tb":
        return "documented: the plan's NOMDL is bytes over all tiers' usable TB, a ratio (availability.md)"
    if command == "size" and inp.startswith(("group_size", "drive.capacity_tb")):
        return "explained: size counts whole groups for the workload (fewer groups needed)"
    if fig == "p_unavailable_aggregate" and inp.startswith(("group_size", "parity")):
        return "explained: the same data in fewer groups, each with its enclosure (domains.md)"
    if fig.startswith("relative_risk"):
        return "explained: follows the baseline's own move (size)"
    return "UNCLASSIFIED"


if __name__ == "__main__":
    main()
