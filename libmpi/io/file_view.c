/*
 * file_view.c: file views (MPI-2.2 13.3): MPI_File_set_view and
 * MPI_File_get_view, and the mapping every access goes through, from
 * bytes of the view's stream (the data the filetype, tiled from the
 * displacement, makes visible) to segments of the file; also
 * MPI_File_get_byte_offset.
 *
 * The filetype is walked by the datatype layer's convertor over a
 * pretend buffer at FAKE_BASE: the addresses it gives, less the base,
 * are the segments' displacements inside the tiling. A filetype without
 * holes maps straight (one segment).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "runtime/info.h"
#include "io/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_BASE ((uintptr_t)1 << 20)

void tide_io_segs_free(struct tide_io_segs *s)
{
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

static int push(struct tide_io_segs *s, MPI_Offset off, size_t len)
{
    if (len == 0)
        return MPI_SUCCESS;
    if (s->n && s->v[s->n - 1].off + (MPI_Offset)s->v[s->n - 1].len == off) {
        s->v[s->n - 1].len += len;
        return MPI_SUCCESS;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct tide_io_seg *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return MPI_ERR_NO_MEM;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].off = off;
    s->v[s->n].len = len;
    s->n++;
    return MPI_SUCCESS;
}

/* a view whose filetype has no holes: stream byte b is at disp + lb + b */
static bool straight(const struct tide_file *f)
{
    return f->filetype->contig && f->fsize > 0;
}

int tide_io_view_segments(const struct tide_file *f, MPI_Offset sb, size_t len, struct tide_io_segs *out)
{
    if (len == 0)
        return MPI_SUCCESS;
    if (straight(f))
        return push(out, f->disp + f->filetype->true_lb + sb, len) ? tide_err(MPI_ERR_NO_MEM, "out of memory")
                                                                    : MPI_SUCCESS;
    if (f->fsize == 0)
        return tide_err(MPI_ERR_ARG, "the file's view holds no data (its filetype is empty): nothing can be accessed");
    /* native sizes here (set_view refuses holes with a converting representation) */
    size_t fs = f->fsize;
    MPI_Offset first = sb / (MPI_Offset)fs;
    size_t skip = (size_t)(sb % (MPI_Offset)fs);
    size_t ninst = (skip + len + fs - 1) / fs;
    struct tide_convertor cv;
    tide_conv_init(&cv, f->filetype, ninst, (const void *)FAKE_BASE);
    tide_conv_seek(&cv, skip);
    MPI_Offset origin = f->disp + first * (MPI_Offset)f->fextent;
    size_t left = len;
    struct iovec iov[64];
    while (left > 0) {
        size_t bytes = 0;
        int n = tide_conv_iov(&cv, iov, 64, left, &bytes);
        if (n <= 0)
            break;
        for (int i = 0; i < n; i++)
            if (push(out, origin + (MPI_Offset)((uintptr_t)iov[i].iov_base - FAKE_BASE), iov[i].iov_len))
                return tide_err(MPI_ERR_NO_MEM, "out of memory");
        left -= bytes;
    }
    return MPI_SUCCESS;
}

MPI_Offset tide_io_view_offset(const struct tide_file *f, MPI_Offset sb)
{
    if (straight(f))
        return f->disp + f->filetype->true_lb + sb;
    if (f->fsize == 0)
        return f->disp;
    struct tide_io_segs s = {0};
    /* the byte at sb; at a tile's end, the next tile's first byte */
    MPI_Offset off;
    if (tide_io_view_segments(f, sb, 1, &s) == MPI_SUCCESS && s.n)
        off = s.v[0].off;
    else
        off = f->disp + (sb / (MPI_Offset)f->fsize) * f->fextent;
    tide_io_segs_free(&s);
    return off;
}

/* ---- set and get ---- */

static void drop_type(MPI_Datatype *h, struct tide_datatype **dt)
{
    if (*dt && !(*dt)->predefined)
        PMPI_Type_free(h);
    *h = MPI_DATATYPE_NULL;
    *dt = NULL;
}

/* the view's own handle of a type: a duplicate of a derived one */
static int keep_type(MPI_Datatype h, struct tide_datatype *dt, MPI_Datatype *out, struct tide_datatype **outdt)
{
    if (dt->predefined) {
        *out = h;
        *outdt = dt;
        return MPI_SUCCESS;
    }
    int rc = PMPI_Type_dup(h, out);
    if (rc)
        return rc;
    *outdt = tide_datatype_get(*out);
    return MPI_SUCCESS;
}

void tide_io_view_free(struct tide_file *f)
{
    drop_type(&f->etype_h, &f->etype);
    drop_type(&f->filetype_h, &f->filetype);
}

int tide_io_view_default(struct tide_file *f)
{
    f->disp = 0;
    f->etype_h = f->filetype_h = MPI_BYTE;
    f->etype = f->filetype = tide_datatype_get(MPI_BYTE);
    snprintf(f->datarep, sizeof f->datarep, "native");
    f->rep = NULL;
    f->esize = f->fsize = 1;
    f->fextent = 1;
    f->pos = 0;
    return MPI_SUCCESS;
}

static int check_type(struct tide_file *f, MPI_Datatype h, struct tide_datatype **dt, bool may_be_empty,
                      const char *fn, const char *arg)
{
    *dt = tide_datatype_get(h);
    if (!*dt)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE, "%s: invalid datatype (argument %s)", fn, arg);
    if (!(*dt)->predefined && !(*dt)->committed)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE, "%s: the %s is not committed", fn, arg);
    if ((*dt)->size == 0 && !may_be_empty)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE, "%s: the %s holds no data (size 0)", fn, arg);
    if ((*dt)->true_lb < 0)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE, "%s: the %s has a negative displacement", fn, arg);
    return MPI_SUCCESS;
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_set_view";
    FILE_OR_FAIL(fn, fh, f);
    struct tide_datatype *et, *ft;
    int rc;
    /* a filetype without data is a view of nothing (a process that owns
     * no part of a distributed array) */
    if ((rc = check_type(f, etype, &et, false, fn, "etype")) ||
        (rc = check_type(f, filetype, &ft, true, fn, "filetype")))
        return rc;
    if (ft->size % et->size)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE,
                             "%s: the filetype (%zu bytes of data) is not made of whole etypes (%zu bytes)", fn,
                             ft->size, et->size);
    if (!datarep)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: datarep must not be NULL (argument datarep)", fn);
    const struct tide_datarep *rep = NULL;
    if (strcmp(datarep, "native") && strcmp(datarep, "internal")) {
        rep = tide_datarep_find(datarep);
        if (!rep)
            return TIDE_ERR_FILE(f, MPI_ERR_UNSUPPORTED_DATAREP,
                                 "%s: data representation \"%s\" is not known (argument datarep)", fn, datarep);
    }
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return TIDE_ERR_FILE(f, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            return TIDE_ERR_FILE(f, MPI_ERR_ARG,
                                 "%s: MPI_DISPLACEMENT_CURRENT needs a file opened with MPI_MODE_SEQUENTIAL", fn);
        MPI_Offset cur = 0;
        if ((rc = tide_io_shared_fetch_add(f, 0, &cur)))
            return tide_raise_file(f, rc);
        disp = tide_io_view_offset(f, cur * (MPI_Offset)f->esize);
    } else if (disp < 0) {
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: negative displacement %lld (argument disp)", fn, disp);
    }
    size_t esize = et->size, fsize = ft->size;
    MPI_Aint fextent = ft->extent;
    if (rep) {
        if ((rc = tide_datarep_size(rep, et, 1, &esize, fn)) || (rc = tide_datarep_size(rep, ft, 1, &fsize, fn)))
            return tide_raise_file(f, rc);
        if (ft->contig && ft->lb == 0)
            fextent = (MPI_Aint)fsize;
        else if (fsize != ft->size)
            return TIDE_ERR_FILE(f, MPI_ERR_UNSUPPORTED_DATAREP,
                                 "%s: a filetype with holes whose data change size in data representation \"%s\" "
                                 "is not supported (argument filetype)",
                                 fn, datarep);
    }
    MPI_Datatype eh, fh2;
    struct tide_datatype *ek, *fk;
    if ((rc = keep_type(etype, et, &eh, &ek)))
        return tide_raise_file(f, rc);
    if ((rc = keep_type(filetype, ft, &fh2, &fk))) {
        drop_type(&eh, &ek);
        return tide_raise_file(f, rc);
    }
    tide_io_view_free(f);
    f->etype_h = eh;
    f->etype = ek;
    f->filetype_h = fh2;
    f->filetype = fk;
    f->disp = disp;
    snprintf(f->datarep, sizeof f->datarep, "%s", datarep);
    f->rep = rep;
    f->esize = esize;
    f->fsize = fsize;
    f->fextent = fextent;
    f->pos = 0;
    tide_io_hints_apply(&f->hints, f->size, info);
    tide_io_keep_info(f, info);
    /* the shared file pointer is reset too: every rank is past its last
     * use of the old one before rank 0 resets it, and nobody uses the new
     * one before that */
    if ((rc = tide_io_barrier(f)))
        return tide_raise_file(f, rc);
    if (f->rank == 0 && (rc = tide_io_shared_set(f, 0)))
        return tide_raise_file(f, rc);
    if ((rc = tide_io_barrier(f)))
        return tide_raise_file(f, rc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_set_view)

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_view";
    FILE_OR_FAIL(fn, fh, f);
    if (!disp || !etype || !filetype || !datarep)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: disp, etype, filetype and datarep must not be NULL", fn);
    int rc;
    struct tide_datatype *dummy;
    MPI_Datatype e, t;
    if ((rc = keep_type(f->etype_h, f->etype, &e, &dummy)))
        return tide_raise_file(f, rc);
    if ((rc = keep_type(f->filetype_h, f->filetype, &t, &dummy))) {
        if (!f->etype->predefined)
            PMPI_Type_free(&e);
        return tide_raise_file(f, rc);
    }
    *disp = f->disp;
    *etype = e;
    *filetype = t;
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->datarep);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_view)

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_byte_offset";
    FILE_OR_FAIL(fn, fh, f);
    if (!disp)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: disp must not be NULL", fn);
    if (offset < 0)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: negative offset %lld (argument offset)", fn, offset);
    *disp = tide_io_view_offset(f, offset * (MPI_Offset)f->esize);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_byte_offset)
