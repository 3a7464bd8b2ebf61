"""planner: capacity and data-loss risk of RAID layouts, side by side."""

import os

# One BLAS thread, unless the user asked for more. planner's matrices are small (3 x 3 to a
# few hundred states), where a threaded BLAS is slower than one thread, and its own pool
# runs the many chains side by side (planner.core.markov.pool). Set before NumPy is
# imported: OpenBLAS starts its threads then, and they cost a command on 2 cores CPU that
# competes with its own work (a tiny sweep, 10 runs each, alternating: 0.84 s wall and
# 0.96 s of CPU with 2 threads, 0.73 s and 0.73 s with one; benchmarks/README.md).
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

__version__ = "0.1.0"
