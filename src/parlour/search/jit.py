"""numba for the search kernels, and the same kernels as plain Python when it cannot be had.

Why one decorator and two copies of one module: a kernel module (``search/tricks.py``) is
written once, as plain functions over integers and numpy arrays, and decorated with
:func:`kernel`.  Imported normally, each function is ``numba.njit(cache=True)``: compiled on
first call and cached on disk once per install.  :func:`python_copy` loads the *same file* a
second time with the decorator switched off, so its functions call each other as Python.  That
copy is what a player uses while the compiled one is not ready yet (compilation must never be
felt in a game: ``search/warm.py`` compiles in a separate process), and what runs everywhere if
numba fails to import.  ``NUMBA_DISABLE_JIT=1`` makes numba itself return the plain functions,
so the test of the Python path needs no other switch.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

_numba: ModuleType | None
try:  # pragma: no cover - which branch runs depends on the install
    import numba as _numba
except Exception:  # noqa: BLE001 - a broken numba (or llvmlite) is as good as none: run as Python
    _numba = None

#: numba is importable and not switched off: kernels compile.
AVAILABLE = _numba is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")
_plain = False  # set while python_copy() loads a module


#: numba's options for every kernel.  ``_nrt=False``: compiled without numba's runtime, so without its
#: reference counts.  Why: with them, every array a kernel binds (an argument, a helper's parameter,
#: a slice) takes an atomic increment and decrement of its count, and those were half of the search's
#: time (``perf`` on a hard Ramsch solve: ``NRT_incref`` and ``NRT_decref``); without them, 100 Ramsch
#: deals from the first card took 4.0 s of CPU instead of 11.9, and Six-Bid's solves 2.2 times less.
#: Safe because no kernel makes or returns an array: each works in the arrays its caller passes, which
#: that caller (Python) keeps alive for the call.  (numba's own option, as its tests use it.  numba keys
#: its on-disk cache on a kernel's source, not on these options: a change here needs a change to the
#: kernels' source too, or an old cache is loaded as it was compiled.)
OPTIONS: dict[str, object] = {"cache": True, "_nrt": False}


def kernel(fn: F) -> F:
    """``numba.njit`` with :data:`OPTIONS`, or the function itself for the Python copy or without numba."""
    if _plain or _numba is None:
        return fn
    return cast(F, _numba.njit(**OPTIONS)(fn))


def inline(fn: F) -> F:
    """:func:`kernel` for a small helper of a kernel, inlined into its callers by numba.

    Why: the search calls its helpers at every node, and a call between compiled functions costs
    more than the helper's few operations.  Measured with every helper a plain kernel (LLVM inlines
    some of them, not all): the first-run compile took a fifth of the time (23 s against 110, the
    machine loaded alike), but 200 Six-Bid solos from the first card took 10.1 s of CPU against 8.0,
    the same nodes: the search runs far more often than it compiles.
    """
    if _plain or _numba is None:
        return fn
    return cast(F, _numba.njit(inline="always", **OPTIONS)(fn))


def _python_trailing_zeros(mask: int) -> int:
    """The index of the lowest set bit of ``mask`` (> 0), as Python (numpy integers too)."""
    m = int(mask)
    return (m & -m).bit_length() - 1


def _python_popcount(mask: int) -> int:
    """The number of set bits of ``mask`` (>= 0), as Python (numpy integers too)."""
    return int(mask).bit_count()


def bit_ops() -> tuple[Callable[[int], int], Callable[[int], int]]:
    """``(trailing_zeros, popcount)`` of an ``int64`` for the kernel module being loaded: LLVM's own
    ``cttz`` and ``ctpop`` (one instruction each where the processor has it) when it compiles, else
    Python's ``int`` methods (the Python copy, ``NUMBA_DISABLE_JIT=1``, no numba).

    Why not written out in the kernels: a lowest-bit loop over bytes and a table, and a popcount by
    shifts and masks, were the search's own; LLVM's intrinsics found the same nodes and values in
    less time (200 Six-Bid solos and hearts, forced and as bid, and 200 Schafkopf solos from the first
    card: the figures are in ``tricks.low_bit``).  Generic LLVM intrinsics, not a processor's, so that
    the compiled code runs wherever numba runs (:func:`pext_op` is the one exception, and says why).
    """
    if _plain or not AVAILABLE:
        return _python_trailing_zeros, _python_popcount
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def trailing_zeros(typingctx: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))  # (0 gives 64, not poison)
        return types.int64(types.int64), codegen

    @intrinsic
    def popcount(typingctx: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])
        return types.int64(types.int64), codegen

    return cast(Callable[[int], int], trailing_zeros), cast(Callable[[int], int], popcount)


def _python_index(i: int) -> int:
    """An array index, as Python: itself."""
    return i


def index_op() -> Callable[[int], int]:
    """``ix``, for an array index that is never negative, for the kernel module being loaded: compiled,
    ``ix(i)`` is ``i`` as an unsigned integer, so numba indexes with it as it stands; as Python
    (the Python copy, ``NUMBA_DISABLE_JIT=1``, no numba), ``i`` itself.

    Why: numba reads ``a[i]`` with a signed ``i`` as Python does, ``a[len(a) + i]`` when ``i`` is
    negative, and compiles that test into every access whose index it cannot prove positive (a
    card read from an array, a frame's depth): three more instructions each, hundreds of them in
    the search.  The kernels never index with a negative number, so the test is dead weight; with an
    unsigned index numba emits none.  Measured (``search.tricks``: every index that is not a
    constant through ``ix``), paired deal by deal from empty tables, the same nodes and values: 300
    Ramsch deals from the first card 16 % less CPU, 400 forced Six-Bid solos and hearts 23 % less.
    What a negative index would do then: read outside the array, unchecked, as any index past its
    end already does (numba checks no bounds by default)."""
    if _plain or not AVAILABLE:
        return _python_index
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def ix(typingctx: Any, i: Any) -> Any:
        if not isinstance(i, types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return context.cast(builder, args[0], signature.args[0], types.int64)  # the same bits
        return types.uint64(i), codegen

    return cast(Callable[[int], int], ix)


def _python_prefetch(table: Any, row: int) -> None:
    """A prefetch, as Python: nothing to do."""


def prefetch_op() -> Callable[[Any, int], None]:
    """``prefetch``, to start loading a row of a 2-D array into the cache, for the kernel module being
    loaded: compiled, ``prefetch(table, row)`` is LLVM's ``llvm.prefetch`` of ``table[row, 0]`` (a hint:
    it reads nothing and cannot fault); as Python, nothing.

    Why: a transposition table's probe is a cache miss at nearly every trick start, and a trick start
    probes two rows (its exact entry, then its quasi or dominance one) whose loads the processor would
    otherwise wait for one after the other.  Both rows' loads started before the first is read, the
    two misses overlap, and the key of the second is computed while the first is on its way
    (``tricks._enter``), and so are the bounds the cards alone give it.  Measured in ``tricks``, paired
    deal by deal from empty tables (the same nodes and values, every variant's kernels loaded before
    the clock starts): 600 forced Six-Bid solos and hearts from the first card 8 % less CPU, 300
    Ramsches no less (with the bounds worked out while the rows load: 16 % and 20 % less than with
    neither).  Not kept: the rows a node writes when it closes prefetched too, no different; the table
    on the processor's 2 MiB pages (``madvise``), no different either."""
    if _plain or not AVAILABLE:
        return _python_prefetch
    from llvmlite import binding, ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    # the intrinsic's name carries its pointer type: ``p0`` once pointers are opaque (LLVM 17 on)
    name = "llvm.prefetch.p0" if binding.llvm_version_info[0] >= 17 else "llvm.prefetch.p0i8"

    @intrinsic
    def prefetch(typingctx: Any, table: Any, row: Any) -> Any:
        if not (isinstance(table, types.Array) and table.ndim == 2 and isinstance(row, types.Integer)):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type, row_type = signature.args
            array = context.make_array(array_type)(context, builder, args[0])
            index = context.cast(builder, args[1], row_type, types.intp)
            first = cgutils.get_item_pointer(context, builder, array_type, array,
                                             [index, context.get_constant(types.intp, 0)], wraparound=False)
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), name)
            # a read (0), kept in every level of the cache (3), of data (1)
            builder.call(function, [builder.bitcast(first, byte_pointer), ir.Constant(i32, 0), ir.Constant(i32, 3),
                                    ir.Constant(i32, 1)])
            return context.get_dummy_value()
        return types.void(table, row), codegen

    return cast(Callable[[Any, int], None], prefetch)


def _python_pext(x: int, mask: int) -> int:
    """The bits of ``x`` where ``mask`` has its set bits, packed into the low bits in their order."""
    x, mask = int(x), int(mask)
    out = 0
    k = 0
    while mask:
        low = mask & -mask
        if x & low:
            out |= 1 << k
        k += 1
        mask ^= low
    return out


#: the processors whose ``pext`` is microcoded, tens to hundreds of cycles (AMD before Zen 3): the loop
#: of :func:`_python_pext`, compiled, is as fast there
SLOW_PEXT = ("znver1", "znver2", "bdver", "btver")


def pext_op(fast: bool | None = None) -> Callable[[int, int], int]:
    """``pext(x, mask)``, the bits of ``x`` at ``mask``'s set bits packed into the low bits, for the kernel
    module being loaded: compiled, the processor's ``pext`` (BMI2) where it has a fast one, else the
    loop of :func:`_python_pext` compiled; as Python, that loop.  ``fast`` (compiled only): the
    processor's instruction (True) or the loop (False) whatever the host, for a test; None: as above.

    Why a processor's instruction here when :func:`bit_ops` keeps to generic ones: LLVM has no generic
    ``pext``, and it packs a run's cards to its top in three instructions a hand where a loop takes one
    pass a card (``tricks._canonical``, at every trick start, twice).  Safe on any processor: numba keys
    its on-disk cache on the host's name and features, so code compiled with ``pext`` never loads where
    the choice here would differ."""
    if _plain or not AVAILABLE:
        return _python_pext
    from llvmlite import binding, ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    if fast is None:
        name = binding.get_host_cpu_name()
        fast = bool(binding.get_host_cpu_features().get("bmi2")) and not name.startswith(SLOW_PEXT)
    if not fast:
        return cast(Callable[[int, int], int], inline(_python_pext))

    @intrinsic
    def pext(typingctx: Any, x: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = ir.IntType(64)
            function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                                      "llvm.x86.bmi.pext.64")
            return builder.call(function, [args[0], args[1]])
        return types.int64(types.int64, types.int64), codegen

    return cast(Callable[[int, int], int], pext)


_copies: dict[str, ModuleType] = {}


def python_copy(module: ModuleType) -> ModuleType:
    """The same kernel module loaded again with :func:`kernel` switched off (one per module)."""
    package, _, leaf = module.__name__.rpartition(".")
    name = f"{package}._python_{leaf}"  # a sibling, so that its relative imports resolve alike
    got = _copies.get(name)
    if got is not None:
        return got
    global _plain
    spec = importlib.util.spec_from_file_location(name, module.__file__)
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    _plain = True
    try:
        sys.modules[name] = copy
        spec.loader.exec_module(copy)
    finally:
        _plain = False
    _copies[name] = copy
    return copy
