"""Compiling the numba kernels a command needs before it waits on them: the kernel
groups, the worker processes that compile them at once, and the status shown meanwhile."""
