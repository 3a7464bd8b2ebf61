"""The C extensions of planner (everything else is in pyproject.toml).

Both are optional (``optional=True``): a machine without a C compiler installs planner
without them and runs the NumPy paths, which give the same numbers more slowly.

* ``planner.core.markov._metzler``: the matrix exponential of stacks of small generators
  (``planner/core/markov/expm_compiled.py``).
* ``planner.report._rows``: the rows of a JSON or CSV export joined from its columns
  (``planner/report/sweep_export.py``).

``-ffp-contract=fast`` lets the compiler fuse multiply-adds where the processor has them;
the kernel picks its instruction set at load time (GCC's ``target_clones``).
"""

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c11", "-ffp-contract=fast", "-Wall", "-Wextra", "-Wno-unused-parameter"]

setup(
    ext_modules=[
        Extension(
            "planner.core.markov._metzler",
            ["planner/core/markov/_metzler.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            "planner.report._rows",
            ["planner/report/_rows.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ],
)
