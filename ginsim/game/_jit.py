"""The one place that sets numba compile options for every ginsim kernel.

``cache=True`` keeps compiled machine code next to the sources, so a second process
(a joblib worker, the next test run) loads it instead of compiling again.
``nogil=True`` lets kernels run in parallel threads. ``error_model="numpy"`` makes
integer division skip the Python zero-division check on the hot path.
``_nrt=False`` compiles without numba's reference-counting runtime: kernels allocate
nothing (the Python layer hands them every array), and without it no atomic
increment/decrement wraps each array passed between kernels. Profiling the hand loop
with it on showed those atomics at about a quarter of the run time.
"""

from numba import njit

jit = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
