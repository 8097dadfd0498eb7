"""Bit counting on card masks as single machine instructions (LLVM's ctpop and cttz).

numba has no popcount of its own; a shift-and-add version costs a dozen operations,
and the meld, discard and layoff kernels call these in their innermost loops.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import jit


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
    return types.int64(types.int64), codegen


@jit
def popcount_nb(x):
    """Number of set bits of a mask."""
    return _ctpop(x)


@jit
def lowest_card_nb(x):
    """Index of the lowest set bit of a non-zero mask (64 for zero)."""
    return _cttz(x)


@jit
def nth_card_nb(mask, k):
    """The ``k``-th lowest card of ``mask`` (from 0), or -1 when it holds fewer."""
    for c in range(52):
        if (mask >> c) & 1:
            if k == 0:
                return c
            k -= 1
    return -1
