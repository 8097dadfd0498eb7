"""The one place that sets numba compile options for every ginsim kernel.

``cache=True`` keeps compiled machine code next to the sources, so a second process
(a joblib worker, the next test run) loads it instead of compiling again.
``nogil=True`` lets kernels run in parallel threads. ``error_model="numpy"`` makes
integer division skip the Python zero-division check on the hot path.
"""

from numba import njit

jit = njit(cache=True, nogil=True, error_model="numpy")
