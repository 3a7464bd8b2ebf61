"""The numeric limits of a scenario, and why each one is where it is.

Every limit is first physical: no drive population fails less than once per million
drive-years, no rebuild or scrub finds its way through a drive in less than a few seconds,
a mission is at least a working day. Inside these limits the engine is exact: the corners of
the box they make (every parity 1-8, groups of k+1 and 1,000 drives) evaluate to finite
probabilities in [0, 1] without a floating-point warning (tests/scenario/
test_scenario_limits.py). The engine was checked a million times further out (ARR 1e-12,
rebuild and scrub 1e-6 h) still exact, so the limits keep a wide margin: past them (an ARR of
5e-324, a scrub of 1e-300 h) rates overflow to infinity or underflow to zero, and results
turn into 0, infinity or NaN.

Each limit's reason is appended to the message that refuses a value (see
:func:`reason_for`), and docs/guarantees.md lists them.
"""

from __future__ import annotations

MIN_FRACTION_PER_YEAR = 1e-6
"""Smallest ARR or AFR (0.0001% of drives per year; an MTBF of 8.8 billion hours)."""

MAX_MTBF_HOURS = 1e10
"""Largest MTBF (hours): about the same drive population as :data:`MIN_FRACTION_PER_YEAR`."""

MIN_RESTORE_HOURS = 1e-3
"""Shortest mean rebuild or scrub time (hours; 3.6 s)."""

MIN_MISSION_YEARS = 1e-3
"""Shortest mission (years; 8.76 h)."""

MIN_CAPACITY_TB = 1e-3
"""Smallest drive (TB; 1 GB): sizing divides by it."""

MIN_IOPS_PER_DRIVE = 1.0
"""Fewest random I/Os per second a drive may be given: sizing divides by it."""

MIN_USABLE_FRACTION = 0.01
"""Smallest share of a drive that holds data: sizing divides by it."""

MAX_LATENT_DEFECTS_PER_HOUR = 1.0
"""Latent defects per drive-hour must stay below this, given directly or as a product."""

MIN_ERRORS_PER_BIT = 1e-20
"""Smallest spec-sheet unrecoverable read error rate per bit (SSDs state 1e-16 to 1e-17)."""

MAX_ERRORS_PER_BIT = 1e-9
"""Largest spec-sheet unrecoverable read error rate per bit (HDDs state 1e-14 to 1e-16)."""

MAX_SUSTAINED_MB_PER_S = 100_000.0
"""Largest sustained transfer rate of one drive (MB/s); the fastest NVMe drives give ~14,000."""

MAX_DRIVE_PRICE = 1e9
"""Most one drive may cost (currency per drive): an enterprise SSD is 10^4 in dollars or euros,
10^8 in rupiah; past 10^9 the figure is a typo (the TB price, an extra zero run)."""

MAX_DRIVE_WATTS = 1000.0
"""Most power one drive may draw (W): HDDs draw 5-12 W, NVMe SSDs up to 25 W."""

MIN_TARGET_P_LOSS = 1e-15
"""Smallest P(loss) a target may ask for: 15 nines, as ``target.min_nines`` allows at most
(5e-324 overflowed the ratio by which a candidate misses it)."""

MAX_BUDGET = MAX_DRIVE_PRICE * 1e6
"""Largest budget (``target.max_cost``): the most a drive may cost for a million drives;
1e308 was accepted and printed with 309 digits."""

MAX_ENERGY_PER_KWH = 1e5
"""Most a kWh may cost (currency per kWh): 0.1-0.5 in dollars or euros, ~2,000 in rupiah."""

MAX_DEGRADED_MULTIPLIER = 100.0
"""Largest degraded multiplier m (correlation.degraded_multiplier): field studies of
replacements clustered in time report a few times the base rate (Schroeder and Gibson 2007);
100 is far beyond any, and still exact in the chain."""

MAX_SHOCKS_PER_YEAR = 365.0
"""Most common-cause shocks per group-year: one a day is no longer a rare common cause."""

MAX_ENCLOSURE_FAILURES_PER_YEAR = 52.0
"""Most failures of one enclosure per year (enclosures.failures_per_year): one a week is a
broken shelf, not a rate; field studies put interconnect failures near a shelf's disk
failures, a tenth to a few a year (Jiang et al., FAST 2008)."""

MAX_ENCLOSURE_REPAIR_HOURS = 8760.0
"""Longest mean repair of an enclosure (hours): a year."""
MIN_AGEING_SHAPE = 0.2
"""Smallest Weibull shape of ``ageing.weibull``: field fits of drive lifetimes give 0.7 to 3
(Schroeder and Gibson 2007; Elerath and Pecht 2009 fitted 1.2); below 0.2 nearly every
failure would come in a drive's first hours."""

MAX_AGEING_SHAPE = 10.0
"""Largest Weibull shape of ``ageing.weibull``: at 10 a batch fails almost all at once,
near its scale; no drive population is that regular."""

MAX_AGEING_YEARS = 50
"""Most years of ``ageing.arr_by_year``: no drive serves fifty years."""

MAX_AGEING_FAILURES_PER_YEAR = 10.0
"""Highest failure rate an ``ageing`` law may reach during the mission (failures per
drive-year, at the mission's end for wear-out): a drive that fails ten times a year is no
storage device, and far past it (a Weibull of shape 10 at 150 years: 10^20 a year) the
chain's exponentials overflow."""

MAX_DRIVE_AGE_YEARS = 50.0
"""Oldest ``ageing.drive_age_years_at_start`` (years): no drive serves fifty years."""
MIN_STRIPE_UNIT_KIB = 4
"""Smallest stripe unit (KiB): one 4 KiB sector, the unit a drive reads and writes."""

MAX_STRIPE_UNIT_KIB = 16_384
"""Largest stripe unit (KiB): 16 MiB, OpenZFS's largest record (zfsprops(7), recordsize);
Linux md's chunks and hardware RAID's strips are 4 KiB to a few MiB."""

_REASONS = {
    "arr": "no drive population fails less than once per million drive-years",
    "afr": "no drive population fails less than once per million drive-years",
    "rebuild_hours": "no rebuild is faster than seconds",
    "scrub_hours": "no scrub finds a defect faster than seconds",
    "mission_years": "a mission shorter than 9 hours is outside the model's yearly rates",
    "unrecoverable_read_errors_per_bit": "spec sheets give 1e-14 for desktop HDDs to 1e-17 "
    "for enterprise SSDs; '1 sector per 10^15 bits' is 1e-15",
    "capacity_tb": "no drive holds less than a gigabyte",
    "iops_per_drive": "no drive serves less than one random I/O per second",
    "usable_fraction": "a drive holds data on more than 1% of itself",
    "price": "a drive costs 10^2-10^4 in dollars or euros, up to 10^8 in rupiah",
    "per_group": "a group's enclosure share costs less than a thousand drives",
    "watts": "a drive draws 5-25 W",
    "energy_per_kwh": "a kWh costs 0.1-0.5 in dollars or euros, ~2,000 in rupiah",
    "max_p_loss": "15 nines, the most target.min_nines asks for",
    "degraded_multiplier": "below 1, drives would fail less often while the group is degraded; "
    "1 is independent drives",
    "shocks_per_year": "a rate of shocks cannot be negative",
    "shock_drive_probability": "a probability lies between 0 and 1",
    "failures_per_year": "a rate of enclosure failures cannot be negative",
    "repair_hours": "no enclosure is repaired in less than seconds",
    "members_per_enclosure": "an enclosure holds at least one drive of the group",
    "spread": "a group spans at least one enclosure",
    "shape": "field fits of drive lifetimes give Weibull shapes of 0.7 to 3; below 0.2 nearly "
    "every failure would come in a drive's first hours",
    "drive_age_years_at_start": "a drive's age cannot be negative; 0 is new drives",
    "stripe_unit_kib": "a stripe unit holds at least one 4 KiB sector",
}


_UPPER_REASONS = {
    # why a field has its upper bound, where that is not the lower bound's reason
    "capacity_tb": "the largest drives hold tens of TB; 1,000 TB is far beyond any",
    "mtbf_hours": "an MTBF over 1e10 h is beyond any drive; it would be an ARR below 1e-6",
    "sustained_mb_per_s": "no drive sustains more than ~14,000 MB/s (PCIe 5 NVMe)",
    "price": _REASONS["price"],
    "per_group": _REASONS["per_group"],
    "watts": _REASONS["watts"],
    "energy_per_kwh": _REASONS["energy_per_kwh"],
    "max_cost": "the most a drive may cost, for a million drives",
    "unrecoverable_read_errors_per_bit": _REASONS["unrecoverable_read_errors_per_bit"],
    "degraded_multiplier": "field studies report a few times the base rate; 100 is beyond any",
    "shocks_per_year": "a shock a day is no longer a rare common cause",
    "shock_drive_probability": _REASONS["shock_drive_probability"],
    "failures_per_year": "an enclosure failing every week is broken, not a rate",
    "repair_hours": "an enclosure down for more than a year is not being repaired",
    "shape": "at a Weibull shape of 10 a batch fails almost all at once; no drive is that regular",
    "drive_age_years_at_start": "no drive serves fifty years",
    "arr_by_year": "no drive serves fifty years",
    "stripe_unit_kib": "OpenZFS's largest record is 16 MiB; md chunks and RAID strips are smaller",
}


_FIELD_RANGES = {
    # dotted field: (least, most, unit): the schema's inclusive ranges, for sweeps
    "drive.arr": (MIN_FRACTION_PER_YEAR, 1.0, ""),
    "restore.rebuild_hours": (MIN_RESTORE_HOURS, 8760.0, " hours"),
    "restore.scrub_hours": (MIN_RESTORE_HOURS, 87600.0, " hours"),
    "mission_years": (MIN_MISSION_YEARS, 100.0, " years"),
    "correlation.degraded_multiplier": (1.0, MAX_DEGRADED_MULTIPLIER, ""),
    "correlation.shocks_per_year": (0.0, MAX_SHOCKS_PER_YEAR, " per group-year"),
    "correlation.shock_drive_probability": (0.0, 1.0, ""),
    "enclosures.failures_per_year": (0.0, MAX_ENCLOSURE_FAILURES_PER_YEAR, " per enclosure-year"),
    "enclosures.repair_hours": (MIN_RESTORE_HOURS, MAX_ENCLOSURE_REPAIR_HOURS, " hours"),
    "enclosures.members_per_enclosure": (1.0, 1000.0, " drives"),
    "enclosures.spread": (1.0, 1000.0, " enclosures"),
    "ageing.weibull.shape": (MIN_AGEING_SHAPE, MAX_AGEING_SHAPE, ""),
    "ageing.drive_age_years_at_start": (0.0, MAX_DRIVE_AGE_YEARS, " years"),
}


def field_range(field: str) -> tuple[float, float] | None:
    """The least and most value of ``field`` (dotted), inclusive, or None if not recorded."""
    if field not in _FIELD_RANGES:
        return None
    least, most, _ = _FIELD_RANGES[field]
    return least, most


def outside_limits(field: str, value: float) -> str | None:
    """Why ``value`` is outside the scenario limits of ``field`` (dotted), or None.

    For values that do not come from a file, such as ``planner sweep --vary``'s.
    """
    if field not in _FIELD_RANGES:
        return None
    least, most, unit = _FIELD_RANGES[field]
    reason = reason_for(field.rsplit(".", 1)[-1])
    why = f" ({reason})" if reason else ""
    if value < least:
        return f"is below {least:g}{unit}, the least a scenario may hold{why}"
    if value > most:
        return f"is above {most:g}{unit}, the most a scenario may hold"
    return None


def reason_for(field: str, upper: bool = False) -> str:
    """Why ``field`` (a scenario key) has its lower bound, or its upper one with ``upper``.

    '' when no reason is recorded (e.g. ``rebuild_hours``' upper bound).
    """
    return (_UPPER_REASONS if upper else _REASONS).get(field, "")
