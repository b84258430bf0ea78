/*
 * f_choice.c: the choice buffers of `use mpi_f08`, TYPE(*), DIMENSION(..):
 * the procedures of mpi_f08 (gen-f08.py) give each buffer's descriptor
 * (ISO_Fortran_binding.h) with its count and datatype, and get back the
 * address, count and datatype to give the C wrapper. A contiguous buffer
 * (or a scalar, or a sentinel such as MPI_BOTTOM) passes its address
 * unchanged; a non-contiguous array section is described, without a copy,
 * by a derived datatype built from the descriptor's strides over the
 * user's datatype. The count and datatype then describe the elements of
 * the section as if they were contiguous (MPI-3.1 17.1.2, 17.1.12).
 * The one case no datatype describes - the buffers of a reduction, which
 * share one datatype, laid out differently - is copied to contiguous
 * memory for a blocking call (and back for the buffers it writes).
 */
#include <ISO_Fortran_binding.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "f_support.h"

/* how a buffer's count and datatype may be rewritten (flags of
 * tide_f08_choice; gen-f08.py uses the same values) */
enum {
    CHOICE_ADDRESS = 0,     /* no datatype: the buffer must be contiguous */
    CHOICE_ANY_ADDRESS = 1, /* no datatype: the address of the first element */
    CHOICE_RECOUNT = 2,     /* count and datatype describe the whole buffer: both may change */
    CHOICE_KEEP_COUNT = 3,  /* the count is per process or an array: only the datatype changes */
    CHOICE_RECOUNT_OR_COPY = 4, /* CHOICE_RECOUNT, or copies of buffers laid out differently
                                 * (the buffers of a blocking reduction) */
};

/* A section with unit dimensions dropped and dimensions that continue
 * each other merged: dims == 0 is one element, dims == 1 with stride
 * elem is contiguous. */
struct layout {
    char *base;
    size_t elem;
    int dims;
    MPI_Aint n; /* elements */
    MPI_Aint extent[CFI_MAX_RANK];
    MPI_Aint stride[CFI_MAX_RANK];
};

static void describe(const CFI_cdesc_t *d, struct layout *l)
{
    l->base = d->base_addr;
    l->elem = d->elem_len;
    l->dims = 0;
    l->n = 1;
    for (int i = 0; i < d->rank; i++) {
        MPI_Aint ext = (MPI_Aint)d->dim[i].extent, sm = (MPI_Aint)d->dim[i].sm;
        l->n *= ext;
        if (ext == 1)
            continue;
        if (l->dims > 0 && sm == l->stride[l->dims - 1] * l->extent[l->dims - 1]) {
            l->extent[l->dims - 1] *= ext;
            continue;
        }
        l->extent[l->dims] = ext;
        l->stride[l->dims] = sm;
        l->dims++;
    }
    if (l->n <= 0)
        l->dims = 0;
}

static int contiguous(const struct layout *l)
{
    return l->dims == 0 || (l->dims == 1 && l->stride[0] == (MPI_Aint)l->elem);
}

static int is_sentinel(const void *p)
{
    return p == (const void *)tide_f_bottom_ || p == (const void *)tide_f_in_place_;
}

static int same_layout(const struct layout *a, const struct layout *b)
{
    if (a->elem != b->elem || a->dims != b->dims)
        return 0;
    for (int i = 0; i < a->dims; i++)
        if (a->extent[i] != b->extent[i] || a->stride[i] != b->stride[i])
            return 0;
    return 1;
}

/* The byte offset of element k (in array element order) of a section. */
static MPI_Aint element_offset(const struct layout *l, MPI_Aint k)
{
    MPI_Aint off = 0;
    for (int i = 0; i < l->dims; i++) {
        off += (k % l->extent[i]) * l->stride[i];
        k /= l->extent[i];
    }
    return off;
}

/* The first count items of datatype (extent ext) laid out over the
 * elements of a section, as one derived datatype (count 1 of it). */
static int section_type(const struct layout *l, int64_t count, MPI_Datatype dt, MPI_Aint ext,
                        MPI_Datatype *out)
{
    MPI_Aint per = (MPI_Aint)l->elem / ext; /* items of datatype in one element */
    MPI_Aint whole = (MPI_Aint)(count / per), rest = (MPI_Aint)(count % per);
    if (whole + (rest > 0) > l->n)
        return MPI_ERR_BUFFER;
    MPI_Datatype elem = dt, t;
    int rc = MPI_SUCCESS;
    if (per > 1 && (rc = MPI_Type_contiguous((int)per, dt, &elem)) != MPI_SUCCESS)
        return rc;
    if (whole == l->n && rest == 0) {
        /* the whole section: one vector of elements per dimension */
        t = elem;
        for (int i = 0; i < l->dims && rc == MPI_SUCCESS; i++) {
            MPI_Datatype next;
            rc = MPI_Type_create_hvector((int)l->extent[i], 1, l->stride[i], t, &next);
            if (t != dt)
                MPI_Type_free(&t);
            t = next;
        }
    } else {
        /* a part of it: the elements listed one by one, then the items of
         * the last element that is only partly used */
        MPI_Aint *offs = malloc((size_t)(whole > 0 ? whole : 1) * sizeof *offs);
        if (!offs) {
            if (elem != dt)
                MPI_Type_free(&elem);
            return MPI_ERR_NO_MEM;
        }
        for (MPI_Aint k = 0; k < whole; k++)
            offs[k] = element_offset(l, k);
        MPI_Datatype parts[2];
        int lens[2] = {1, (int)rest};
        MPI_Aint disps[2] = {0, element_offset(l, whole)};
        rc = MPI_Type_create_hindexed_block((int)whole, 1, offs, elem, &parts[0]);
        free(offs);
        parts[1] = dt;
        if (rc == MPI_SUCCESS) {
            rc = MPI_Type_create_struct(rest > 0 ? 2 : 1, lens, disps, parts, &t);
            MPI_Type_free(&parts[0]);
        }
        if (elem != dt)
            MPI_Type_free(&elem);
    }
    if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(&t)) == MPI_SUCCESS)
        *out = t;
    return rc;
}

/* The copies of one group (CHOICE_RECOUNT_OR_COPY): the buffers' layouts,
 * the contiguous copies, which buffers the call writes. */
struct copies {
    int n;
    size_t bytes;
    struct layout l[3];
    char *tmp[3];
    int written[3];
};

/* Between a section and its contiguous copy: the first `bytes` bytes of
 * its elements in array element order. */
static void copy_section(const struct layout *l, char *tmp, size_t bytes, int to_section)
{
    for (size_t v = 0; v < bytes; v += l->elem) {
        char *e = l->base + element_offset(l, (MPI_Aint)(v / l->elem));
        size_t len = bytes - v < l->elem ? bytes - v : l->elem;
        if (to_section)
            memcpy(e, tmp + v, len);
        else
            memcpy(tmp + v, e, len);
    }
}

static int copy_group(const struct layout *l, int n, int written, int64_t count, MPI_Datatype dt,
                      MPI_Count ext, intptr_t addr[3], intptr_t *state)
{
    MPI_Count tlb, text;
    int rc = MPI_Type_get_true_extent_x(dt, &tlb, &text);
    if (rc != MPI_SUCCESS)
        return rc;
    if (tlb < 0)
        return MPI_ERR_BUFFER;
    size_t bytes = (size_t)(tlb + (count - 1) * ext + text);
    struct copies *c = calloc(1, sizeof *c);
    if (!c)
        return MPI_ERR_NO_MEM;
    c->n = n;
    c->bytes = bytes;
    for (int i = 0; i < n; i++) {
        c->l[i] = l[i];
        if (is_sentinel(l[i].base) || contiguous(&l[i]))
            continue;
        if (bytes > (size_t)l[i].n * l[i].elem || !(c->tmp[i] = malloc(bytes))) {
            for (int j = 0; j < i; j++)
                free(c->tmp[j]);
            free(c);
            return bytes > (size_t)l[i].n * l[i].elem ? MPI_ERR_BUFFER : MPI_ERR_NO_MEM;
        }
        copy_section(&l[i], c->tmp[i], bytes, 0);
        c->written[i] = (written >> i) & 1;
        addr[i] = (intptr_t)c->tmp[i];
    }
    *state = (intptr_t)c;
    return MPI_SUCCESS;
}

/*
 * One group of choice buffers sharing a count and a datatype (one buffer,
 * or the send and receive buffers of a reduction): b0..b2, nbuf of them.
 * addr[i] gets buffer i's address; *count and *datatype may be replaced
 * (by 1 and a derived datatype); *made gets the datatype to free once the
 * call has been made (0: none), *copies the copies to write back and free
 * (0: none; bit i of *written: the call writes buffer i). Returns an MPI
 * error code in *err.
 */
void tide_f08_choice(CFI_cdesc_t *b0, CFI_cdesc_t *b1, CFI_cdesc_t *b2, const int *nbuf,
                     const int *how, const int *written, int64_t *count, MPI_Fint *datatype,
                     intptr_t addr[3], MPI_Fint *made, intptr_t *copies, MPI_Fint *err)
{
    CFI_cdesc_t *b[3] = {b0, b1, b2};
    struct layout l[3];
    const struct layout *shape = NULL; /* the non-contiguous buffers' layout */
    int alike = 1, n = *nbuf < 3 ? *nbuf : 3;
    *made = 0;
    *copies = 0;
    *err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        describe(b[i], &l[i]);
        addr[i] = (intptr_t)l[i].base;
        if (is_sentinel(l[i].base) || contiguous(&l[i]))
            continue;
        if (*how == CHOICE_ANY_ADDRESS)
            continue;
        if (*how == CHOICE_ADDRESS) {
            *err = MPI_ERR_BUFFER; /* memory given by address and size only */
            return;
        }
        if (shape && !same_layout(shape, &l[i]))
            alike = 0;
        shape = shape ? shape : &l[i];
    }
    if (!shape || *count <= 0) /* a negative count: the library's error */
        return;
    /* a contiguous buffer in the group cannot share the derived datatype */
    for (int i = 0; i < n; i++)
        if (!is_sentinel(l[i].base) && &l[i] != shape && !same_layout(shape, &l[i]))
            alike = 0;
    MPI_Datatype dt = MPI_Type_f2c(*datatype), t;
    MPI_Count lb, ext;
    int rc = MPI_Type_get_extent_x(dt, &lb, &ext);
    if (rc != MPI_SUCCESS) {
        *err = rc;
        return;
    }
    if (ext <= 0) {
        *err = MPI_ERR_BUFFER;
        return;
    }
    if (!alike) {
        *err = *how == CHOICE_RECOUNT_OR_COPY ? copy_group(l, n, *written, *count, dt, ext, addr, copies)
                                              : MPI_ERR_BUFFER;
        return;
    }
    if ((*how == CHOICE_RECOUNT || *how == CHOICE_RECOUNT_OR_COPY) && shape->elem % (size_t)ext == 0) {
        rc = section_type(shape, *count, dt, (MPI_Aint)ext, &t);
        if (rc == MPI_SUCCESS)
            *count = 1;
    } else if (shape->dims == 1 && shape->elem == (size_t)ext && shape->stride[0] > 0) {
        /* equally spaced elements: the datatype with the spacing as its
         * extent keeps the count (per process, counts and displacements) */
        rc = MPI_Type_create_resized(dt, (MPI_Aint)lb, shape->stride[0], &t);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&t);
    } else {
        rc = MPI_ERR_BUFFER;
    }
    if (rc != MPI_SUCCESS) {
        *err = rc;
        return;
    }
    *datatype = MPI_Type_c2f(t);
    *made = *datatype;
}

/* Frees the datatype tide_f08_choice made (0: none; a pending operation
 * holds its own reference: freeing it here is safe, MPI_Type_free), and
 * its copies, written back to the buffers the call wrote if it succeeded. */
void tide_f08_choice_free(const MPI_Fint *made, const intptr_t *copies, const MPI_Fint *rc)
{
    if (*made != 0) {
        MPI_Datatype t = MPI_Type_f2c(*made);
        MPI_Type_free(&t);
    }
    struct copies *c = (struct copies *)*copies;
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        if (c->tmp[i] && c->written[i] && *rc == MPI_SUCCESS)
            copy_section(&c->l[i], c->tmp[i], c->bytes, 1);
        free(c->tmp[i]);
    }
    free(c);
}

/* A layout tide_f08_choice could not describe: the error goes to the
 * handler of the call's object (kind 1 a communicator, 2 a window, 3 a
 * file; 0 none: MPI_COMM_SELF's), as the library's own errors do. */
void tide_f08_choice_error(int kind, MPI_Fint handle, MPI_Fint code)
{
    if (kind == 1)
        MPI_Comm_call_errhandler(MPI_Comm_f2c(handle), code);
    else if (kind == 2)
        MPI_Win_call_errhandler(MPI_Win_f2c(handle), code);
    else if (kind == 3)
        MPI_File_call_errhandler(MPI_File_f2c(handle), code);
    else
        MPI_Comm_call_errhandler(MPI_COMM_SELF, code);
}

/* MPI_F_sync_reg: a call the compiler cannot see into, nothing more. */
void tide_f08_sync_reg(CFI_cdesc_t *buf)
{
    (void)buf;
}
