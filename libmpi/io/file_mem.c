/*
 * file_mem.c: the memory side of a file access: the user's (buf, count,
 * datatype) as the bytes the view's stream holds. A contiguous type in
 * the native representation is used where it lies; anything else goes
 * through a temporary, packed (or converted to the file's data
 * representation) before a write and unpacked (converted back) after a
 * read.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "io/io.h"

#include <stdlib.h>
#include <string.h>

int tide_io_mem_start(struct tide_file *f, bool write, void *buf, MPI_Count count, struct tide_datatype *dt,
                      MPI_Offset pos_etypes, struct tide_io_mem *m, const char *fn)
{
    memset(m, 0, sizeof *m);
    m->buf = buf;
    m->count = count;
    m->dt = dt;
    m->pos_etypes = pos_etypes;
    int rc = tide_datarep_size(f->rep, dt, count, &m->len, fn);
    if (rc || m->len == 0)
        return rc;
    if (!f->rep && dt->contig) {
        m->data = (char *)buf + dt->true_lb;
        return MPI_SUCCESS;
    }
    m->data = malloc(m->len);
    if (!m->data)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for %zu bytes of file data", fn, m->len);
    m->owned = true;
    if (!write)
        return MPI_SUCCESS;
    if (f->rep)
        return tide_datarep_write(f->rep, buf, count, dt, m->data, pos_etypes, fn);
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)count, buf);
    tide_conv_pack(&cv, m->data, m->len);
    return MPI_SUCCESS;
}

size_t tide_io_mem_user_bytes(const struct tide_io_mem *m, size_t got)
{
    if (got >= m->len)
        return m->dt->size * (size_t)m->count;
    if (m->len == m->dt->size * (size_t)m->count)
        return got;
    /* a converting representation: whole elements only */
    size_t per = m->len / (size_t)m->count;
    return got / per * m->dt->size;
}

int tide_io_mem_finish(struct tide_file *f, struct tide_io_mem *m, size_t got, const char *fn)
{
    if (!m->owned || got == 0)
        return MPI_SUCCESS;
    if (f->rep) {
        size_t per = m->len / (size_t)m->count;
        MPI_Count whole = got >= m->len ? m->count : (MPI_Count)(got / per);
        return whole ? tide_datarep_read(f->rep, m->buf, whole, m->dt, m->data, m->pos_etypes, fn) : MPI_SUCCESS;
    }
    struct tide_convertor cv;
    tide_conv_init(&cv, m->dt, (size_t)m->count, m->buf);
    tide_conv_unpack(&cv, m->data, got < m->len ? got : m->len);
    return MPI_SUCCESS;
}

void tide_io_mem_free(struct tide_io_mem *m)
{
    if (m->owned)
        free(m->data);
    m->data = NULL;
    m->owned = false;
}
