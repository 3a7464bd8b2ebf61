"""What letting a shock fail the defect's holder would change (audit, not a test).

The correlated chain (planner.core.markov.chain._shocks, the simulator's on_shock and
tests/reference.py alike) lets a shock fail only the ``W = N - f - l`` working drives
*without* the latent defect: the holder is immune to shocks, although it fails at
``lambda_op`` (x m) like any drive since issue 20. P(group lost) is computed from the
chain without defects, shocks on all ``N - f`` drives. The two disagree about the same
process of drives down, and in ``scenarios/correlated-20tb.yaml`` every layout's expected
whole-group losses come out below P(group lost), which no count can do (E[N] >= P(N >= 1)).

This script rebuilds the chains in 40-digit mpmath from tests/reference.py's rules, once as
they are (planner's figures, to check the rebuild) and once with the holder exposed to
shocks (each of the N - f working drives fails with probability q; the holder's failure
takes its defect with it, as an operational failure of the holder does). It prints both
for the shipped correlated scenario's layouts, and the direction that went wrong (ten
times the defect rate).

Run: ``.venv/bin/python audit/holder_shocks.py`` (about half a minute).
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import reference  # noqa: E402

YEAR = 8760.0


def moves_holder_exposed(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild: float,
    scrub: float,
    m: float,
    shocks: float,
    q: float,
    share: float = 1.0,
) -> dict[tuple[int, int], dict[object, mpmath.mpf]]:
    """tests/reference._correlated_moves with the holder exposed to shocks."""
    base = reference._correlated_moves(parity, drives, lop, lld, rebuild, scrub, m, 0.0, q, share)
    rate, p, sigma = mpmath.mpf(shocks), mpmath.mpf(q), mpmath.mpf(share)

    def add(source: tuple[int, int], target: object, value: mpmath.mpf) -> None:
        row = base.setdefault(source, {})
        row[target] = row.get(target, mpmath.mpf(0)) + value

    for f, lat in reference.states(parity):
        s = (f, lat)
        others = drives - f - lat  # working drives without the defect
        for holder in (0, 1) if lat else (0,):
            for j in range(others + 1):
                if j == 0 and holder == 0:
                    continue
                chance = mpmath.binomial(others, j) * p**j * (1 - p) ** (others - j)
                if lat:
                    chance *= p if holder else 1 - p
                value = rate * chance
                down = f + j + holder
                left = lat - holder  # the holder's failure takes its defect
                if down + left <= parity:
                    add(s, (down, left), value)
                elif down > parity:
                    add(s, "group", value)
                else:  # k down beside the defect: its stripe (sigma), else (k, 0)
                    add(s, "sectors", sigma * value)
                    add(s, (parity, 0), value - sigma * value)
    return base


def figures(moves: dict, parity: int, hours: float) -> dict[str, mpmath.mpf]:
    """P(loss), P(sectors lost) and the going-on integrals of ``moves``."""
    t = mpmath.mpf(hours)
    full, index = reference._assemble(moves, parity, {}, ("group", "sectors"))
    exp = reference.expm(full * t)
    on_q, _ = reference._assemble(moves, parity, {"group": (0, 0), "sectors": (parity, 0)}, ())
    chain = reference.states(parity)
    zero = mpmath.mpf(0)
    rewards = [
        [moves[s].get("group", zero) for s in chain],
        [moves[s].get("sectors", zero) for s in chain],
        [mpmath.mpf(f >= 1) for f, _ in chain],
        [mpmath.mpf(f == parity) for f, _ in chain],
    ]
    group, events, degraded, critical = reference._van_loan(on_q, rewards, t)
    return {
        "p_loss": exp[0, index["group"]] + exp[0, index["sectors"]],
        "expected_group_losses": group,
        "expected_sector_loss_events": events,
        "degraded_h_per_year": degraded / t * YEAR,
        "critical_h_per_year": critical / t * YEAR,
    }


LAYOUTS = [  # correlated-20tb.yaml: label, k, N, rebuild hours, sigma
    ("RAID 6 (10+2)", 2, 12, 77.19557291160717, 1.0),
    ("RAID 5 (7+1)", 1, 8, 77.19557291160717, 1.0),
    ("RAID 10", 1, 2, 77.19557291160717, 1.0),
    ("triple parity (12+3)", 3, 15, 77.19557291160717, 1.0),
    ("draid2:8d:48c:2s", 2, 48, 35.41171622477235, 0.03330249768732655),
]
LOP, LLD, SCRUB, M, SHOCKS, Q, T = 0.01 / YEAR, 9e-5, 168.0, 3.0, 0.1 / YEAR, 0.012, 5 * YEAR


POOL = LAYOUTS[-1]


def pool_p_loss() -> None:
    """The pool's P(loss) as defects grow 100-fold, shocks at q = 5 %: it falls while the
    holder is immune (planner: 0.194970 -> 0.194144), it rises with the holder exposed."""
    label, k, n, rebuild, sigma = POOL
    q = 0.05
    for name, build in (
        ("holder immune (planner)", reference._correlated_moves),
        ("holder exposed", moves_holder_exposed),
    ):
        p = [
            figures(build(k, n, LOP, lld, rebuild, SCRUB, M, SHOCKS, q, sigma), k, T)["p_loss"]
            for lld in (LLD, 100 * LLD)
        ]
        print(
            f"{label}, q = {q}, defects x100: {name}: P(loss) {float(p[0]):.6g} -> "
            f"{float(p[1]):.6g} ({float(p[1] / p[0] - 1):+.3%})"
        )


def main() -> None:
    """Both rules side by side, and the defect-rate direction under each."""
    with mpmath.workdps(40):
        pool_p_loss()
        for label, k, n, rebuild, sigma in LAYOUTS:
            group_lost = reference._defect_free_group_lost(
                k, n, LOP, LLD, rebuild, SCRUB, M, SHOCKS, Q, T, 1
            )
            print(f"{label}: P(group lost) {float(group_lost):.6g} (either rule)")
            for name, build in (
                (
                    "holder immune (planner)",
                    lambda lld: reference._correlated_moves(
                        k, n, LOP, lld, rebuild, SCRUB, M, SHOCKS, Q, sigma
                    ),
                ),
                (
                    "holder exposed",
                    lambda lld: moves_holder_exposed(
                        k, n, LOP, lld, rebuild, SCRUB, M, SHOCKS, Q, sigma
                    ),
                ),
            ):
                now, more = (figures(build(lld), k, T) for lld in (LLD, 10 * LLD))
                shown = ", ".join(f"{key} {float(v):.6g}" for key, v in now.items())
                moved = ", ".join(f"{key} {float(more[key] / now[key] - 1):+.2%}" for key in now)
                print(f"  {name}: {shown}")
                print(f"    defects x10: {moved}")


if __name__ == "__main__":
    main()
