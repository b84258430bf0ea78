/*
 * file_datarep.c: data representations of file views (MPI-2.2 13.5):
 * "native" and "internal" (the bytes as they are in memory: Tide's
 * internal representation is its native one), "external32" (the
 * datatype layer's conversion), and representations users register with
 * MPI_Register_datarep, whose conversion and extent functions are called
 * as 13.5.3 says (its errors go to the default file error handler). Also MPI_File_get_type_extent.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"
#include "io/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum rep_kind { REP_EXTERNAL32 = 1, REP_USER };

struct tide_datarep {
    char name[MPI_MAX_DATAREP_STRING];
    int kind;
    MPI_Datarep_conversion_function *read_fn, *write_fn;
    MPI_Datarep_extent_function *extent_fn;
    void *extra;
    MPI_Aint *extents; /* user: file extent of each predefined type (0: not asked yet) */
    struct tide_datarep *next;
};

static struct tide_datarep external32 = {.name = "external32", .kind = REP_EXTERNAL32};
static struct tide_datarep *user_reps;

const struct tide_datarep *tide_datarep_find(const char *name)
{
    if (!strcmp(name, "external32"))
        return &external32;
    for (struct tide_datarep *r = user_reps; r; r = r->next)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

/* errors of MPI_Register_datarep: the default file error handler */
#define DATAREP_ERR(cls, ...) tide_raise_file(NULL, tide_err((cls), __VA_ARGS__))

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Register_datarep";
    if (!datarep || !datarep[0])
        return DATAREP_ERR(MPI_ERR_ARG, "%s: datarep must be a nonempty string (argument datarep)", fn);
    if (strlen(datarep) >= MPI_MAX_DATAREP_STRING)
        return DATAREP_ERR(MPI_ERR_ARG, "%s: datarep is longer than MPI_MAX_DATAREP_STRING - 1 (argument datarep)", fn);
    if (!dtype_file_extent_fn)
        return DATAREP_ERR(MPI_ERR_ARG, "%s: dtype_file_extent_fn must not be NULL", fn);
    if (!strcmp(datarep, "native") || !strcmp(datarep, "internal") || tide_datarep_find(datarep))
        return DATAREP_ERR(MPI_ERR_DUP_DATAREP, "%s: data representation \"%s\" is already defined (argument datarep)", fn,
                           datarep);
    struct tide_datarep *r = calloc(1, sizeof *r);
    MPI_Aint *ext = calloc(TIDE_BUILTIN_TYPE_COUNT, sizeof *ext);
    if (!r || !ext) {
        free(r);
        free(ext);
        return DATAREP_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    snprintf(r->name, sizeof r->name, "%s", datarep);
    r->kind = REP_USER;
    r->read_fn = read_conversion_fn;
    r->write_fn = write_conversion_fn;
    r->extent_fn = dtype_file_extent_fn;
    r->extra = extra_state;
    r->extents = ext;
    r->next = user_reps;
    user_reps = r;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Register_datarep)

void tide_datarep_finalize(void)
{
    while (user_reps) {
        struct tide_datarep *r = user_reps;
        user_reps = r->next;
        free(r->extents);
        free(r);
    }
}

/* ---- sizes ---- */

struct user_size {
    const struct tide_datarep *rep;
    size_t bytes;
    MPI_Count items;
    int error;
    const char *fn;
};

static int user_extent(const struct tide_datarep *rep, int bt, MPI_Aint *ext, const char *fn)
{
    if (rep->extents[bt] > 0) {
        *ext = rep->extents[bt];
        return MPI_SUCCESS;
    }
    struct tide_datatype *b = tide_datatype_builtin(bt);
    MPI_Aint e = 0;
    int rc = b ? rep->extent_fn(b->handle, &e, rep->extra) : MPI_ERR_TYPE;
    if (rc != MPI_SUCCESS)
        return tide_err(MPI_ERR_CONVERSION, "%s: the extent function of data representation \"%s\" failed for %s",
                        fn, rep->name, b ? b->name : "a type");
    if (e <= 0)
        return tide_err(MPI_ERR_CONVERSION,
                        "%s: the extent function of data representation \"%s\" gave %ld bytes for %s", fn,
                        rep->name, (long)e, b->name);
    rep->extents[bt] = e;
    *ext = e;
    return MPI_SUCCESS;
}

static int user_size_run(uintptr_t addr, size_t nbytes, int bt, void *arg)
{
    (void)addr;
    struct user_size *u = arg;
    MPI_Aint e = 0;
    u->error = user_extent(u->rep, bt, &e, u->fn);
    if (u->error)
        return -1;
    size_t n = nbytes / tide_dt_builtin_info(bt)->size;
    u->bytes += n * (size_t)e;
    u->items += (MPI_Count)n;
    return 0;
}

/* file bytes and data items of count elements of dt under a user representation */
static int user_size(const struct tide_datarep *rep, struct tide_datatype *dt, MPI_Count count, size_t *bytes,
                     MPI_Count *items, const char *fn)
{
    struct user_size u = {rep, 0, 0, 0, fn};
    if (dt->size == 0 || count == 0) {
        *bytes = 0;
        *items = 0;
        return MPI_SUCCESS;
    }
    /* one element, then scaled: every element has the same signature */
    int rc = tide_dt_visit_typed(dt, 1, 0, user_size_run, &u);
    if (u.error)
        return u.error;
    if (rc)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *bytes = u.bytes * (size_t)count;
    *items = u.items * count;
    return MPI_SUCCESS;
}

int tide_datarep_size(const struct tide_datarep *rep, struct tide_datatype *dt, MPI_Count count, size_t *bytes,
                      const char *fn)
{
    if (!rep) {
        *bytes = dt->size * (size_t)count;
        return MPI_SUCCESS;
    }
    if (rep->kind == REP_EXTERNAL32) {
        long long each = tide_external32_size(dt);
        if (each < 0)
            return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        *bytes = (size_t)each * (size_t)count;
        return MPI_SUCCESS;
    }
    MPI_Count items;
    return user_size(rep, dt, count, bytes, &items, fn);
}

int tide_datarep_extent(const struct tide_datarep *rep, struct tide_datatype *dt, MPI_Aint *extent, const char *fn)
{
    if (!rep || (MPI_Aint)dt->size == dt->extent || dt->size == 0) {
        /* a type without holes takes its file size; native: its extent */
        if (!rep) {
            *extent = dt->extent;
            return MPI_SUCCESS;
        }
        size_t b;
        int rc = tide_datarep_size(rep, dt, 1, &b, fn);
        *extent = (MPI_Aint)b;
        return rc;
    }
    /* with holes: the holes keep their memory size, the data their file size */
    size_t b;
    int rc = tide_datarep_size(rep, dt, 1, &b, fn);
    *extent = dt->extent - (MPI_Aint)dt->size + (MPI_Aint)b;
    return rc;
}

/* ---- conversions ---- */

/* one conversion in either direction (write: memory to file) */
static int convert(const struct tide_datarep *rep, bool write, void *buf, MPI_Count count, struct tide_datatype *dt,
                   void *filebuf, const char *fn)
{
    if (rep->kind == REP_EXTERNAL32)
        return tide_external32_convert(fn, dt, count, buf, filebuf, write);
    MPI_Datarep_conversion_function *cf = write ? rep->write_fn : rep->read_fn;
    if (!cf || cf == MPI_CONVERSION_FN_NULL) {
        /* no conversion in this direction: the bytes as they are */
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)count, buf);
        if (write)
            tide_conv_pack(&cv, filebuf, cv.total);
        else
            tide_conv_unpack(&cv, filebuf, cv.total);
        return MPI_SUCCESS;
    }
    size_t bytes = 0;
    MPI_Count items = 0;
    int rc = user_size(rep, dt, count, &bytes, &items, fn);
    if (rc)
        return rc;
    if (items > INT32_MAX)
        return tide_err(MPI_ERR_COUNT, "%s: %lld data items exceed what a conversion function takes", fn, items);
    rc = cf(buf, dt->handle, (int)items, filebuf, 0, rep->extra);
    if (rc != MPI_SUCCESS)
        return tide_err(MPI_ERR_CONVERSION, "%s: the %s conversion of data representation \"%s\" failed (%d)", fn,
                        write ? "write" : "read", rep->name, rc);
    return MPI_SUCCESS;
}

int tide_datarep_write(const struct tide_datarep *rep, const void *buf, MPI_Count count, struct tide_datatype *dt,
                       void *filebuf, MPI_Offset position, const char *fn)
{
    (void)position;
    return convert(rep, true, (void *)buf, count, dt, filebuf, fn);
}

int tide_datarep_read(const struct tide_datarep *rep, void *buf, MPI_Count count, struct tide_datatype *dt,
                      const void *filebuf, MPI_Offset position, const char *fn)
{
    (void)position;
    return convert(rep, false, buf, count, dt, (void *)filebuf, fn);
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_type_extent";
    FILE_OR_FAIL(fn, fh, f);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (!dt)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);
    if (!extent)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: extent must not be NULL", fn);
    if (!dt->committed && !dt->predefined) {
        int rc = tide_datatype_prepare(dt);
        if (rc)
            return TIDE_ERR_FILE(f, rc, "%s: cannot describe the datatype", fn);
    }
    int rc = tide_datarep_extent(f->rep, dt, extent, fn);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_type_extent)
