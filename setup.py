"""The C extensions of planner (everything else is in pyproject.toml).

Both are optional (``optional=True``): a machine without a C compiler installs planner
without them and runs the NumPy paths, which give the same numbers more slowly.

* ``planner.core.markov._metzler``: the matrix exponential of stacks of small generators
  (``planner/core/markov/expm_compiled.py``).
* ``planner.report._rows``: the rows of a JSON or CSV export joined from its columns
  (``planner/report/sweep_export.py``).

``-ffp-contract=fast`` lets the compiler fuse multiply-adds where the processor has them;
the kernel picks its instruction set at load time (GCC's ``target_clones``) and is compiled
once per common matrix size (``_metzler_body.h``).
"""

from setuptools import Extension, setup

# -O2 with GCC's vector types (the kernel writes its vector code itself): -O3 gained 8 % in
# speed for three times the compile time (20 s -> 64 s); -g0: no debug information to build.
FLAGS = ["-O2", "-g0", "-std=c11", "-ffp-contract=fast", "-Wall", "-Wextra"]

setup(
    ext_modules=[
        Extension(
            "planner.core.markov._metzler",
            ["planner/core/markov/_metzler.c"],
            depends=["planner/core/markov/_metzler_body.h"],
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
