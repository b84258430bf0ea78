/*
 * file_info.c: MPI-IO hints (MPI-2.2 13.2.8): the defaults, the reserved
 * keys Tide interprets (cb_nodes, cb_buffer_size, collective_buffering,
 * striping_unit, striping_factor, ind_rd_buffer_size, ind_wr_buffer_size,
 * cb_config_list) and the romio_* switches codes commonly set
 * (romio_cb_read/write, romio_ds_read/write: enable, disable,
 * automatic), MPI_File_set_info and MPI_File_get_info, which reports
 * every hint in force.
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "io/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void tide_io_hints_default(struct tide_io_hints *h, int nprocs)
{
    memset(h, 0, sizeof *h);
    h->cb_nodes = nprocs < 4 ? nprocs : 4;
    h->cb_buffer_size = 16u << 20;
    h->cb_read = h->cb_write = TIDE_IO_AUTOMATIC;
    h->ind_rd_buffer_size = 4u << 20;
    h->ind_wr_buffer_size = 512u << 10;
    h->ds_read = h->ds_write = TIDE_IO_AUTOMATIC;
}

static int switch_value(const char *v, int dflt)
{
    if (!v)
        return dflt;
    if (!strcasecmp(v, "enable") || !strcasecmp(v, "true"))
        return TIDE_IO_ENABLE;
    if (!strcasecmp(v, "disable") || !strcasecmp(v, "false"))
        return TIDE_IO_DISABLE;
    if (!strcasecmp(v, "automatic"))
        return TIDE_IO_AUTOMATIC;
    return dflt;
}

/* a positive size; values that are not one are ignored, as hints may be */
static void size_value(const struct tide_info *info, const char *key, size_t *out)
{
    const char *v = tide_info_lookup(info, key);
    if (!v)
        return;
    char *end;
    long long n = strtoll(v, &end, 10);
    if (end != v && *end == '\0' && n > 0)
        *out = (size_t)n;
}

void tide_io_hints_apply(struct tide_io_hints *h, int nprocs, MPI_Info handle)
{
    const struct tide_info *info = tide_info_get(handle);
    if (!info)
        return;
    size_t n = 0;
    size_value(info, "cb_nodes", &n);
    if (n > 0)
        h->cb_nodes = n > (size_t)nprocs ? nprocs : (int)n;
    size_value(info, "cb_buffer_size", &h->cb_buffer_size);
    size_value(info, "ind_rd_buffer_size", &h->ind_rd_buffer_size);
    size_value(info, "ind_wr_buffer_size", &h->ind_wr_buffer_size);
    size_value(info, "striping_unit", &h->striping_unit);
    n = 0;
    size_value(info, "striping_factor", &n);
    if (n > 0 && n < 65536)
        h->striping_factor = (int)n;
    const char *cb = tide_info_lookup(info, "collective_buffering");
    if (cb)
        h->cb_read = h->cb_write = switch_value(cb, h->cb_write);
    h->cb_read = switch_value(tide_info_lookup(info, "romio_cb_read"), h->cb_read);
    h->cb_write = switch_value(tide_info_lookup(info, "romio_cb_write"), h->cb_write);
    h->ds_read = switch_value(tide_info_lookup(info, "romio_ds_read"), h->ds_read);
    h->ds_write = switch_value(tide_info_lookup(info, "romio_ds_write"), h->ds_write);
    const char *cfg = tide_info_lookup(info, "cb_config_list");
    if (cfg) {
        char *c = strdup(cfg);
        if (c) {
            free(h->cb_config_list);
            h->cb_config_list = c;
        }
    }
}

/* keep the user's keys on the file's own info object */
int tide_io_keep_info(struct tide_file *f, MPI_Info handle)
{
    const struct tide_info *src = tide_info_get(handle);
    if (!src)
        return MPI_SUCCESS;
    if (f->info == MPI_INFO_NULL)
        return tide_info_dup_internal(src, &f->info);
    struct tide_info *dst = tide_info_get(f->info);
    for (int i = 0; i < src->nkeys; i++) {
        int rc = tide_info_set_internal(dst, tide_info_nth_key(src, i), tide_info_nth_value(src, i));
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

static const char *switch_name(int v)
{
    return v == TIDE_IO_ENABLE ? "enable" : v == TIDE_IO_DISABLE ? "disable" : "automatic";
}

int tide_io_hints_info(const struct tide_file *f, MPI_Info *out)
{
    int rc = tide_info_dup_internal(tide_info_get(f->info), out);
    if (rc)
        return rc;
    struct tide_info *info = tide_info_get(*out);
    const struct tide_io_hints *h = &f->hints;
    char v[64];
#define SET(key, ...)                                                                                     \
    do {                                                                                                  \
        snprintf(v, sizeof v, __VA_ARGS__);                                                               \
        if ((rc = tide_info_set_internal(info, key, v)) != MPI_SUCCESS)                                  \
            goto fail;                                                                                    \
    } while (0)
    SET("cb_nodes", "%d", h->cb_nodes);
    SET("cb_buffer_size", "%zu", h->cb_buffer_size);
    SET("romio_cb_read", "%s", switch_name(h->cb_read));
    SET("romio_cb_write", "%s", switch_name(h->cb_write));
    SET("ind_rd_buffer_size", "%zu", h->ind_rd_buffer_size);
    SET("ind_wr_buffer_size", "%zu", h->ind_wr_buffer_size);
    SET("romio_ds_read", "%s", switch_name(h->ds_read));
    SET("romio_ds_write", "%s", switch_name(h->ds_write));
    SET("striping_unit", "%zu", h->striping_unit);
    if (h->striping_factor > 0)
        SET("striping_factor", "%d", h->striping_factor);
    SET("cb_config_list", "%s", h->cb_config_list ? h->cb_config_list : "*:1");
#undef SET
    return MPI_SUCCESS;
fail:
    tide_info_free_internal(out);
    return rc;
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_set_info";
    FILE_OR_FAIL(fn, fh, f);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return TIDE_ERR_FILE(f, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    tide_io_hints_apply(&f->hints, f->size, info);
    int rc = tide_io_keep_info(f, info);
    if (rc)
        return TIDE_ERR_FILE(f, rc, "%s: cannot keep the hints", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_set_info)

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_info";
    FILE_OR_FAIL(fn, fh, f);
    if (!info_used)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: info_used must not be NULL", fn);
    int rc = tide_io_hints_info(f, info_used);
    if (rc)
        return TIDE_ERR_FILE(f, rc, "%s: cannot make the info object", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_info)
