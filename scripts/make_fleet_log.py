"""Write scenarios/fleet-log-example.csv: a synthetic fleet's failure log with a known truth.

The example ``planner fit`` is shown on (docs/fit.md). Every number of the truth is below;
the same seed gives the same file byte for byte (a test checks that the shipped log is what
this script writes)::

    .venv/bin/python scripts/make_fleet_log.py                 # rewrites the example
    .venv/bin/python scripts/make_fleet_log.py -o my.csv --seed 7 --groups 200

The fleet: RAID groups of 8 drives of one model each, half of them of each model, put into
service at times spread evenly over the first 3 years and watched until year 5 (so each
drive's time is right-censored at the end of the log). Each drive's lifetime is Weibull
(the model's shape and scale) while its group is whole; for WINDOW hours after any failure
in its group, every drive of the group fails DEGRADED_MULTIPLIER times as often (its
hazard is multiplied; the cumulative hazard is followed exactly, piece by piece). A failed
drive is replaced REPLACEMENT_DELAY hours later by a new drive (a new row, age 0).
"""

from __future__ import annotations

import argparse
import io
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "fleet-log-example.csv"

HOURS_PER_YEAR = 8760.0
MODELS = {"hdd-a": (1.2, 200_000.0), "hdd-b": (1.5, 120_000.0)}
"""Each model's true Weibull (shape, scale in hours)."""
GROUP_SIZE = 8
GROUPS = 1000
DEGRADED_MULTIPLIER = 5.0
WINDOW_HOURS = 168.0
REPLACEMENT_DELAY_HOURS = 24.0
INSTALL_YEARS = 3.0
LOG_YEARS = 5.0
SEED = 2007


@dataclass
class _Drive:
    installed: float
    budget: float  # the unit-exponential draw its cumulative hazard must reach
    used: float = 0.0  # cumulative hazard spent so far


def _age_hazard(age: float, shape: float, scale: float) -> float:
    return (age / scale) ** shape


def _time_to_spend(drive: _Drive, now: float, rate: float, shape: float, scale: float) -> float:
    """Hours from ``now`` until the drive's hazard, times ``rate``, reaches its budget."""
    age = now - drive.installed
    target = _age_hazard(age, shape, scale) + (drive.budget - drive.used) / rate
    return scale * target ** (1.0 / shape) - age


def _group_rows(
    rng: np.random.Generator, group: str, model: str, installed: float, end: float
) -> list[tuple[float, int, str, str, float]]:
    """The rows (hours, failed, model, group, installed_at_hours) of one group."""
    shape, scale = MODELS[model]
    slots: list[_Drive | None] = [
        _Drive(installed, float(rng.exponential())) for _ in range(GROUP_SIZE)
    ]
    pending: list[float | None] = [None] * GROUP_SIZE  # install time of a replacement
    rows: list[tuple[float, int, str, str, float]] = []
    now, degraded_until = installed, -math.inf
    while now < end:
        rate = DEGRADED_MULTIPLIER if now < degraded_until else 1.0
        stops = [end, *(degraded_until for _ in [0] if now < degraded_until)]
        stops += [t for t in pending if t is not None]
        times = [
            _time_to_spend(d, now, rate, shape, scale) if d is not None else math.inf for d in slots
        ]
        first = int(np.argmin(times))
        step = min(times[first], min(stops) - now)
        for drive in slots:
            if drive is not None:
                age = now - drive.installed
                drive.used += rate * (
                    _age_hazard(age + step, shape, scale) - _age_hazard(age, shape, scale)
                )
        now += step
        if times[first] <= step and now < end:
            failed = slots[first]
            assert failed is not None
            rows.append((now - failed.installed, 1, model, group, failed.installed))
            slots[first] = None
            pending[first] = now + REPLACEMENT_DELAY_HOURS
            degraded_until = now + WINDOW_HOURS
        for index, when in enumerate(pending):
            if when is not None and when <= now < end:
                slots[index] = _Drive(when, float(rng.exponential()))
                pending[index] = None
    rows += [(end - d.installed, 0, model, group, d.installed) for d in slots if d is not None]
    return rows


def fleet_log(seed: int = SEED, groups: int = GROUPS) -> str:
    """The log's text: a comment block with the truth, the header, one row per drive."""
    rng = np.random.default_rng(seed)
    end = LOG_YEARS * HOURS_PER_YEAR
    out = io.StringIO()
    truth = ", ".join(f"{m} Weibull shape {s:g} scale {c:g} h" for m, (s, c) in MODELS.items())
    out.write(
        f"# Synthetic fleet log made by scripts/make_fleet_log.py (seed {seed}); truth: {truth}; "
        f"degraded multiplier {DEGRADED_MULTIPLIER:g} for {WINDOW_HOURS:g} h after a failure "
        f"in the group; groups of {GROUP_SIZE}; replacements {REPLACEMENT_DELAY_HOURS:g} h "
        f"after a failure; log ends at hour {end:g}.\n"
    )
    out.write("hours,failed,model,group,installed_at_hours\n")
    names = list(MODELS)
    for number in range(groups):
        model = names[number % len(names)]
        installed = round(INSTALL_YEARS * HOURS_PER_YEAR * number / groups, 1)
        for hours, failed, name, group, since in _group_rows(
            rng, f"g{number + 1:04d}", model, installed, end
        ):
            shown = max(round(hours, 1), 0.1) if failed else round(hours, 1)
            out.write(f"{shown:.1f},{failed},{name},{group},{since:.1f}\n")
    return out.getvalue()


def main() -> None:
    """Write the log (the shipped example by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=EXAMPLE)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--groups", type=int, default=GROUPS)
    args = parser.parse_args()
    args.output.write_text(fleet_log(args.seed, args.groups), encoding="utf-8")
    print(f"Wrote {args.output}")


if __name__ == "__main__":
    main()
