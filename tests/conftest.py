"""Suite-wide settings.

In CI (``CI`` set, as the project's CI does) Hypothesis runs derandomized: the same
examples every run, so a red CI always means a real regression, never an unlucky draw.
Locally it explores fresh examples each run and remembers failures in ``.hypothesis/``.

The garbage collector runs less often than Python's default: Textual apps and pytest's
assertion rewriting allocate millions of short-lived objects, and with the default
thresholds the collector took 20 % of the TUI tests' CPU time and a quarter of the
collection's. After the collection, the modules, fixtures and test items are frozen (out of
every later collection's way). Memory stays a few hundred MB per worker.
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.testing
from hypothesis import settings

# No test asserts wall-clock time: Hypothesis's 200 ms deadline failed a newcomer's
# `make test` on a loaded 2-core machine (268 ms), so no run has one; CI also derandomizes.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")

gc.set_threshold(100_000, 50, 10)

# Typer's CliRunner.invoke turns the Typer app into a click command on every call, reading
# every command's signature and type hints again (9 ms of CPU; the suite invokes it about
# 2,200 times). The command is the same each time, so it is built once per app; the
# invocation itself (arguments, environment, streams, exit code) is unchanged. Only the
# build is shared: a test that patches a module the commands call still sees its patch.
if hasattr(typer.testing, "_get_command"):
    typer.testing._get_command = functools.cache(typer.testing._get_command)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (``make test``): two workers per core.

    The Pilot tests spend about 40 % of their time asleep (Textual's Pilot waits for the
    app to idle after every key, in 20 ms sleeps), so a core whose worker waits would sit
    idle; a second worker per core fills it. Measured on 2 cores, whole suite, quiet
    machine, alternating runs: 3 workers 122-127 s, 4 workers 111-122 s, 5 workers
    112-126 s (more workers add a collection each, ~5 s of CPU).
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cores or 1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything the collection built out of the collector's way."""
    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """One full collection at the end, then nothing left for the collector to walk.

    pytest's check for unraisable exceptions collects five times more at the end of each
    worker, to run the finalizers of the last garbage while its hook still listens; each of
    those walked every object the tests left alive (0.16 s or more a collection). The first
    collection here runs those finalizers under the same hook (it is removed only after
    the five), and the survivors, all still reachable, are frozen: the five then walk only
    what is made after this point. It also ends a worker sooner: execnet interrupts a
    worker that has not exited within 5 s of being told to.
    """
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True, scope="session")
def _private_cache_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Derivations cached by ``planner derive`` go to a temporary directory, never ~/.cache.

    Subprocesses inherit it (the environment variable is set for the whole session).

    matplotlib keeps its font list under the same variable: it is pointed at the folder it
    would use without the change (``MPLCONFIGDIR``, unless set), or every worker would scan
    the system's fonts afresh (~0.3 s of CPU) the first time it draws a picture.
    """
    previous = os.environ.get("XDG_CACHE_HOME")
    matplotlib_before = os.environ.get("MPLCONFIGDIR")
    if matplotlib_before is None:
        os.environ["MPLCONFIGDIR"] = str(Path(previous or Path.home() / ".cache") / "matplotlib")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if matplotlib_before is None:
        del os.environ["MPLCONFIGDIR"]
    if previous is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(scope="session")
def _settings_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One new, not yet created folder per call, under this session's temporary directory."""
    root = tmp_path_factory.mktemp("settings")
    return (root / str(number) for number in itertools.count())


@pytest.fixture(autouse=True)
def private_settings(_settings_folders: Iterator[Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own TUI settings folder: never the user's column choice, read or written.

    The folder is named, not made: the TUI creates it when it first saves, as it creates
    ``~/.config/planner``; a test that never saves costs no directory (a ``tmp_path`` for
    each test cost a millisecond of CPU time, two seconds over the suite).
    """
    folder = next(_settings_folders)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder
