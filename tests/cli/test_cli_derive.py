"""planner derive: readable output, the disk cache, and k = 7, 8 without a long wait."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis import derivation_cache
from planner.cli import app

# the modules that derive chains symbolically run on one worker: each derivation is
# made once and then read from that worker's cache (make test: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("derivations")


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "planner"


def test_parity_2_lines_are_readable(cache: Path) -> None:
    """Piped output used to hold a 2,827-character line: now 100 columns at most."""
    result = CliRunner().invoke(app, ["derive", "--parity", "2"])
    assert result.exit_code == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 100
    assert "MTTDL, leading order for λ << μ (hours) = A / B" in result.stdout
    assert "  P = μOp³ μScrub + λOp μOp³ + 3 (n + 1) λOp μOp² μScrub" in result.stdout
    assert "  D = n(n + 1)(n + 2) λOp² × (" in result.stdout


@pytest.mark.parametrize("columns", [72, 80])
def test_piped_text_takes_columns_as_the_tables_do(cache: Path, columns: int) -> None:
    """With COLUMNS set (a script's or `watch`'s width), piped text fits it, as a table's does."""
    result = CliRunner().invoke(app, ["derive", "--parity", "2"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= columns
    table = CliRunner().invoke(app, ["evaluate"], env={"COLUMNS": str(columns)})
    assert max(len(line) for line in table.stdout.splitlines()) <= columns


def test_second_run_reads_the_cache(cache: Path) -> None:
    first = CliRunner().invoke(app, ["derive", "--parity", "3"])
    assert first.exit_code == 0, first.stderr
    entry = derivation_cache.entry_path(3, cache)
    assert entry.exists()
    stamp = entry.stat().st_mtime_ns
    second = CliRunner().invoke(app, ["derive", "--parity", "3"])
    assert second.stdout == first.stdout
    assert entry.stat().st_mtime_ns == stamp  # read, not rewritten


def test_a_corrupt_cache_entry_is_rebuilt(cache: Path) -> None:
    clean = CliRunner().invoke(app, ["derive", "--parity", "1"]).stdout
    derivation_cache.entry_path(1, cache).write_text("garbage", encoding="utf-8")
    result = CliRunner().invoke(app, ["derive", "--parity", "1"])
    assert result.exit_code == 0
    assert result.stdout == clean
    assert derivation_cache.load(1, cache) is not None


@pytest.mark.parametrize("parity", ["7", "8"])
def test_large_parity_gives_the_leading_order_and_says_why(cache: Path, parity: str) -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", parity])
    assert result.exit_code == 0, result.stderr
    assert "MTTDL, leading order" in result.stdout
    assert "not computed" in result.stdout
    assert "--force" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not cache.exists() or not list(cache.iterdir())


def test_leading_order_option(cache: Path) -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", "2", "--leading-order"])
    assert result.exit_code == 0
    assert "not computed" in result.stdout
    assert result.stderr == ""


def test_latex_is_a_math_fragment(cache: Path) -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", "2", "--format", "latex"])
    assert result.exit_code == 0
    assert r"\begin{align*}" in result.stdout
    assert r"\begin{equation*}" in result.stdout
    # the MTTDL and the share of losses that lose sectors: two balanced align blocks
    assert result.stdout.count(r"\begin{align*}") == result.stdout.count(r"\end{align*}") == 2
    assert "leading order for" in result.stdout.split(r"\end{align*}")[1]


def test_parity_above_8_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", "9"])
    assert result.exit_code == 2


def test_derive_shows_the_share_of_losses_that_lose_sectors(cache: Path) -> None:
    text = CliRunner().invoke(app, ["derive", "--parity", "1"]).stdout
    section = text.split("What is lost")[1]
    assert "b = λOp μScrub + λLd μOp" in section  # the leading order, in the paper's names
    assert "Exact (n data drives): s = " in section
    beyond = CliRunner().invoke(app, ["derive", "--parity", "3", "--leading-order"]).stdout
    assert "derived for k <= 2" in beyond.split("What is lost")[1]


PROGRAM_SYNTAX = ("*", "⋅", "─", "**")
"""What SymPy's str and pretty printers leave in text; the derivation's maths has none."""


@pytest.mark.parametrize(
    ("args", "leading", "exact"),
    [
        # k = 1: s -> λLd μOp / (λLd μOp + λOp μScrub) (NS3574's rates; sector_loss_share).
        # Exact, solved by hand from the chain with the holder's move (0, 1) -> (1, 0):
        # s = λLd (μOp + n λOp) / (λOp μScrub + λLd μOp + (n + 1) λOp² + (n + 1) λOp λLd)
        (
            ("--parity", "1"),
            ["    a = λLd μOp", "    b = λOp μScrub + λLd μOp"],
            [
                "    p = λLd × (μOp + n λOp)",
                "    q = λOp μScrub + λLd μOp + (n + 1) λOp² + (n + 1) λOp λLd",
            ],
        ),
        (
            ("--parity", "2"),
            ["    a = λLd × (μOp + μScrub)", "    b = λOp μScrub + λLd μOp + λLd μScrub"],
            ["    p = λLd × (μOp² + μOp μScrub"],
        ),
    ],
)
def test_the_share_is_readable_maths(
    cache: Path, args: tuple[str, ...], leading: list[str], exact: list[str]
) -> None:
    """The share of losses that lose sectors in the MTTDL part's notation, not Python."""
    result = CliRunner().invoke(app, ["derive", *args])
    assert result.exit_code == 0, result.stderr
    section = result.stdout.split("What is lost")[1]
    assert not [s for s in PROGRAM_SYNTAX if s in section]
    assert "  Leading order for λ << μ: s ≈ a / b" in section
    assert "  Exact (n data drives): s = p / q" in section
    lines = section.splitlines()
    for line in leading:
        assert line in lines
    for line in exact:
        assert any(x.startswith(line) for x in lines), line
    assert max(len(line) for line in result.stdout.splitlines()) <= 100


def test_a_lone_number_comes_first(cache: Path) -> None:
    """Every failed drive rebuilt at once: A = 2 μOp² μScrub, not μOp² μScrub × 2."""
    result = CliRunner().invoke(app, ["derive", "--parity", "2", "--parallel-rebuilds", "all"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  A = 2 μOp² μScrub" in lines
    assert not [line for line in lines if line.rstrip().endswith("× 2")]
