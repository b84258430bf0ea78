#!/usr/bin/env python3
"""gen-f08.py: generates the source of Tide's `use mpi_f08` module from mpi.h.

  gen-f08.py MPI_H module > mpi_f08.f90   the modules tide_f08_glue and mpi_f08
  gen-f08.py MPI_H list                   the procedures of mpi_f08

It reads mpi.h through gen-bindings.py (the same prototypes, the same rules
deciding what is bound, the same constants) and binds every function the
`mpi` module binds, and the ones written by hand in fortran/f_*.c, once more:
as a generic MPI_Xxx with the specific MPI_Xxx_f08, a module procedure
that takes handles as TYPE(MPI_Comm), ... and statuses as TYPE(MPI_Status),
makes ierror OPTIONAL and calls the C wrapper mpi_xxx_ of mpi_fortran.c.
Those wrappers are declared in the module tide_f08_glue under their own
names (gfortran's mangling gives mpi_xxx_) and renamed on use, so the
generic names stay free. Large-count forms MPI_Xxx_c join the generic
MPI_Xxx as MPI_Xxx_c_f08 when their arguments tell them apart. Memory
returned as an address (TYPE(C_PTR)) and MPI_Aint_add/diff call the C
functions through BIND(C) interfaces. Callbacks (keyvals, generalized
requests, data representations, user operations, errhandlers) have the
standard's abstract interfaces, and the same calling convention as those
of mpif.h: their procedures go to the same C wrappers.

Choice buffers are TYPE(*), DIMENSION(..) (assumed rank): each procedure
gives the descriptors of its buffers, with their count and datatype, to
tide_f08_choice (f_choice.c), which returns the addresses, count and
datatype for the C wrapper: a non-contiguous array section is described by
a derived datatype over the user's, made for the call and freed after it
(a pending operation keeps its own reference); the buffers of a blocking
reduction laid out differently are copied. MPI_SUBARRAYS_SUPPORTED is
.TRUE.; the buffers of every nonblocking call are ASYNCHRONOUS, and
gfortran's ASYNCHRONOUS is that of TS 29113: MPI_ASYNC_PROTECTS_NONBLOCKING
is .TRUE. too.
"""
import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location(
    "gen_bindings", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-bindings.py"))
gb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gb)

HANDLE_KINDS = {1: "Comm", 2: "Group", 3: "Datatype", 4: "Op", 5: "Errhandler", 6: "Request",
                7: "Info", 8: "Win", 9: "File", 10: "Message", 12: "Session"}
KIND_NAMES = {"MPI_Aint": "MPI_ADDRESS_KIND", "MPI_Offset": "MPI_OFFSET_KIND",
              "MPI_Count": "MPI_COUNT_KIND"}
NOARG = "!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s"


def wrap(head, names, tail):
    """A free-form statement head(name, name, ...)tail in lines of < 132 characters."""
    out, line = [], head
    for i, a in enumerate(names):
        a += ", " if i < len(names) - 1 else ""
        if len(line) + len(a) > 110:
            out.append(line.rstrip() + " &")
            line = "        "
        line += a
    out.append(line + tail)
    return out


def classify(ctype, name, dims):
    """(what, base, const, array) of one C parameter."""
    const, base, ptr, arr = gb.param_shape(ctype, name, dims)
    if dims == "[][3]":
        return "ranges", base, const, True
    if base == "void":
        return "choice", base, const, True
    if base == "char":
        return "string", base, const, False
    if base == "MPI_Status":
        return "status", base, const, "statuses" in name or bool(dims)
    if base in KIND_NAMES:
        return "kind", base, const or not ptr, arr
    if base.startswith("MPI_") and base[4:] in gb.HANDLES:
        return "handle", base, const or (not ptr and not arr), arr
    return "int", base, const or (not ptr and not arr), arr


def glue_decl(ctype, name, dims):
    """The declaration of a dummy of a C wrapper's interface (tide_f08_glue):
    handles as INTEGER, whole arrays of handles and statuses as addresses."""
    what, base, const, arr = classify(ctype, name, dims)
    if what == "ranges":
        return ["integer :: %s(3, *)" % name]
    if what == "choice":
        return ["integer(c_intptr_t), value :: %s" % name]
    if what == "status" or (what == "handle" and arr):
        return [NOARG % name, "type(*), dimension(*) :: %s" % name]
    if what == "string":
        return ["character(len=*) :: %s" % name]
    if what == "kind":
        return ["integer(kind=%d) :: %s%s" % (gb.KINDS[base], name, "(*)" if arr else "")]
    if what == "handle":
        return ["integer :: %s" % name]
    t = "logical" if name in gb.LOGICALS else "integer"
    return ["%s :: %s%s" % (t, name, "(*)" if arr else "")]


def f08_decl(ctype, name, dims, asynchronous):
    """The declaration of a dummy of an mpi_f08 procedure, and the actual
    argument it gives the C wrapper."""
    what, base, const, arr = classify(ctype, name, dims)
    intent = ", intent(in)" if const else ""
    dim = "(*)" if arr else ""
    if what == "ranges":
        return ["integer%s :: %s(3, *)" % (intent, name)], name
    if what == "choice":
        return ["type(*), dimension(..)%s%s :: %s"
                % (intent, ", asynchronous, target" if asynchronous else "", name)], name
    if what == "string":
        return ["character(len=*)%s :: %s" % (intent, name)], name
    if what == "status":
        return ["type(MPI_Status)%s :: %s%s" % (intent, name, dim)], name
    if what == "kind":
        return ["integer(kind=%s)%s :: %s%s" % (KIND_NAMES[base], intent, name, dim)], name
    if what == "handle":
        t = "type(%s)%s :: %s%s" % (base, intent, name, dim)
        return [t], name if arr else name + "%MPI_VAL"
    t = "logical" if name in gb.LOGICALS else "integer"
    return ["%s%s :: %s%s" % (t, intent, name, dim)], name


# The calls MPI-3 removed (MPI-4.0 17.2: deprecated in MPI-2, removed in
# MPI-3): mpi_f08, new in MPI-3, never had them; their old Fortran
# arguments differ from C's (default INTEGER addresses, gen-bindings.py's
# MPI1_FINT_AINT), so the C wrappers are not theirs to call either.
REMOVED = {"MPI_Address", "MPI_Type_hindexed", "MPI_Type_hvector", "MPI_Type_struct",
           "MPI_Type_extent", "MPI_Type_lb", "MPI_Type_ub", "MPI_Errhandler_create",
           "MPI_Errhandler_set", "MPI_Errhandler_get", "MPI_Keyval_create", "MPI_Keyval_free",
           "MPI_Attr_put", "MPI_Attr_get", "MPI_Attr_delete"}


def bound(text):
    """The (function, parameters) the `mpi` module binds, but those MPI-3
    removed."""
    for fn, params in gb.prototypes(text):
        if fn in REMOVED:
            continue
        try:
            gb.binding(fn, params)
        except gb.Unbound:
            continue
        yield fn, params


def signature(params):
    """What tells the Fortran dummies apart: (name, type, kind, rank) each,
    None for a choice buffer (NO_ARG_CHECK: it takes anything)."""
    sig = []
    for p in params:
        ctype, name, dims = gb.split_param(p)
        what, base, const, arr = classify(ctype, name, dims)
        if what == "choice":
            sig.append(None)
        elif what == "kind":
            sig.append((name, "integer", gb.KINDS[base], arr))
        elif what == "int":
            sig.append((name, "logical" if name in gb.LOGICALS else "integer", 4, arr))
        else:
            sig.append((name, what, base, arr))
    return sig


def large_count(text, plain):
    """The large-count forms (MPI_Xxx_c) that overload a bound MPI_Xxx in
    mpi_f08: their C wrapper is generated and some argument tells them
    apart (not so where only MPI_Aint became MPI_Count: both are
    INTEGER(KIND=8), e.g. MPI_Type_get_extent_c)."""
    params_of = dict(plain)
    for fn, params in gb.prototypes(text):
        if not fn.endswith("_c") or fn[:-2] not in params_of:
            continue
        try:
            gb.binding(fn, params, large_count=True)
        except gb.Unbound:
            continue
        a, b = signature(params), signature(params_of[fn[:-2]])
        if len(a) != len(b) or any(x and y and x[0] == y[0] and x != y for x, y in zip(a, b)):
            yield fn, params


# calls whose buffers MPI keeps using after they return without a request
RETAINED = re.compile(r"^MPI_(Buffer_attach|Win_create|Win_attach|Win_detach|Put|Get|Accumulate|"
                      r"Get_accumulate|Fetch_and_op|Compare_and_swap|File_\w+_(begin|end))(_c)?$")


def retains_buffers(fn, params):
    """Does MPI use the buffers after the call returns (an operation started,
    memory attached)? They are then ASYNCHRONOUS, and TARGET: gfortran takes
    the address of a dummy without TARGET as not kept past the call."""
    return bool(RETAINED.match(fn)) or \
        any(gb.split_param(p)[:2] == ("MPI_Request *", "request") for p in params)


def glue_interface(fn, params):
    names = [gb.split_param(p)[1] for p in params] + ["ierror"]
    out = wrap("  subroutine %s(" % fn.lower(), names, ")")
    if any(classify(*gb.split_param(p))[0] == "choice" for p in params):
        out.append("    import :: c_intptr_t")
    for p in params:
        out += ["    " + d for d in glue_decl(*gb.split_param(p))]
    out += ["    integer :: ierror", "  end subroutine %s" % fn.lower()]
    return out


# how tide_f08_choice (f_choice.c) may describe a group of buffers
CHOICE_ADDRESS, CHOICE_ANY_ADDRESS, CHOICE_RECOUNT, CHOICE_KEEP_COUNT, CHOICE_RECOUNT_OR_COPY = 0, 1, 2, 3, 4


def choice_groups(fn, params):
    """The choice buffers of a function, in groups that share a count and a
    datatype (adjacent buffers: those of a reduction): (buffer names, count
    (name, is an array, C type) or None, datatype (name, is an array) or
    None, how, bit i set if the call writes buffer i). The count and
    datatype are the first ones after the buffers, before the next buffer.
    The buffers of a blocking reduction laid out differently are copied
    (no one datatype describes both)."""
    split = [gb.split_param(p) for p in params]
    info = [classify(*s) for s in split]
    names = [s[1] for s in split]
    groups, i = [], 0
    while i < len(split):
        if info[i][0] != "choice":
            i += 1
            continue
        j = i
        while j < len(split) and info[j][0] == "choice":
            j += 1
        members, count, dtype = names[i:j], None, None
        for k in range(j, len(split)):
            what, base, const, arr = info[k]
            if what == "choice":
                break
            if count is None and "count" in names[k] and what in ("int", "kind"):
                count = (names[k], arr, base)
            if what == "handle" and base == "MPI_Datatype":
                dtype = (names[k], arr)
                break
        low = fn.lower()
        per_process = any(("gather" in low and m.startswith("recv")) or
                          ("scatter" in low and m.startswith("send")) or "alltoall" in low
                          for m in members) or "reduce_scatter" in low or "partitions" in names
        if dtype is None or dtype[1]:
            how = CHOICE_ANY_ADDRESS if (members == ["location"] or low.endswith("_end")) \
                else CHOICE_ADDRESS
        elif count is None or count[1] or per_process:
            how = CHOICE_KEEP_COUNT
        elif len(members) > 1 and not retains_buffers(fn, params) and not low.endswith("_init"):
            how = CHOICE_RECOUNT_OR_COPY
        else:
            how = CHOICE_RECOUNT
        written = sum(1 << n for n, m in enumerate(members) if not info[names.index(m)][2])
        groups.append((members, count, dtype, how, written))
        i = j
    return groups


def f08_procedure(fn, params):
    names, decls, actuals = [], [], []
    nb = retains_buffers(fn, params)
    for p in params:
        ctype, name, dims = gb.split_param(p)
        d, a = f08_decl(ctype, name, dims, nb)
        names.append(name)
        decls += d
        actuals.append(a)
    groups = choice_groups(fn, params)
    locals_, before, after = [], [], []
    for g, (members, count, dtype, how, written) in enumerate(groups, 1):
        locals_ += ["integer(c_intptr_t) :: addr_%d(3), copies_%d" % (g, g), "integer(c_int64_t) :: count_%d" % g,
                    "integer(c_int) :: type_%d, made_%d" % (g, g)]
        before.append("made_%d = 0" % g)
        before.append("copies_%d = 0" % g)
        for j, m in enumerate(members):
            actuals[names.index(m)] = "addr_%d(%d)" % (g, j + 1)
        if count and not count[1]:
            before.append("count_%d = %s" % (g, count[0]))
        else:
            before.append("count_%d = %d" % (g, 1 if count else 0))
        if dtype and not dtype[1]:
            before.append("type_%d = %s%%MPI_VAL" % (g, dtype[0]))
            actuals[names.index(dtype[0])] = "type_%d" % g
        else:
            before.append("type_%d = 0" % g)
        if how in (CHOICE_RECOUNT, CHOICE_RECOUNT_OR_COPY):
            kind = "kind=%s" % KIND_NAMES[count[2]] if count[2] in KIND_NAMES else "kind=c_int"
            locals_.append("integer(%s) :: count_%d_c" % (kind, g))
            actuals[names.index(count[0])] = "count_%d_c" % g
        bufs = (members * 3)[:3] if len(members) == 1 else (members + members[:1])[:3]
        call = wrap("call tide_f08_choice(", bufs + ["%d" % len(members), "%d" % how, "%d" % written,
                    "count_%d" % g, "type_%d" % g, "addr_%d" % g, "made_%d" % g, "copies_%d" % g, "ierr_c"], ")")
        if g > 1:
            call[0] = "if (ierr_c == 0) " + call[0]
        before += call
        if how in (CHOICE_RECOUNT, CHOICE_RECOUNT_OR_COPY):
            before.append("count_%d_c = int(count_%d, kind(count_%d_c))" % (g, g, g))
        after.append("call tide_f08_choice_free(made_%d, copies_%d, ierr_c)" % (g, g))
    spec = fn + "_f08"
    out = wrap("  subroutine %s(" % spec, names + ["ierror"], ")")
    out.append("    use tide_f08_glue, only: c_wrapper => p%s" % fn.lower())
    if groups:
        out.append("    use tide_f08_glue, only: tide_f08_choice, tide_f08_choice_free, tide_f08_choice_error")
        out.append("    use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_intptr_t")
    out += ["    " + d for d in decls]
    out += ["    integer, optional, intent(out) :: ierror", "    integer :: ierr_c"]
    out += ["    " + d for d in locals_]
    out += ["    " + d for d in before]
    call = wrap("call c_wrapper(", actuals + ["ierr_c"], ")")
    if groups:
        # a layout tide_f08_choice cannot describe: the error goes to the
        # handler of the call's communicator, window or file
        obj = next(((k, n) for k, n, t in ((1, "comm", "MPI_Comm"), (2, "win", "MPI_Win"), (3, "fh", "MPI_File"))
                    if n in names and classify(*gb.split_param(params[names.index(n)]))[1] == t), (0, None))
        out += ["    if (ierr_c == 0) then"] + ["      " + c for c in call] + [
            "    else",
            "      call tide_f08_choice_error(%d, %s, ierr_c)" % (obj[0], obj[1] + "%MPI_VAL" if obj[1] else "0"),
            "    end if"]
    else:
        out += ["    " + c for c in call]
    out += ["    " + d for d in after]
    out += ["    if (present(ierror)) ierror = ierr_c", "  end subroutine %s" % spec]
    return out


# The functions f_special.c binds by hand: their C wrappers' interfaces and
# their mpi_f08 procedures. The callbacks of MPI_Op_create and of the
# errhandlers have the C calling convention already (see f_special.c).
SPECIAL_GLUE = "\n" + gb.SPECIAL_COMMON + """  double precision function mpi_wtime()
  end function mpi_wtime
  double precision function mpi_wtick()
  end function mpi_wtick
  subroutine mpi_comm_get_attr(comm, comm_keyval, attribute_val, flag, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=8) :: attribute_val
    logical :: flag
  end subroutine mpi_comm_get_attr
  ! the choice buffers (f_choice.c)
  subroutine tide_f08_choice(b0, b1, b2, nbuf, how, written, count, datatype, addr, made, copies, &
      ierror) bind(C, name="tide_f08_choice")
    import :: c_int, c_int64_t, c_intptr_t
    type(*), dimension(..), asynchronous :: b0, b1, b2
    integer(c_int) :: nbuf, how, written
    integer(c_int64_t) :: count
    integer(c_int) :: datatype
    integer(c_intptr_t) :: addr(3), copies
    integer(c_int) :: made, ierror
  end subroutine tide_f08_choice
  subroutine tide_f08_choice_free(made, copies, ierror) bind(C, name="tide_f08_choice_free")
    import :: c_int, c_intptr_t
    integer(c_int) :: made, ierror
    integer(c_intptr_t) :: copies
  end subroutine tide_f08_choice_free
  subroutine tide_f08_choice_error(kind, handle, ierror) bind(C, name="tide_f08_choice_error")
    import :: c_int
    integer(c_int), value :: kind, handle, ierror
  end subroutine tide_f08_choice_error
  subroutine tide_f08_sync_reg(buf) bind(C, name="tide_f08_sync_reg")
    type(*), dimension(..) :: buf
  end subroutine tide_f08_sync_reg
  ! memory given as an address (TYPE(C_PTR) in mpi_f08): the C functions
  ! themselves (handles are C ints, MPI_Aint is intptr_t)
  integer(c_int) function c_mpi_alloc_mem(size, info, baseptr) bind(C, name="MPI_Alloc_mem")
    import :: c_int, c_intptr_t, c_ptr
    integer(c_intptr_t), value :: size
    integer(c_int), value :: info
    type(c_ptr) :: baseptr
  end function c_mpi_alloc_mem
  integer(c_int) function c_mpi_win_allocate(size, disp_unit, info, comm, baseptr, win) &
      bind(C, name="MPI_Win_allocate")
    import :: c_int, c_intptr_t, c_ptr
    integer(c_intptr_t), value :: size
    integer(c_int), value :: disp_unit, info, comm
    type(c_ptr) :: baseptr
    integer(c_int) :: win
  end function c_mpi_win_allocate
  integer(c_int) function c_mpi_win_allocate_shared(size, disp_unit, info, comm, baseptr, win) &
      bind(C, name="MPI_Win_allocate_shared")
    import :: c_int, c_intptr_t, c_ptr
    integer(c_intptr_t), value :: size
    integer(c_int), value :: disp_unit, info, comm
    type(c_ptr) :: baseptr
    integer(c_int) :: win
  end function c_mpi_win_allocate_shared
  integer(c_int) function c_mpi_win_shared_query(win, rank, size, disp_unit, baseptr) &
      bind(C, name="MPI_Win_shared_query")
    import :: c_int, c_intptr_t, c_ptr
    integer(c_int), value :: win, rank
    integer(c_intptr_t) :: size
    integer(c_int) :: disp_unit
    type(c_ptr) :: baseptr
  end function c_mpi_win_shared_query
  integer(c_intptr_t) function c_mpi_aint_add(base, disp) bind(C, name="MPI_Aint_add")
    import :: c_intptr_t
    integer(c_intptr_t), value :: base, disp
  end function c_mpi_aint_add
  integer(c_intptr_t) function c_mpi_aint_diff(addr1, addr2) bind(C, name="MPI_Aint_diff")
    import :: c_intptr_t
    integer(c_intptr_t), value :: addr1, addr2
  end function c_mpi_aint_diff
  integer(c_int) function c_mpi_buffer_detach(buffer_addr, size) bind(C, name="MPI_Buffer_detach")
    import :: c_int, c_ptr
    type(c_ptr) :: buffer_addr
    integer(c_int) :: size
  end function c_mpi_buffer_detach
"""
SPECIAL_GLUE += """  subroutine mpi_comm_spawn_multiple(count, array_of_commands, array_of_argv, &
      array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes, ierror)
    integer :: count
    character(len=*) :: array_of_commands(*), array_of_argv(count, *)
    integer :: array_of_maxprocs(*), root, comm, intercomm
    !GCC$ ATTRIBUTES NO_ARG_CHECK :: array_of_info
    type(*), dimension(*) :: array_of_info
    integer :: array_of_errcodes(*), ierror
  end subroutine mpi_comm_spawn_multiple
  subroutine mpi_info_create_env(info, ierror)
    integer :: info, ierror
  end subroutine mpi_info_create_env
  subroutine mpi_grequest_start(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
    external :: query_fn, free_fn, cancel_fn
    integer(kind=8) :: extra_state
    integer :: request, ierror
  end subroutine mpi_grequest_start
  subroutine mpi_register_datarep(datarep, read_conversion_fn, write_conversion_fn, &
      dtype_file_extent_fn, extra_state, ierror)
    character(len=*) :: datarep
    external :: read_conversion_fn, write_conversion_fn, dtype_file_extent_fn
    integer(kind=8) :: extra_state
    integer :: ierror
  end subroutine mpi_register_datarep
"""
# attributes (f_attr.c): keyvals with Fortran callbacks, values by value
ATTR_KINDS = [("Comm", "comm"), ("Type", "datatype"), ("Win", "win")]
for _k, _o in ATTR_KINDS:
    SPECIAL_GLUE += """  subroutine mpi_%(k)s_create_keyval(copy_fn, delete_fn, keyval, extra_state, ierror)
    external :: copy_fn, delete_fn
    integer :: keyval, ierror
    integer(kind=8) :: extra_state
  end subroutine mpi_%(k)s_create_keyval
  subroutine mpi_%(k)s_set_attr(obj, keyval, attribute_val, ierror)
    integer :: obj, keyval, ierror
    integer(kind=8) :: attribute_val
  end subroutine mpi_%(k)s_set_attr
""" % {"k": _k.lower()}
    if _k != "Comm":  # mpi_comm_get_attr: above
        SPECIAL_GLUE += """  subroutine mpi_%(k)s_get_attr(obj, keyval, attribute_val, flag, ierror)
    integer :: obj, keyval, ierror
    integer(kind=8) :: attribute_val
    logical :: flag
  end subroutine mpi_%(k)s_get_attr
""" % {"k": _k.lower()}
ERRHANDLER_KINDS = ["Comm", "Win", "File", "Session"]
for _k in ERRHANDLER_KINDS:
    SPECIAL_GLUE += ("  subroutine mpi_%s_create_errhandler(fn, errhandler, ierror)\n"
                     "    external :: fn\n    integer :: errhandler, ierror\n"
                     "  end subroutine mpi_%s_create_errhandler\n" % (_k.lower(), _k.lower()))

SPECIAL_ABSTRACT = """
  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import :: c_ptr, MPI_Datatype
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function
"""
for _k in ERRHANDLER_KINDS:
    SPECIAL_ABSTRACT += ("    subroutine MPI_%s_errhandler_function(%s, error_code)\n"
                         "      import :: MPI_%s\n      type(MPI_%s) :: %s\n"
                         "      integer :: error_code\n"
                         "    end subroutine MPI_%s_errhandler_function\n"
                         % (_k, _k.lower(), _k, _k, _k.lower(), _k))
for _k, _o in ATTR_KINDS:
    SPECIAL_ABSTRACT += """    subroutine MPI_%(K)s_copy_attr_function(%(old)s, %(k)s_keyval, extra_state, &
        attribute_val_in, attribute_val_out, flag, ierror)
      import :: MPI_%(K2)s, MPI_ADDRESS_KIND
      type(MPI_%(K2)s) :: %(old)s
      integer :: %(k)s_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_%(K)s_copy_attr_function
    subroutine MPI_%(K)s_delete_attr_function(%(o)s, %(k)s_keyval, attribute_val, extra_state, ierror)
      import :: MPI_%(K2)s, MPI_ADDRESS_KIND
      type(MPI_%(K2)s) :: %(o)s
      integer :: %(k)s_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_%(K)s_delete_attr_function
""" % {"K": _k, "k": _k.lower(), "o": _o, "K2": "Datatype" if _k == "Type" else _k,
       "old": "oldtype" if _k == "Type" else "old" + _o}
SPECIAL_ABSTRACT += """    subroutine MPI_Grequest_query_function(extra_state, status, ierror)
      import :: MPI_Status, MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Status) :: status
      integer :: ierror
    end subroutine MPI_Grequest_query_function
    subroutine MPI_Grequest_free_function(extra_state, ierror)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine MPI_Grequest_free_function
    subroutine MPI_Grequest_cancel_function(extra_state, complete, ierror)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine MPI_Grequest_cancel_function
    subroutine MPI_Datarep_conversion_function(userbuf, datatype, count, filebuf, position, &
        extra_state, ierror)
      import :: c_ptr, MPI_Datatype, MPI_OFFSET_KIND, MPI_ADDRESS_KIND
      type(c_ptr), value :: userbuf, filebuf
      type(MPI_Datatype) :: datatype
      integer :: count, ierror
      integer(kind=MPI_OFFSET_KIND) :: position
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
    end subroutine MPI_Datarep_conversion_function
    subroutine MPI_Datarep_extent_function(datatype, extent, extra_state, ierror)
      import :: MPI_Datatype, MPI_ADDRESS_KIND
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
      integer :: ierror
    end subroutine MPI_Datarep_extent_function
"""
SPECIAL_ABSTRACT += "  end interface\n"
# the predefined callbacks (C functions of f_attr.c and f_callbacks.c taking
# every argument by reference) with the interfaces above
SPECIAL_ABSTRACT += "  interface\n"
for _k, _o in ATTR_KINDS:
    for _fn, _what in (("NULL_COPY_FN", "copy"), ("DUP_FN", "copy"), ("NULL_DELETE_FN", "delete")):
        SPECIAL_ABSTRACT += "    subroutine MPI_%s_%s%s\n" % (_k.upper(), _fn, (
            "(old, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)"
            if _what == "copy" else "(obj, keyval, attribute_val, extra_state, ierror)"))
        SPECIAL_ABSTRACT += "      import :: MPI_%s, MPI_ADDRESS_KIND\n" % (
            "Datatype" if _k == "Type" else _k)
        SPECIAL_ABSTRACT += ("      type(MPI_%s) :: %s\n      integer :: keyval, ierror\n"
                             % ("Datatype" if _k == "Type" else _k, "old" if _what == "copy" else "obj"))
        if _what == "copy":
            SPECIAL_ABSTRACT += ("      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, "
                                 "attribute_val_out\n      logical :: flag\n")
        else:
            SPECIAL_ABSTRACT += "      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state\n"
        SPECIAL_ABSTRACT += "    end subroutine MPI_%s_%s\n" % (_k.upper(), _fn)
SPECIAL_ABSTRACT += """    subroutine MPI_CONVERSION_FN_NULL(userbuf, datatype, count, filebuf, position, &
        extra_state, ierror)
      import :: c_ptr, MPI_Datatype, MPI_OFFSET_KIND, MPI_ADDRESS_KIND
      type(c_ptr), value :: userbuf, filebuf
      type(MPI_Datatype) :: datatype
      integer :: count, ierror
      integer(kind=MPI_OFFSET_KIND) :: position
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
    end subroutine MPI_CONVERSION_FN_NULL
  end interface
"""

SPECIAL_NAMES = ["MPI_Init", "MPI_Init_thread", "MPI_Wtime", "MPI_Wtick", "MPI_Pcontrol",
                 "MPI_Comm_spawn", "MPI_Op_create", "MPI_Comm_get_attr",
                 "MPI_Status_f2f08", "MPI_Status_f082f", "MPI_F_sync_reg", "MPI_Alloc_mem",
                 "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_shared_query",
                 "MPI_Buffer_detach", "MPI_Aint_add", "MPI_Aint_diff", "MPI_Comm_spawn_multiple",
                 "MPI_Info_create_env", "MPI_Grequest_start", "MPI_Register_datarep",
                 "MPI_Type_get_attr", "MPI_Win_get_attr"] + \
                ["MPI_%s_create_errhandler" % k for k in ERRHANDLER_KINDS] + \
                ["MPI_%s_%s" % (k, f) for k, _ in ATTR_KINDS for f in ("create_keyval", "set_attr")]

SPECIAL_PROCS = """
  subroutine MPI_Init_f08(ierror)
    use tide_f08_glue, only: c_wrapper => mpi_init
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    call c_wrapper(ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Init_f08
  subroutine MPI_Init_thread_f08(required, provided, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_init_thread
    integer, intent(in) :: required
    integer, intent(out) :: provided
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, required_c
    required_c = required
    call c_wrapper(required_c, provided, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Init_thread_f08
  double precision function MPI_Wtime_f08()
    use tide_f08_glue, only: c_wrapper => mpi_wtime
    MPI_Wtime_f08 = c_wrapper()
  end function MPI_Wtime_f08
  double precision function MPI_Wtick_f08()
    use tide_f08_glue, only: c_wrapper => mpi_wtick
    MPI_Wtick_f08 = c_wrapper()
  end function MPI_Wtick_f08
  subroutine MPI_Pcontrol_f08(level)
    use tide_f08_glue, only: c_wrapper => mpi_pcontrol
    integer, intent(in) :: level
    integer :: level_c
    level_c = level
    call c_wrapper(level_c)
  end subroutine MPI_Pcontrol_f08
  subroutine MPI_Comm_spawn_f08(command, argv, maxprocs, info, root, comm, intercomm, &
      array_of_errcodes, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_comm_spawn
    character(len=*), intent(in) :: command, argv(*)
    integer, intent(in) :: maxprocs, root
    type(MPI_Info), intent(in) :: info
    type(MPI_Comm), intent(in) :: comm
    type(MPI_Comm), intent(out) :: intercomm
    integer :: array_of_errcodes(*)
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, maxprocs_c, root_c
    maxprocs_c = maxprocs
    root_c = root
    call c_wrapper(command, argv, maxprocs_c, info%MPI_VAL, root_c, comm%MPI_VAL, &
        intercomm%MPI_VAL, array_of_errcodes, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Comm_spawn_f08
  subroutine MPI_Op_create_f08(user_fn, commute, op, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_op_create
    procedure(MPI_User_function) :: user_fn
    logical, intent(in) :: commute
    type(MPI_Op), intent(out) :: op
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    logical :: commute_c
    commute_c = commute
    call c_wrapper(user_fn, commute_c, op%MPI_VAL, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Op_create_f08
  subroutine MPI_Comm_get_attr_f08(comm, comm_keyval, attribute_val, flag, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_comm_get_attr
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: comm_keyval
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
    logical, intent(out) :: flag
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, keyval_c
    keyval_c = comm_keyval
    call c_wrapper(comm%MPI_VAL, keyval_c, attribute_val, flag, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Comm_get_attr_f08
  subroutine MPI_Status_f2f08_f08(f_status, f08_status, ierror)
    integer, intent(in) :: f_status(MPI_STATUS_SIZE)
    type(MPI_Status), intent(out) :: f08_status
    integer, optional, intent(out) :: ierror
    f08_status = transfer(f_status, f08_status)
    if (present(ierror)) ierror = MPI_SUCCESS
  end subroutine MPI_Status_f2f08_f08
  subroutine MPI_Status_f082f_f08(f08_status, f_status, ierror)
    type(MPI_Status), intent(in) :: f08_status
    integer, intent(out) :: f_status(MPI_STATUS_SIZE)
    integer, optional, intent(out) :: ierror
    f_status = transfer(f08_status, f_status)
    if (present(ierror)) ierror = MPI_SUCCESS
  end subroutine MPI_Status_f082f_f08
  subroutine MPI_F_sync_reg_f08(buf)
    use tide_f08_glue, only: tide_f08_sync_reg
    type(*), dimension(..) :: buf
    call tide_f08_sync_reg(buf)
  end subroutine MPI_F_sync_reg_f08
  subroutine MPI_Alloc_mem_f08(size, info, baseptr, ierror)
    use tide_f08_glue, only: c_mpi_alloc_mem
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
    type(MPI_Info), intent(in) :: info
    type(c_ptr), intent(out) :: baseptr
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    ierr_c = c_mpi_alloc_mem(size, info%MPI_VAL, baseptr)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Alloc_mem_f08
  subroutine MPI_Win_shared_query_f08(win, rank, size, disp_unit, baseptr, ierror)
    use tide_f08_glue, only: c_mpi_win_shared_query
    type(MPI_Win), intent(in) :: win
    integer, intent(in) :: rank
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: size
    integer, intent(out) :: disp_unit
    type(c_ptr), intent(out) :: baseptr
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    ierr_c = c_mpi_win_shared_query(win%MPI_VAL, rank, size, disp_unit, baseptr)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Win_shared_query_f08
  integer(kind=MPI_ADDRESS_KIND) function MPI_Aint_add_f08(base, disp)
    use tide_f08_glue, only: c_mpi_aint_add
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: base, disp
    MPI_Aint_add_f08 = c_mpi_aint_add(base, disp)
  end function MPI_Aint_add_f08
  integer(kind=MPI_ADDRESS_KIND) function MPI_Aint_diff_f08(addr1, addr2)
    use tide_f08_glue, only: c_mpi_aint_diff
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr1, addr2
    MPI_Aint_diff_f08 = c_mpi_aint_diff(addr1, addr2)
  end function MPI_Aint_diff_f08
  subroutine MPI_Buffer_detach_f08(buffer_addr, size, ierror)
    use tide_f08_glue, only: c_mpi_buffer_detach
    type(c_ptr), intent(out) :: buffer_addr
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    ierr_c = c_mpi_buffer_detach(buffer_addr, size)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Buffer_detach_f08
"""
# the two window constructors that give memory back as TYPE(C_PTR)
for _w in ("allocate", "allocate_shared"):
    SPECIAL_PROCS += """  subroutine MPI_Win_%(w)s_f08(size, disp_unit, info, comm, baseptr, win, ierror)
    use tide_f08_glue, only: c_mpi_win_%(w)s
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
    integer, intent(in) :: disp_unit
    type(MPI_Info), intent(in) :: info
    type(MPI_Comm), intent(in) :: comm
    type(c_ptr), intent(out) :: baseptr
    type(MPI_Win), intent(out) :: win
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    ierr_c = c_mpi_win_%(w)s(size, disp_unit, info%%MPI_VAL, comm%%MPI_VAL, baseptr, win%%MPI_VAL)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Win_%(w)s_f08
""" % {"w": _w}
SPECIAL_PROCS += """  subroutine MPI_Comm_spawn_multiple_f08(count, array_of_commands, array_of_argv, &
      array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_comm_spawn_multiple
    integer, intent(in) :: count
    character(len=*), intent(in) :: array_of_commands(*), array_of_argv(count, *)
    integer, intent(in) :: array_of_maxprocs(*), root
    type(MPI_Info), intent(in) :: array_of_info(*)
    type(MPI_Comm), intent(in) :: comm
    type(MPI_Comm), intent(out) :: intercomm
    integer :: array_of_errcodes(*)
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, count_c, root_c
    count_c = count
    root_c = root
    call c_wrapper(count_c, array_of_commands, array_of_argv, array_of_maxprocs, &
        array_of_info, root_c, comm%MPI_VAL, intercomm%MPI_VAL, array_of_errcodes, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Comm_spawn_multiple_f08
  subroutine MPI_Info_create_env_f08(info, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_info_create_env
    type(MPI_Info), intent(out) :: info
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    call c_wrapper(info%MPI_VAL, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Info_create_env_f08
  subroutine MPI_Grequest_start_f08(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_grequest_start
    procedure(MPI_Grequest_query_function) :: query_fn
    procedure(MPI_Grequest_free_function) :: free_fn
    procedure(MPI_Grequest_cancel_function) :: cancel_fn
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
    type(MPI_Request), intent(out) :: request
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    integer(kind=MPI_ADDRESS_KIND) :: extra_c
    extra_c = extra_state
    call c_wrapper(query_fn, free_fn, cancel_fn, extra_c, request%MPI_VAL, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Grequest_start_f08
  subroutine MPI_Register_datarep_f08(datarep, read_conversion_fn, write_conversion_fn, &
      dtype_file_extent_fn, extra_state, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_register_datarep
    character(len=*), intent(in) :: datarep
    procedure(MPI_Datarep_conversion_function) :: read_conversion_fn, write_conversion_fn
    procedure(MPI_Datarep_extent_function) :: dtype_file_extent_fn
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    integer(kind=MPI_ADDRESS_KIND) :: extra_c
    extra_c = extra_state
    call c_wrapper(datarep, read_conversion_fn, write_conversion_fn, dtype_file_extent_fn, &
        extra_c, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_Register_datarep_f08
"""
for _k, _o in ATTR_KINDS:
    _d = {"K": _k, "k": _k.lower(), "o": _o, "K2": "Datatype" if _k == "Type" else _k}
    SPECIAL_PROCS += """  subroutine MPI_%(K)s_create_keyval_f08(%(k)s_copy_attr_fn, %(k)s_delete_attr_fn, %(k)s_keyval, &
      extra_state, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_%(k)s_create_keyval
    procedure(MPI_%(K)s_copy_attr_function) :: %(k)s_copy_attr_fn
    procedure(MPI_%(K)s_delete_attr_function) :: %(k)s_delete_attr_fn
    integer, intent(out) :: %(k)s_keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    integer(kind=MPI_ADDRESS_KIND) :: extra_c
    extra_c = extra_state
    call c_wrapper(%(k)s_copy_attr_fn, %(k)s_delete_attr_fn, %(k)s_keyval, extra_c, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_%(K)s_create_keyval_f08
  subroutine MPI_%(K)s_set_attr_f08(%(o)s, %(k)s_keyval, attribute_val, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_%(k)s_set_attr
    type(MPI_%(K2)s), intent(in) :: %(o)s
    integer, intent(in) :: %(k)s_keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, obj_c, keyval_c
    integer(kind=MPI_ADDRESS_KIND) :: val_c
    obj_c = %(o)s%%MPI_VAL
    keyval_c = %(k)s_keyval
    val_c = attribute_val
    call c_wrapper(obj_c, keyval_c, val_c, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_%(K)s_set_attr_f08
""" % _d
    if _k != "Comm":
        SPECIAL_PROCS += """  subroutine MPI_%(K)s_get_attr_f08(%(o)s, %(k)s_keyval, attribute_val, flag, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_%(k)s_get_attr
    type(MPI_%(K2)s), intent(in) :: %(o)s
    integer, intent(in) :: %(k)s_keyval
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
    logical, intent(out) :: flag
    integer, optional, intent(out) :: ierror
    integer :: ierr_c, obj_c, keyval_c
    obj_c = %(o)s%%MPI_VAL
    keyval_c = %(k)s_keyval
    call c_wrapper(obj_c, keyval_c, attribute_val, flag, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_%(K)s_get_attr_f08
""" % _d
for _k in ERRHANDLER_KINDS:
    SPECIAL_PROCS += """  subroutine MPI_%(K)s_create_errhandler_f08(%(k)s_errhandler_fn, errhandler, ierror)
    use tide_f08_glue, only: c_wrapper => mpi_%(k)s_create_errhandler
    procedure(MPI_%(K)s_errhandler_function) :: %(k)s_errhandler_fn
    type(MPI_Errhandler), intent(out) :: errhandler
    integer, optional, intent(out) :: ierror
    integer :: ierr_c
    call c_wrapper(%(k)s_errhandler_fn, errhandler%%MPI_VAL, ierr_c)
    if (present(ierror)) ierror = ierr_c
  end subroutine MPI_%(K)s_create_errhandler_f08
""" % {"K": _k, "k": _k.lower()}


def handle_kind(value):
    """The handle type of a constant's value (TIDE_HANDLE's kind bits), or None."""
    if value < (1 << 26) or value >= (1 << 31):
        return None
    return HANDLE_KINDS.get(value >> 26)


def gen_constants(text):
    out = []
    extra = [("MPI_STATUS_SIZE", gb.STATUS_SIZE), ("MPI_SOURCE", 1), ("MPI_TAG", 2),
             ("MPI_ERROR", 3), ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8),
             ("MPI_COUNT_KIND", 8), ("MPI_INTEGER_KIND", 4)]
    for name, v in extra + gb.constants(text):
        kind = handle_kind(v)
        if name in gb.OFFSET_CONSTANTS:
            out.append("  integer(kind=MPI_OFFSET_KIND), parameter :: %s = %d" % (name, v))
        elif kind:
            out.append("  type(MPI_%s), parameter :: %s = MPI_%s(%d)" % (kind, name, kind, v))
        else:
            out.append("  integer, parameter :: %s = %d" % (name, v))
    out.append("  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .true.")
    out.append("  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .true.")
    # the sentinels: the common blocks of mpif.h and `use mpi`, compared by
    # address in f_support.c
    for fname, sym, decl in gb.SENTINELS:
        if fname == "MPI_STATUS_IGNORE":
            decl = "type(MPI_Status) :: MPI_STATUS_IGNORE"
        elif fname == "MPI_STATUSES_IGNORE":
            decl = "type(MPI_Status) :: MPI_STATUSES_IGNORE(1)"
        else:
            t, v = decl.split(" ", 1)
            decl = "%s :: %s" % ("character(len=1)" if t == "character*1" else t, v)
        out.append("  " + decl)
        out.append("  common /%s/ %s" % (sym, fname))
    return out


def gen_types():
    out = []
    for h in gb.HANDLES:
        out += ["  type, bind(C) :: MPI_%s" % h, "    integer(c_int) :: MPI_VAL",
                "  end type MPI_%s" % h]
    # the layout of the C MPI_Status (MPI_STATUS_SIZE integers); the last two
    # fields are Tide's, hidden
    out += ["  type, bind(C) :: MPI_Status",
            "    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
            "    integer(c_int), private :: tide_cancelled",
            "    integer(c_long_long), private :: tide_nbytes",
            "  end type MPI_Status"]
    return out


def gen_operators():
    iface, procs = [], []
    for op, suffix, rel in (("==", "eq", "=="), ("/=", "ne", "/=")):
        names = ["tide_%s_%s" % (h.lower(), suffix) for h in gb.HANDLES]
        iface += ["  interface operator(%s)" % op]
        iface += wrap("    module procedure ", names, "")
        iface += ["  end interface"]
        for h, n in zip(gb.HANDLES, names):
            procs += ["  elemental logical function %s(a, b)" % n,
                      "    type(MPI_%s), intent(in) :: a, b" % h,
                      "    %s = a%%MPI_VAL %s b%%MPI_VAL" % (n, rel),
                      "  end function %s" % n]
    return iface, procs, ["tide_%s_%s" % (h.lower(), s) for s in ("eq", "ne") for h in gb.HANDLES]


def procedures(text):
    """The generated procedures (plain and large-count), and the generic
    names with their specifics."""
    plain = list(bound(text))
    big = list(large_count(text, plain))
    generics = {fn: [fn + "_f08"] for fn, _ in plain}
    for fn, _ in big:
        generics[fn[:-2]].append(fn + "_f08")
    for fn in SPECIAL_NAMES:
        generics[fn] = [fn + "_f08"]
    return plain + big, generics


def split_procedures(lines):
    """The module procedures among lines: {name: [lines]} in order."""
    procs, cur, name = {}, None, None
    for l in lines:
        m = re.match(r"^  (?:[\w(=, )]*\s)?(subroutine|function) (\w+)\(", l)
        if cur is None and m and not l.lstrip().startswith("end"):
            name, cur = m.group(2), []
        if cur is not None:
            cur.append(l)
            if re.match(r"^  end (subroutine|function) %s$" % name, l):
                procs[name] = cur
                cur = None
    return procs


def top_level_names(decl):
    """The entity names of a declaration's list (after ::)."""
    depth, cur, names = 0, "", []
    for ch in decl + ",":
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            names.append(re.match(r"\s*(\w+)", cur).group(1).lower())
            cur = ""
        else:
            cur += ch
    return names


def dissect(proc):
    """A module procedure's header (its lines), dummy names and the
    declarations of its dummies."""
    i, head = 0, []
    while True:
        head.append(proc[i])
        i += 1
        if not head[-1].rstrip().endswith("&"):
            break
    joined = " ".join(h.rstrip().rstrip("&") for h in head)
    after = joined[re.search(r"(subroutine|function) \w+\(", joined).end():]
    dummies = [a.strip() for a in after[:after.rindex(")")].split(",") if a.strip()]
    decls = []
    for l in proc[i:]:
        t = l.strip()
        if t.startswith("use ") or t.startswith("use,"):
            continue
        if "::" not in t:
            break
        names = top_level_names(t.split("::", 1)[1])
        inside = [n in [d.lower() for d in dummies] for n in names]
        if all(inside):
            decls.append(t)
        elif any(inside):
            raise SystemExit("gen-f08.py: mixed declaration in %s: %s" % (head[0], t))
    return head, dummies, decls


def profiling(procs, generics):
    """MPI-4.0 15.2 and 19.1.5 for mpi_f08: each specific MPI_Xxx_f08 (or
    MPI_Xxx_f08ts, with choice buffers: MPI_SUBARRAYS_SUPPORTED) becomes an
    external procedure, which a tool may define itself, calling the module
    procedure PMPI_Xxx_f08(ts) that does the work; the generic PMPI_Xxx
    names the latter. Returns (the module's generic blocks, its renamed
    procedures, the external procedures)."""
    blocks, impls, externals = [], [], []
    spec_of = {}
    for name, proc in procs.items():
        head, dummies, decls = dissect(proc)
        ts = any(re.match(r"type\(\*\), dimension\(\.\.\)", d) for d in decls)
        spec = name + ("ts" if ts else "")
        impl = "P" + spec
        spec_of[name] = (spec, impl, head, dummies, decls)
        impls += [re.sub(r"\b%s\b" % name, impl, l) for l in proc]
        is_fn = " function " in " " + head[0].strip() + " " and not head[0].strip().startswith("subroutine")
        body_head = [re.sub(r"\b%s\b" % name, spec, h).strip() for h in head]
        externals += [body_head[0]] + ["    " + h for h in body_head[1:]]
        externals += ["  use mpi_f08, tide_self => %s" % spec,
                      "  use, intrinsic :: iso_c_binding", "  implicit none"]
        externals += ["  " + d for d in decls]
        if is_fn:
            externals.append("  %s = %s(%s)" % (spec, impl, ", ".join(dummies)))
        else:
            externals += wrap("  call %s(" % impl, dummies, ")")
        externals.append("end %s %s" % ("function" if is_fn else "subroutine", spec))
    for g, specifics in generics.items():
        blocks.append("  interface %s" % g)
        for n in specifics:
            spec, impl, head, dummies, decls = spec_of[n]
            blocks += ["  " + re.sub(r"\b%s\b" % n, spec, h) for h in head]
            blocks += ["      import", "      implicit none"]
            blocks += ["      " + d for d in decls]
            blocks.append("    end %s %s" % ("function" if " function " in " " + head[0] + " " and
                                             not head[0].strip().startswith("subroutine")
                                             else "subroutine", spec))
        blocks.append("  end interface %s" % g)
        blocks += ["  interface P%s" % g,
                   "    module procedure %s" % ", ".join(spec_of[n][1] for n in specifics),
                   "  end interface P%s" % g]
    return blocks, impls, externals


def gen_module(text):
    funcs, generics = procedures(text)
    glue = ["module tide_f08_glue", "  ! the C wrappers of mpi_fortran.c and f_special.c (mpi_xxx_)",
            "  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_intptr_t, c_ptr",
            "  implicit none", "  interface"]
    for fn, params in funcs:
        glue += glue_interface(fn, params)
    glue += [SPECIAL_GLUE.rstrip("\n"), "  end interface", "end module tide_f08_glue"]
    # the procedures call the wrappers by their profiling names (pmpi_xxx_):
    # a tool replacing MPI_XXX of mpif.h does not see the calls of mpi_f08
    glue = [re.sub(r"\b(subroutine|function) mpi_", r"\1 pmpi_", l, flags=re.I) for l in glue]
    iface, ops, opnames = gen_operators()
    body = []
    for fn, params in funcs:
        body += f08_procedure(fn, params)
    body += SPECIAL_PROCS.rstrip("\n").split("\n")
    body = [re.sub(r"c_wrapper => mpi_", "c_wrapper => pmpi_", l, flags=re.I) for l in body]
    blocks, impls, externals = profiling(split_procedures(body), generics)
    out = ["! mpi_f08.f90: generated by fortran/gen-f08.py from mpi.h; do not edit.",
           "! The `use mpi_f08` module: handle types, TYPE(MPI_Status), the constants,",
           "! and every procedure of the `mpi` module with typed handles and an",
           "! optional ierror, calling the C wrappers of libmpi_mpifh: the generic",
           "! MPI_Xxx names the external MPI_Xxx_f08(ts), which calls the module's",
           "! PMPI_Xxx_f08(ts) (the generic PMPI_Xxx); module pmpi_f08 is the same."]
    out += glue
    out += ["", "module mpi_f08", "  use, intrinsic :: iso_c_binding, only: c_int, c_long_long, c_ptr",
            "  implicit none", "  private :: c_int, c_long_long, c_ptr"]
    out += wrap("  private :: ", opnames, "")
    out += gen_types()
    out += gen_constants(text)
    out += iface
    out.append(SPECIAL_ABSTRACT.rstrip("\n"))
    out += blocks
    out.append(gb.sizeof_interface().rstrip("\n"))
    out.append("contains")
    out += ops
    out += impls
    out.append("end module mpi_f08")
    out.append("")
    out.append("! the profiling interface under Open MPI's module name")
    out += ["module pmpi_f08", "  use mpi_f08", "end module pmpi_f08", ""]
    out.append("! the specific procedures of the generics MPI_Xxx: a profiling tool may")
    out.append("! define any of them itself (MPI-4.0 19.1.5)")
    out += externals
    out.append("")
    out.append(gb.sizeof_procedures().rstrip("\n"))
    return "\n".join(out) + "\n"


def gen_list(text):
    funcs, generics = procedures(text)
    lines = ["%s: %s" % (n, " ".join(sp)) for n, sp in generics.items()]
    return "mpi_f08 procedures %d, specifics %d (large-count %d)\n%s\n" % (
        len(generics), sum(len(sp) for sp in generics.values()),
        sum(len(sp) - 1 for sp in generics.values()), "\n".join(lines))


def main():
    text = open(sys.argv[1]).read()
    sys.stdout.write({"module": gen_module, "list": gen_list}[sys.argv[2]](text))


if __name__ == "__main__":
    main()
