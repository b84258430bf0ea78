#!/usr/bin/env python3
"""gen-bindings.py: generates Tide's Fortran bindings from mpi.h.

  gen-bindings.py MPI_H c       > mpi_fortran.c   legacy Fortran wrappers in C
  gen-bindings.py MPI_H mpifh   > mpif.h          constants, sentinels, externals
  gen-bindings.py MPI_H module  > mpi.f90         the source of `use mpi`
  gen-bindings.py MPI_H list                     bound / not bound functions

The description of the API is mpi.h itself: the prototypes between the
"==== MPI functions ====" and "==== Profiling interface" markers and the
#define constants. Each C parameter type maps to a Fortran argument by one
rule (see ARG below); the functions no rule covers are either written by
hand (HANDWRITTEN, in fortran/f_*.c) or listed as not bound.
"""
import re
import sys

# functions written by hand in fortran/f_*.c
HANDWRITTEN = {"MPI_Wtime", "MPI_Wtick", "MPI_Pcontrol", "MPI_Comm_spawn",
               "MPI_Op_create", "MPI_Comm_get_attr", "MPI_Comm_create_errhandler",
               "MPI_Errhandler_create", "MPI_Init", "MPI_Init_thread", "MPI_Win_create_errhandler",
               "MPI_File_create_errhandler", "MPI_Session_create_errhandler",
               # attributes and keyvals (f_attr.c)
               "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval",
               "MPI_Keyval_create", "MPI_Comm_set_attr", "MPI_Type_set_attr", "MPI_Win_set_attr",
               "MPI_Attr_put", "MPI_Type_get_attr", "MPI_Win_get_attr", "MPI_Attr_get",
               # memory given as an address (f_memory.c)
               "MPI_Alloc_mem", "MPI_Win_allocate", "MPI_Win_allocate_shared",
               "MPI_Win_shared_query", "MPI_Buffer_detach",
               # arrays of argv, the command line (f_special.c)
               "MPI_Comm_spawn_multiple", "MPI_Info_create_env",
               # Fortran callbacks with extra state (f_callbacks.c)
               "MPI_Grequest_start", "MPI_Register_datarep"}
# the predefined attribute callbacks: Fortran procedures (f_attr.c); and
# MPI_CONVERSION_FN_NULL (f_callbacks.c)
ATTR_CALLBACKS = ["MPI_%s_%s" % (k, f) for k in ("COMM", "TYPE", "WIN")
                  for f in ("NULL_COPY_FN", "DUP_FN", "NULL_DELETE_FN")] + \
                 ["MPI_NULL_COPY_FN", "MPI_DUP_FN", "MPI_NULL_DELETE_FN"]
CALLBACK_EXTERNALS = ATTR_CALLBACKS + ["MPI_CONVERSION_FN_NULL"]
# parameter names whose void * is not a choice buffer: no mechanical rule
NOT_CHOICE = {"attribute_val", "attribute_val_in", "attribute_val_out", "baseptr",
              "extra_state", "buffer_addr", "attr"}
HANDLES = ["Comm", "Datatype", "Group", "Request", "Info", "Win", "Op",
           "Errhandler", "File", "Message", "Session"]
F2C = {h: ("Type" if h == "Datatype" else h) for h in HANDLES}
SENTINELS = [  # Fortran name, common block / C symbol, Fortran declaration
    ("MPI_BOTTOM", "tide_f_bottom", "integer MPI_BOTTOM"),
    ("MPI_IN_PLACE", "tide_f_in_place", "integer MPI_IN_PLACE"),
    ("MPI_STATUS_IGNORE", "tide_f_status_ignore", "integer MPI_STATUS_IGNORE(MPI_STATUS_SIZE)"),
    ("MPI_STATUSES_IGNORE", "tide_f_statuses_ignore",
     "integer MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)"),
    ("MPI_ERRCODES_IGNORE", "tide_f_errcodes_ignore", "integer MPI_ERRCODES_IGNORE(1)"),
    ("MPI_UNWEIGHTED", "tide_f_unweighted", "integer MPI_UNWEIGHTED(1)"),
    ("MPI_WEIGHTS_EMPTY", "tide_f_weights_empty", "integer MPI_WEIGHTS_EMPTY(1)"),
    ("MPI_ARGV_NULL", "tide_f_argv_null", "character*1 MPI_ARGV_NULL(1)"),
    ("MPI_ARGVS_NULL", "tide_f_argvs_null", "character*1 MPI_ARGVS_NULL(1,1)"),
]
STATUS_SIZE = 6  # sizeof(MPI_Status) / sizeof(MPI_Fint); checked in f_support.c
# The MPI-1 calls (deprecated in MPI-2, removed in MPI-3) whose Fortran
# addresses and extents are default INTEGERs, where C and their MPI-2
# replacements (MPI_Type_create_hvector, ..., MPI_Get_address,
# MPI_Type_get_extent) have MPI_Aint / INTEGER(KIND=MPI_ADDRESS_KIND):
# the wrappers convert. Results that do not fit a default INTEGER are an
# MPI_ERR_ARG error (tide_f_aint_to_fint, f_support.c).
MPI1_FINT_AINT = {"MPI_Type_hvector": "stride", "MPI_Type_hindexed": "array_of_displacements",
                  "MPI_Type_struct": "array_of_displacements", "MPI_Address": "address",
                  "MPI_Type_extent": "extent", "MPI_Type_lb": "displacement",
                  "MPI_Type_ub": "displacement"}


def prototypes(text):
    body = text.split("==== MPI functions ====", 1)[1].split("==== Profiling interface", 1)[0]
    for m in re.finditer(r"^int (MPI_\w+)\((.*)\);$", body, re.M):
        if m.group(1).startswith("MPI_T_"):
            continue  # the tool information interface has no Fortran bindings
        params = [] if m.group(2).strip() == "void" else [p.strip() for p in m.group(2).split(",")]
        yield m.group(1), params


def split_param(p):
    m = re.match(r"^(.*?)(\w+)((?:\[[^]]*\])*)$", p)
    if not m:
        return p, "", ""
    return m.group(1).strip(), m.group(2), m.group(3)


# The info calls returning a string (MPI-4.0 10): by the Fortran text the
# value (key) is written only when the key exists (flag true; for
# MPI_INFO_GET_NTHKEY, when the call succeeds), at most VALUELEN (BUFLEN)
# characters of it, blank padded; MPI_INFO_GET_STRING's BUFLEN comes back
# as the length of the value, with no terminator (C counts its NUL).
INFO_VALUE_OUT = {
    "MPI_Info_get": ("    size_t c_cap = *f_valuelen <= 0 ? 0 : (size_t)*f_valuelen < f_value_len ?"
                     " (size_t)*f_valuelen : f_value_len;\n"
                     "    char *c_value = calloc(c_cap + 1, 1);\n",
                     "*f_valuelen <= 0 ? *f_valuelen : (int)c_cap",
                     "    if (rc == MPI_SUCCESS && *f_flag && c_cap > 0)"
                     " tide_f_fstr(c_value, f_value, f_value_len);\n"
                     "    free(c_value);\n"),
    "MPI_Info_get_string": ("    size_t c_cap = *f_buflen <= 0 ? 0 : (size_t)*f_buflen < f_value_len ?"
                            " (size_t)*f_buflen : f_value_len;\n"
                            "    char *c_value = calloc(c_cap + 1, 1);\n"
                            "    int c_buflen = *f_buflen < 0 ? *f_buflen : c_cap > 0 ? (int)c_cap + 1 : 0;\n",
                            "&c_buflen",
                            "    if (rc == MPI_SUCCESS && *f_flag) {\n"
                            "        if (c_cap > 0) tide_f_fstr(c_value, f_value, f_value_len);\n"
                            "        *f_buflen = c_buflen - 1;\n    }\n"
                            "    free(c_value);\n"),
    "MPI_Info_get_nthkey": ("    char *c_key = calloc(MPI_MAX_INFO_KEY + 1, 1);\n", None,
                            "    if (rc == MPI_SUCCESS) tide_f_fstr(c_key, f_key, f_key_len);\n"
                            "    free(c_key);\n"),
}


class Unbound(Exception):
    pass


def arg(ctype, name, dims, fn, params):
    """(Fortran-side C parameter, code before, call expression, code after, hidden len)"""
    const = ctype.startswith("const ")
    base = ctype[6:].strip() if const else ctype
    arr = bool(dims) or name.startswith("array_of")
    f = "f_" + name
    if dims == "[][3]":
        return "MPI_Fint *%s" % f, "", "(int (*)[3])%s" % f, "", None
    if base in ("int", "int *") and (dims or base == "int *"):
        if "errcodes" in name:
            return "MPI_Fint *%s" % f, "", "tide_f_errcodes(%s)" % f, "", None
        if "weights" in name:
            return "MPI_Fint *%s" % f, "", "tide_f_weights(%s)" % f, "", None
        return "MPI_Fint *%s" % f, "", f, "", None
    if base == "int":
        return "MPI_Fint *%s" % f, "", "*" + f, "", None
    if MPI1_FINT_AINT.get(fn) == name:
        if base == "MPI_Aint" and not dims:  # a stride in
            return "MPI_Fint *%s" % f, "", "(MPI_Aint)*%s" % f, "", None
        if base == "MPI_Aint" and dims:  # displacements in: count of them
            return ("MPI_Fint *%s" % f,
                    "    MPI_Aint *c_%s = tide_f_fints_to_aints(%s, *f_count);\n" % (name, f),
                    "c_" + name, "    free(c_%s);\n" % name, None)
        if base == "MPI_Aint *":  # an address or extent out
            return ("MPI_Fint *%s" % f, "    MPI_Aint c_%s = 0;\n" % name, "&c_" + name,
                    "    if (rc == MPI_SUCCESS) rc = tide_f_aint_to_fint(c_%s, %s, \"%s\", \"%s\");\n"
                    % (name, f, fn.upper(), name), None)
    for t in ("MPI_Aint", "MPI_Offset", "MPI_Count"):
        if base == t + " *" or (base == t and dims):
            return "%s *%s" % (t, f), "", f, "", None
        if base == t:
            return "%s *%s" % (t, f), "", "*" + f, "", None
    if base in ("void *",) and name not in NOT_CHOICE:
        return "void *%s" % f, "", "tide_f_buf(%s)" % f, "", None
    if base == "char *" and not dims and not const and fn in INFO_VALUE_OUT:
        return ("char *%s" % f, "", "c_" + name, "", f + "_len")
    if base == "char *" and not dims:
        if const:
            return ("char *%s" % f, "    char *c_%s = tide_f_cstr(%s, %s_len);\n" % (name, f, f),
                    "c_" + name, "    free(c_%s);\n" % name, f + "_len")
        return ("char *%s" % f, "    char *c_%s = calloc(%s_len + 4097, 1);\n" % (name, f),
                "c_" + name,
                "    tide_f_fstr(c_%s, %s, %s_len);\n    free(c_%s);\n" % (name, f, f, name),
                f + "_len")
    if base == "char" and dims == "[]" and const:
        return ("char *%s" % f, "    char *c_%s = tide_f_cstr(%s, %s_len);\n" % (name, f, f),
                "c_" + name, "    free(c_%s);\n" % name, f + "_len")
    if base in ("MPI_Status *", "MPI_Status") and ("statuses" in name or dims):
        cnt = next((split_param(p)[1] for p in params if split_param(p)[1] in ("count", "incount")), None)
        if cnt is None:
            raise Unbound("status array without count")
        return ("MPI_Fint *%s" % f,
                "    MPI_Status *c_%s = tide_f_statuses_in(%s, *f_%s);\n" % (name, f, cnt),
                "c_" + name,
                "    tide_f_statuses_out(c_%s, %s, *f_%s);\n" % (name, f, cnt), None)
    if base == "MPI_Status *":
        if const:
            return ("MPI_Fint *%s" % f,
                    "    MPI_Status c_%s;\n    MPI_Status_f2c(%s, &c_%s);\n" % (name, f, name),
                    "&c_" + name, "", None)
        if fn.startswith("MPI_Status_set_"):  # changes one field of the status given
            return ("MPI_Fint *%s" % f,
                    "    MPI_Status c_%s;\n    MPI_Status_f2c(%s, &c_%s);\n" % (name, f, name),
                    "&c_" + name, "    MPI_Status_c2f(&c_%s, %s);\n" % (name, f), None)
        # the status as given: a call that does not set a field (MPI_ERROR
        # in single-completion calls, MPI-4.0 3.2.5) leaves it as it was
        return ("MPI_Fint *%s" % f,
                "    MPI_Status c_%s;\n    if (!tide_f_is_status_ignore(%s)) MPI_Status_f2c(%s, &c_%s);\n"
                % (name, f, f, name),
                "tide_f_is_status_ignore(%s) ? MPI_STATUS_IGNORE : &c_%s" % (f, name),
                "    if (!tide_f_is_status_ignore(%s)) MPI_Status_c2f(&c_%s, %s);\n" % (f, name, f),
                None)
    for h in HANDLES:
        t = "MPI_" + h
        if base == t and not dims:
            return "MPI_Fint *%s" % f, "", "MPI_%s_f2c(*%s)" % (F2C[h], f), "", None
        if (base == t and dims) or (base == t + " *" and arr):
            return "MPI_Fint *%s" % f, "", "(%s *)%s" % (t, f), "", None
        if base == t + " *":
            return ("MPI_Fint *%s" % f, "    %s c_%s = MPI_%s_f2c(*%s);\n" % (t, name, F2C[h], f),
                    "&c_" + name, "    *%s = MPI_%s_c2f(c_%s);\n" % (f, F2C[h], name), None)
    raise Unbound("parameter '%s %s%s'" % (ctype, name, dims))


def binding(fn, params, large_count=False):
    """The C wrapper of one function; large-count (_c) forms only when asked:
    they are for mpi_f08 (gen-f08.py), not for mpif.h and `use mpi`."""
    if fn in HANDWRITTEN:
        raise Unbound("hand-written")
    if re.search(r"_c$", fn) and not large_count:
        raise Unbound("large-count form: mpi_f08 only")
    if re.search(r"_(c2f|f2c)$|_(f2c|c2f)08$|Status_f", fn):
        raise Unbound("C-only conversion function")
    fparams, pre, call, post, lens = [], "", [], "", []
    for p in params:
        ctype, name, dims = split_param(p)
        if p == "...":
            raise Unbound("varargs")
        fp, b, c, a, ln = arg(ctype, name, dims, fn, params)
        fparams.append(fp)
        pre += b
        call.append(c)
        post += a
        if ln:
            lens.append("size_t %s" % ln)
    fparams.append("MPI_Fint *ierr")
    if fn in INFO_VALUE_OUT:
        b, c, a = INFO_VALUE_OUT[fn]
        pre, post = b + pre, post + a
        names = [split_param(p)[1] for p in params]
        for n in ("valuelen", "buflen"):
            if n in names and c:
                call[names.index(n)] = c
    # 1-based request indices in Fortran
    if fn in ("MPI_Waitany", "MPI_Testany"):
        post += "    if (rc == MPI_SUCCESS && *f_index != MPI_UNDEFINED) (*f_index)++;\n"
    if fn in ("MPI_Waitsome", "MPI_Testsome"):
        post += ("    if (rc == MPI_SUCCESS && *f_outcount != MPI_UNDEFINED)\n"
                 "        for (int i = 0; i < *f_outcount; i++) f_array_of_indices[i]++;\n")
    sig = ", ".join(fparams + lens)
    low = fn.lower()
    return ("TIDE_F_NAMES(%s, %s)\n"
            "void p%s_(%s)\n{\n%s    int rc = %s(%s);\n%s    if (ierr) *ierr = rc;\n}\n\n"
            % (low, sig, low, sig, pre, fn, ", ".join(call), post))


def gen_c(text):
    out = ["/* mpi_fortran.c: generated by fortran/gen-bindings.py from mpi.h; do not edit.\n"
           " * Legacy Fortran bindings: every argument by reference, ierror last,\n"
           " * hidden string lengths after it. Each wrapper is pmpi_xxx_ (and\n"
           " * pmpi_xxx__); mpi_xxx_ and mpi_xxx__ are weak aliases of it, which a\n"
           " * Fortran profiling tool replaces by defining MPI_XXX (TIDE_F_NAMES). */\n",
           "#include <stdlib.h>\n#include \"f_support.h\"\n\n"]
    for fn, params in prototypes(text):
        try:
            out.append(binding(fn, params, large_count=True))
        except Unbound:
            pass
    return "".join(out)


def constants(text):
    env = {"TIDE_HANDLE": lambda k, i: (k << 26) | i}
    vals = []
    for m in re.finditer(r"^#define ((?:MPI|TIDE)_\w+) (.+)$", text, re.M):
        name, expr = m.group(1), m.group(2).strip()
        e = expr.replace("(int)", "").replace("TIDE_BUILTIN_TYPE(", "TIDE_BUILTIN_TYPE_(")
        env["TIDE_BUILTIN_TYPE_"] = lambda n: (env["TIDE_KIND_DATATYPE"] << 26) | env["TIDE_DATATYPE_BUILTIN_BIT"] | n
        e = re.sub(r"\b(\w+)\b", lambda x: x.group(1), e)
        try:
            v = eval(e, {"__builtins__": {}}, env)
        except Exception:
            continue
        if not isinstance(v, int):
            continue
        env[name] = v
        if name.startswith("MPI_"):
            vals.append((name, v))
    return vals


# constants of kind MPI_OFFSET_KIND in Fortran (MPI-4.0 A.1.1): given where
# an INTEGER(KIND=MPI_OFFSET_KIND) is read (MPI_FILE_SET_VIEW's DISP), a
# default INTEGER would leave half of the offset read unset
OFFSET_CONSTANTS = {"MPI_DISPLACEMENT_CURRENT"}


def gen_constants(text, module):
    ind = "      "
    lines = []
    extra = [("MPI_STATUS_SIZE", STATUS_SIZE), ("MPI_SOURCE", 1), ("MPI_TAG", 2), ("MPI_ERROR", 3),
             ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8), ("MPI_COUNT_KIND", 8),
             ("MPI_INTEGER_KIND", 4)]
    for name, v in extra + constants(text):
        if name in ("MPI_Fint",):
            continue
        if name in OFFSET_CONSTANTS:
            lines.append("%sinteger(kind=MPI_OFFSET_KIND) %s" % (ind, name))
            lines.append("%sparameter (%s=%d)" % (ind, name, v))
            continue
        lines.append("%sinteger %s" % (ind, name))
        lines.append("%sparameter (%s=%d)" % (ind, name, v))
    for fname, sym, decl in SENTINELS:
        lines.append("%s%s" % (ind, decl))
        lines.append("%scommon /%s/ %s" % (ind, sym, fname))
    # these bindings take buffers as they are (no array sections), and
    # make no promise about ASYNCHRONOUS (mpi_f08 does: gen-f08.py)
    for name in ("MPI_SUBARRAYS_SUPPORTED", "MPI_ASYNC_PROTECTS_NONBLOCKING"):
        lines.append("%slogical %s" % (ind, name))
        lines.append("%sparameter (%s=.false.)" % (ind, name))
    lines.append("%sdouble precision MPI_WTIME, MPI_WTICK" % ind)
    lines.append("%sexternal MPI_WTIME, MPI_WTICK" % ind)
    lines.append("%sinteger*8 MPI_AINT_ADD, MPI_AINT_DIFF" % ind)
    lines.append("%sexternal MPI_AINT_ADD, MPI_AINT_DIFF" % ind)
    # and their profiling names (a tool in Fortran calls them)
    lines.append("%sdouble precision PMPI_WTIME, PMPI_WTICK" % ind)
    lines.append("%sexternal PMPI_WTIME, PMPI_WTICK" % ind)
    lines.append("%sinteger*8 PMPI_AINT_ADD, PMPI_AINT_DIFF" % ind)
    lines.append("%sexternal PMPI_AINT_ADD, PMPI_AINT_DIFF" % ind)
    # one a line: fixed form ends a line at column 72
    for name in CALLBACK_EXTERNALS:
        lines.append("%sexternal %s" % (ind, name))
    return "\n".join(lines) + "\n"


def gen_mpifh(text):
    return ("! mpif.h: generated by fortran/gen-bindings.py from mpi.h; do not edit.\n"
            "! Tide MPI constants for Fortran (fixed or free form).\n" + gen_constants(text, False))


LOGICALS = {"flag", "weighted", "commute", "reorder", "periods", "high", "remain_dims"}
KINDS = {"MPI_Aint": 8, "MPI_Offset": 8, "MPI_Count": 8}


def param_shape(ctype, name, dims):
    """(const, base type, pointer, array) of one C parameter."""
    const = ctype.startswith("const ")
    base = ctype[6:].strip() if const else ctype
    ptr = base.endswith("*")
    base = base.rstrip(" *")
    arr = bool(dims) or name.startswith("array_of") or "weights" in name
    return const, base, ptr, arr


def fdecl(ctype, name, dims, fn=None):
    """The Fortran declaration of one dummy argument of an interface."""
    const, base, ptr, arr = param_shape(ctype, name, dims)
    if MPI1_FINT_AINT.get(fn) == name:  # MPI-1: default INTEGER addresses
        return ["integer :: %s%s" % (name, "(*)" if arr else "")]
    if dims == "[][3]":
        return ["integer :: %s(3, *)" % name]
    if base == "void":
        return ["!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s" % name, "type(*), dimension(*) :: %s" % name]
    if base == "char":
        return ["character(len=*) :: %s" % name]
    if base == "MPI_Status":
        if "statuses" in name or dims:
            return ["integer :: %s(%d, *)" % (name, STATUS_SIZE)]
        return ["integer :: %s(%d)" % (name, STATUS_SIZE)]
    if base in KINDS:
        return ["integer(kind=%d) :: %s%s" % (KINDS[base], name, "(*)" if arr else "")]
    t = "logical" if name in LOGICALS else "integer"
    return ["%s :: %s%s" % (t, name, "(*)" if arr else "")]


def interfaces(text):
    out = []
    for fn, params in prototypes(text):
        try:
            binding(fn, params)
        except Unbound:
            continue
        names, decls = [], []
        for p in params:
            ctype, name, dims = split_param(p)
            names.append(name)
            decls += fdecl(ctype, name, dims, fn)
        head = "  subroutine %s(" % fn
        for a in names:  # free-form lines of at most 132 characters
            if len(head) + len(a) > 100:
                out.append(head + " &")
                head = "      "
            head += a + ", "
        out.append(head + "ierror)")
        out += ["    " + d for d in decls + ["integer :: ierror"]]
        out.append("  end subroutine %s" % fn)
    return "\n".join(out) + "\n"


# MPI_Sizeof: one specific per intrinsic numeric (and logical) type and
# kind, any rank; the specifics are external procedures in the mpi_f08
# object (gen-f08.py), which both modules' generic interfaces name.
SIZEOF_TYPES = ([("integer", k) for k in (1, 2, 4, 8, 16)] + [("real", k) for k in (4, 8, 10, 16)] +
                [("complex", k) for k in (4, 8, 10, 16)] + [("logical", k) for k in (1, 2, 4, 8)] +
                [("character", 1)])


def sizeof_specific(t, k, body):
    # CHARACTER too (MPI-4.0 19.1.9 asks for the numeric types): the
    # size of one element, its length in bytes
    length = ", len=*" if t == "character" else ""
    out = ["subroutine tide_sizeof_%s%d(x, size, ierror)" % (t, k),
           "    %s(kind=%d%s), dimension(..), intent(in) :: x" % (t, k, length),
           "    integer, intent(out) :: size", "    integer, optional, intent(out) :: ierror"]
    if body:
        out += ["    size = storage_size(x) / 8", "    if (present(ierror)) ierror = 0"]
    return out + ["end subroutine tide_sizeof_%s%d" % (t, k)]


def sizeof_interface():
    out = ["interface MPI_Sizeof"]
    for t, k in SIZEOF_TYPES:
        out += ["  " + l for l in sizeof_specific(t, k, False)]
    return "\n".join(out + ["end interface MPI_Sizeof"]) + "\n"


def sizeof_procedures():
    out = ["! MPI_Sizeof's specifics (the generic is in the mpi and mpi_f08 modules)"]
    for t, k in SIZEOF_TYPES:
        out += sizeof_specific(t, k, True)
    return "\n".join(out) + "\n"


# The `mpi` module's interfaces of the hand-written bindings that give
# memory as an address (f_memory.c): BASEPTR an INTEGER(KIND=MPI_ADDRESS_KIND)
# or, through a second specific (an alias of the same C wrapper), a
# TYPE(C_PTR) (MPI-3.1 17.1.5).
MEMORY_CALLS = [  # name, dummies before baseptr (declarations), after it
    ("MPI_Alloc_mem", ["integer(kind=8) :: size", "integer :: info"], []),
    ("MPI_Win_allocate", ["integer(kind=8) :: size", "integer :: disp_unit, info, comm"],
     ["integer :: win"]),
    ("MPI_Win_allocate_shared", ["integer(kind=8) :: size", "integer :: disp_unit, info, comm"],
     ["integer :: win"]),
    ("MPI_Win_shared_query", ["integer :: win, rank", "integer(kind=8) :: size",
                              "integer :: disp_unit"], []),
]


def dummy_names(decls):
    return [n.strip() for d in decls for n in d.split("::")[1].split(",")]


def memory_interfaces():
    out = []
    for fn, before, after in MEMORY_CALLS:
        args = dummy_names(before) + ["baseptr"] + dummy_names(after) + ["ierror"]
        out.append("interface %s" % fn)
        for spec, btype in ((fn, "integer(kind=8)"), (fn + "_cptr", "type(c_ptr)")):
            out.append("  subroutine %s(%s)" % (spec, ", ".join(args)))
            if btype.startswith("type"):
                out.append("    import :: c_ptr")
            out += ["    " + d for d in before + ["%s :: baseptr" % btype] + after]
            out += ["    integer :: ierror", "  end subroutine %s" % spec]
        out.append("end interface %s" % fn)
    return "\n".join(out) + "\n"


# the `mpi` module's interfaces of the other hand-written bindings
# (callbacks are EXTERNAL: any Fortran procedure)
# The interfaces of bindings f_special.c writes by hand, as `use mpi`
# declares them and as mpi_f08's glue module sees them (gen-f08.py).
SPECIAL_COMMON = """  subroutine MPI_Init(ierror)
    integer :: ierror
  end subroutine MPI_Init
  subroutine MPI_Init_thread(required, provided, ierror)
    integer :: required, provided, ierror
  end subroutine MPI_Init_thread
  subroutine MPI_Pcontrol(level)
    integer :: level
  end subroutine MPI_Pcontrol
  subroutine MPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, &
      array_of_errcodes, ierror)
    character(len=*) :: command, argv(*)
    integer :: maxprocs, info, root, comm, intercomm, array_of_errcodes(*), ierror
  end subroutine MPI_Comm_spawn
  subroutine MPI_Op_create(user_fn, commute, op, ierror)
    external :: user_fn
    logical :: commute
    integer :: op, ierror
  end subroutine MPI_Op_create
"""

SPECIAL_INTERFACES = "interface\n" + SPECIAL_COMMON + """  subroutine MPI_Keyval_create(copy_fn, delete_fn, keyval, extra_state, ierror)
    external :: copy_fn, delete_fn
    integer :: keyval, extra_state, ierror
  end subroutine MPI_Keyval_create
  subroutine MPI_Attr_put(comm, keyval, attribute_val, ierror)
    integer :: comm, keyval, attribute_val, ierror
  end subroutine MPI_Attr_put
  subroutine MPI_Attr_get(comm, keyval, attribute_val, flag, ierror)
    integer :: comm, keyval, attribute_val, ierror
    logical :: flag
  end subroutine MPI_Attr_get
"""
for _k in ("Comm", "Win", "File", "Session"):
    SPECIAL_INTERFACES += """  subroutine MPI_%s_create_errhandler(errhandler_fn, errhandler, ierror)
    external :: errhandler_fn
    integer :: errhandler, ierror
  end subroutine MPI_%s_create_errhandler
""" % (_k, _k)
SPECIAL_INTERFACES += """  subroutine MPI_Errhandler_create(errhandler_fn, errhandler, ierror)
    external :: errhandler_fn
    integer :: errhandler, ierror
  end subroutine MPI_Errhandler_create
"""
for _k in ("Comm", "Type", "Win"):
    SPECIAL_INTERFACES += """  subroutine MPI_%(k)s_create_keyval(copy_fn, delete_fn, keyval, extra_state, ierror)
    external :: copy_fn, delete_fn
    integer :: keyval, ierror
    integer(kind=8) :: extra_state
  end subroutine MPI_%(k)s_create_keyval
  subroutine MPI_%(k)s_set_attr(obj, keyval, attribute_val, ierror)
    integer :: obj, keyval, ierror
    integer(kind=8) :: attribute_val
  end subroutine MPI_%(k)s_set_attr
  subroutine MPI_%(k)s_get_attr(obj, keyval, attribute_val, flag, ierror)
    integer :: obj, keyval, ierror
    integer(kind=8) :: attribute_val
    logical :: flag
  end subroutine MPI_%(k)s_get_attr
""" % {"k": _k}
SPECIAL_INTERFACES += """
  integer(kind=8) function MPI_Aint_add(base, disp)
    integer(kind=8) :: base, disp
  end function MPI_Aint_add
  integer(kind=8) function MPI_Aint_diff(addr1, addr2)
    integer(kind=8) :: addr1, addr2
  end function MPI_Aint_diff
  subroutine MPI_Buffer_detach(buffer_addr, size, ierror)
    !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer_addr
    type(*), dimension(*) :: buffer_addr
    integer :: size, ierror
  end subroutine MPI_Buffer_detach
  subroutine MPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, &
      array_of_info, root, comm, intercomm, array_of_errcodes, ierror)
    integer :: count
    character(len=*) :: array_of_commands(*), array_of_argv(count, *)
    integer :: array_of_maxprocs(*), array_of_info(*), root, comm, intercomm, array_of_errcodes(*)
    integer :: ierror
  end subroutine MPI_Comm_spawn_multiple
  subroutine MPI_Info_create_env(info, ierror)
    integer :: info, ierror
  end subroutine MPI_Info_create_env
  subroutine MPI_Status_f2f08(f_status, f08_status, ierror)
    import :: MPI_Status, MPI_STATUS_SIZE
    integer :: f_status(MPI_STATUS_SIZE)
    type(MPI_Status) :: f08_status
    integer :: ierror
  end subroutine MPI_Status_f2f08
  subroutine MPI_Status_f082f(f08_status, f_status, ierror)
    import :: MPI_Status, MPI_STATUS_SIZE
    type(MPI_Status) :: f08_status
    integer :: f_status(MPI_STATUS_SIZE)
    integer :: ierror
  end subroutine MPI_Status_f082f
  subroutine MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
    external :: query_fn, free_fn, cancel_fn
    integer(kind=8) :: extra_state
    integer :: request, ierror
  end subroutine MPI_Grequest_start
  subroutine MPI_Register_datarep(datarep, read_conversion_fn, write_conversion_fn, &
      dtype_file_extent_fn, extra_state, ierror)
    character(len=*) :: datarep
    external :: read_conversion_fn, write_conversion_fn, dtype_file_extent_fn
    integer(kind=8) :: extra_state
    integer :: ierror
  end subroutine MPI_Register_datarep
end interface
"""


# TYPE(MPI_Status) of mpi_f08, for MPI_Status_f2f08 and MPI_Status_f082f
# (the layout of the C MPI_Status; the last two fields are Tide's, hidden)
F08_STATUS_TYPE = """      type, bind(C) :: MPI_Status
        integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
        integer(c_int), private :: tide_cancelled
        integer(c_long_long), private :: tide_nbytes
      end type MPI_Status
"""


def gen_module(text):
    consts = gen_constants(text, True).replace(
        "      double precision MPI_WTIME, MPI_WTICK\n      external MPI_WTIME, MPI_WTICK\n", "").replace(
        "      integer*8 MPI_AINT_ADD, MPI_AINT_DIFF\n      external MPI_AINT_ADD, MPI_AINT_DIFF\n", "").replace(
        "      double precision PMPI_WTIME, PMPI_WTICK\n      external PMPI_WTIME, PMPI_WTICK\n", "").replace(
        "      integer*8 PMPI_AINT_ADD, PMPI_AINT_DIFF\n      external PMPI_AINT_ADD, PMPI_AINT_DIFF\n", "")
    procs = ("interface\n  double precision function MPI_Wtime()\n  end function MPI_Wtime\n"
             "  double precision function MPI_Wtick()\n  end function MPI_Wtick\n" +
             interfaces(text) + "end interface\n" + memory_interfaces() + SPECIAL_INTERFACES)
    return ("! mpi.f90: generated by fortran/gen-bindings.py from mpi.h; do not edit.\n"
            "! The `use mpi` module: the constants and sentinels of mpif.h and an\n"
            "! explicit interface for every generated binding (choice buffers take\n"
            "! any type and rank: NO_ARG_CHECK), and the same for its profiling\n"
            "! names PMPI_XXX.\n"
            "module mpi\n      use, intrinsic :: iso_c_binding, only: c_ptr, c_int, c_long_long\n"
            "      implicit none\n      private :: c_ptr, c_int, c_long_long\n" + consts +
            F08_STATUS_TYPE + procs + profiling_names(procs) +
            sizeof_interface() + "end module mpi\n")


def profiling_names(procs):
    """The interfaces of procs under the profiling names PMPI_XXX (the C
    wrappers' pmpi_xxx_, MPI-4.0 15.2): a tool replacing MPI_XXX calls them."""
    return re.sub(r"\b(subroutine|function|interface) MPI_", r"\1 PMPI_", procs)


def gen_list(text):
    bound, unbound = [], []
    for fn, params in prototypes(text):
        try:
            binding(fn, params)
            bound.append(fn)
        except Unbound as e:
            unbound.append("%s: %s" % (fn, e))
    return "bound %d\n%s\nnot generated %d\n%s\n" % (len(bound), "\n".join(bound), len(unbound),
                                                     "\n".join(unbound))


def main():
    text = open(sys.argv[1]).read()
    gen = {"c": gen_c, "mpifh": gen_mpifh, "module": gen_module, "list": gen_list}[sys.argv[2]]
    sys.stdout.write(gen(text))


if __name__ == "__main__":
    main()
