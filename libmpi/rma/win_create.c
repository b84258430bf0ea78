/*
 * win_create.c: making and freeing windows (MPI_Win_create, _allocate,
 * _allocate_shared, _create_dynamic, MPI_Win_free), the memory of dynamic
 * windows (MPI_Win_attach/detach), MPI_Win_shared_query and
 * MPI_Win_get_group.
 */
#include "runtime/api.h"
#include "rma/win.h"
#include "ft/ft.h"

#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/comm_create.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "pt2pt/progress.h"
#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/proc.h"
#include "params.h"
#include "safefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct tide_win *tide_rma_windows;

static bool all_on_this_node(struct tide_comm *c);
static void make_direct(struct tide_win *w, void *map, size_t len, MPI_Aint *offs);
static int shared_window(struct tide_comm *c, int flavor, MPI_Aint size, int disp_unit, MPI_Info info, bool contig,
                         void *baseptr, MPI_Win *win, const char *fn);
static int map_shared(struct tide_comm *c, MPI_Aint size, bool contig, void **base_out, void **map_out,
                      size_t *len_out, MPI_Aint **offs_out, const char *fn);

struct tide_win *tide_win_get(MPI_Win h)
{
    if (h == MPI_WIN_NULL)
        return NULL;
    struct tide_win *w = tide_handle_get(TIDE_KIND_WIN, h);
    return w && !w->freeing ? w : NULL;
}

static int check_comm(MPI_Comm comm, struct tide_comm **out, const char *fn)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: windows are made on intracommunicators, not an intercommunicator (argument comm)", fn);
    *out = c;
    return MPI_SUCCESS;
}

void tide_win_destroy(struct tide_win *w)
{
    if (!w)
        return;
    if (w->handle != MPI_WIN_NULL)
        tide_handle_release(w->handle);
    struct tide_win **pp = &tide_rma_windows;
    while (*pp && *pp != w)
        pp = &(*pp)->next;
    if (*pp)
        *pp = w->next;
    tide_rma_target_stop(w);
    if (w->comm)
        tide_comm_release(w->comm);
    if (w->group)
        tide_group_release(w->group);
    if (w->shm_base)
        munmap(w->shm_base, w->shm_len);
    free(w->alloc);
    free(w->sizes);
    free(w->disp_units);
    free(w->shm_offsets);
    free(w->peer_base);
    free(w->regions);
    free(w->peers);
    free(w->accesses);
    free(w->fence_sent);
    free(w->start_ranks);
    free(w->post_ranks);
    if (w->errhandler != MPI_ERRHANDLER_NULL)
        tide_errhandler_release(w->errhandler);
    if (w->info != MPI_INFO_NULL)
        tide_info_free_internal(&w->info);
    free(w);
}

/* The window's own communicator over c's group: on an endpoints
 * communicator, one of endpoints, each rank with a context of its own. */
static int window_channel(struct tide_comm *c, struct tide_comm **wc)
{
    return c->ep ? tide_ep_split(c, 0, 0, wc) : tide_comm_dup_plain(c, true, wc);
}

struct win_desc {
    int64_t size;
    int32_t disp_unit;
    int32_t ok;
};

int tide_win_setup(struct tide_comm *c, int flavor, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   struct tide_win **out, const char *fn)
{
    *out = NULL;
    struct tide_win *w = calloc(1, sizeof *w);
    if (w)
        tide_rma_check_init(w);
    bool ok = w != NULL;
    struct tide_comm *wc = NULL;
    /* the window's own channel: every process takes part even if it
     * could not allocate, so that none is left waiting */
    int rc = window_channel(c, &wc);
    if (rc != MPI_SUCCESS) {
        free(w);
        return rc;
    }
    int n = c->size;
    if (ok) {
        w->refcount = 1;
        w->flavor = flavor;
        w->comm = wc;
        w->group = c->group;
        tide_group_retain(w->group);
        w->rank = c->rank;
        w->size = n;
        w->base = base;
        w->win_size = size;
        w->disp_unit = disp_unit;
        w->errhandler = MPI_ERRORS_ARE_FATAL;
        tide_errhandler_retain(MPI_ERRORS_ARE_FATAL);
        w->info = MPI_INFO_NULL;
        w->lock_excl = -1;
        w->sizes = calloc((size_t)n, sizeof *w->sizes);
        w->disp_units = calloc((size_t)n, sizeof *w->disp_units);
        w->peers = calloc((size_t)n, sizeof *w->peers);
        w->fence_sent = calloc((size_t)n, sizeof *w->fence_sent);
        w->handle = MPI_WIN_NULL;
        snprintf(w->name, sizeof w->name, "%s", "");
        ok = w->sizes && w->disp_units && w->peers && w->fence_sent &&
             tide_win_info_take(w, info) == MPI_SUCCESS && tide_rma_target_start(w) == MPI_SUCCESS;
    } else {
        tide_comm_release(wc);
    }
    struct win_desc mine = {.size = size, .disp_unit = disp_unit, .ok = ok}, *all = calloc((size_t)n, sizeof *all);
    rc = tide_exchange_allgather(wc, &mine, sizeof mine, all ? all : &mine);
    if (rc == MPI_SUCCESS && !all)
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        if (!all[i].ok)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: rank %d of the communicator could not make its part of the window", fn, i);
        else if (w) {
            w->sizes[i] = (MPI_Aint)all[i].size;
            w->disp_units[i] = all[i].disp_unit;
        }
    }
    free(all);
    if (rc != MPI_SUCCESS) {
        if (w)
            tide_win_destroy(w);
        return rc;
    }
    w->handle = tide_handle_alloc(TIDE_KIND_WIN, w);
    w->next = tide_rma_windows;
    tide_rma_windows = w;
    tide_progress_register(tide_rma_progress);
    tide_rma_thread_start();
    *out = w;
    return MPI_SUCCESS;
}

/* The arguments every window constructor shares; baseptr is checked
 * when the constructor allocates (allocating is true). */
static int create_checks(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *win_out, bool allocating,
                         const void *baseptr, struct tide_comm **c, const char *fn)
{
    int rc = check_comm(comm, c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return TIDE_ERR_COMM(*c, MPI_ERR_SIZE, "%s: size %lld is negative (argument size)", fn, (long long)size);
    if (disp_unit <= 0)
        return TIDE_ERR_COMM(*c, MPI_ERR_DISP, "%s: disp_unit %d is not positive (argument disp_unit)", fn, disp_unit);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return TIDE_ERR_COMM(*c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!win_out)
        return TIDE_ERR_COMM(*c, MPI_ERR_ARG, "%s: win must not be NULL", fn);
    if (allocating && !baseptr)
        return TIDE_ERR_COMM(*c, MPI_ERR_ARG, "%s: baseptr must not be NULL", fn);
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_create";
    struct tide_comm *c;
    int rc = create_checks(size, disp_unit, info, comm, win, false, NULL, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!base && size > 0)
        return TIDE_ERR_COMM(c, MPI_ERR_BASE, "%s: base is NULL for a window of %lld bytes (argument base)", fn,
                             (long long)size);
    struct tide_win *w;
    rc = tide_win_setup(c, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, &w, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    *win = w->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_create)

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_allocate";
    struct tide_comm *c;
    int rc = create_checks(size, disp_unit, info, comm, win, true, baseptr, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* all on this node: the memory is one shared segment, and operations
     * are loads and stores (rma_shm=0 keeps it private) */
    uint64_t local = c->size > 1 && tide_config_int("rma_shm") != 0 && all_on_this_node(c) ? 1 : 0;
    rc = tide_exchange_allreduce_and(c, &local, 1);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    if (local) {
        rc = shared_window(c, MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit, info, false, baseptr, win, fn);
        if (rc == MPI_SUCCESS)
            return MPI_SUCCESS;
        /* no segment: private memory, operations as messages */
    }
    void *mem = NULL;
    if (size > 0 && posix_memalign(&mem, 64, (size_t)size) != 0)
        mem = NULL;
    /* a process that cannot allocate still takes part (setup fails on all) */
    struct tide_win *w = NULL;
    if (size > 0 && !mem) {
        struct tide_comm *wc;
        rc = window_channel(c, &wc);
        if (rc == MPI_SUCCESS) {
            struct win_desc mine = {0}, *all = calloc((size_t)c->size, sizeof *all);
            tide_exchange_allgather(wc, &mine, sizeof mine, all ? all : &mine);
            free(all);
            tide_comm_release(wc);
        }
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: cannot allocate %lld bytes", fn, (long long)size);
    }
    rc = tide_win_setup(c, MPI_WIN_FLAVOR_ALLOCATE, mem, size, disp_unit, info, &w, fn);
    if (rc != MPI_SUCCESS) {
        free(mem);
        return tide_raise_comm(c, rc);
    }
    w->alloc = mem;
    *(void **)baseptr = mem;
    *win = w->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_allocate)

/* ---- shared memory windows ---- */

static atomic_uint shm_names;

/* Are all the processes of c on this node? */
static bool all_on_this_node(struct tide_comm *c)
{
    for (int i = 0; i < c->size; i++)
        if (!c->group->procs[i]->local)
            return false;
    return true;
}

/* rank 0 makes the segment (a file in the session directory, pages taken
 * now), everyone maps it: the control lines, then each rank's part right
 * after the previous one's (contig) or on the next 64-byte boundary */
static int map_shared(struct tide_comm *c, MPI_Aint size, bool contig, void **base_out, void **map_out,
                      size_t *len_out, MPI_Aint **offs_out, const char *fn)
{
    int n = c->size;
    int64_t mine = size, *sizes = calloc((size_t)n, sizeof *sizes);
    MPI_Aint *offs = calloc((size_t)n + 1, sizeof *offs);
    if (!sizes || !offs) {
        free(sizes);
        free(offs);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int rc = tide_exchange_allgather(c, &mine, sizeof mine, sizes);
    /* the control lines (locks) first, then each rank's part */
    size_t total = TIDE_RMA_CTL_BYTES(n);
    for (int i = 0; i < n; i++) {
        offs[i] = (MPI_Aint)total;
        total += contig ? (size_t)sizes[i] : ((size_t)sizes[i] + 63) & ~(size_t)63;
    }
    offs[n] = (MPI_Aint)total;
    size_t len = total ? total : 64;
    char path[512];
    path[0] = '\0';
    if (n == 1) {
        /* one process (a singleton's MPI_COMM_SELF, say): memory of its
         * own, no file, no session directory needed */
        void *map = rc == MPI_SUCCESS ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
                                      : MAP_FAILED;
        free(sizes);
        if (rc == MPI_SUCCESS && map == MAP_FAILED)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: cannot map %zu bytes of shared memory: %s", fn, len, strerror(errno));
        if (rc != MPI_SUCCESS) {
            free(offs);
            return rc;
        }
        *map_out = map;
        *len_out = len;
        *base_out = size > 0 ? (char *)map + offs[0] : NULL;
        *offs_out = offs;
        return MPI_SUCCESS;
    }
    int make_errno = 0;
    if (rc == MPI_SUCCESS && c->rank == 0 && tide.session_dir[0]) {
        int w = snprintf(path, sizeof path, "%s/win-%d-%u", tide.session_dir, (int)getpid(),
                         atomic_fetch_add(&shm_names, 1));
        int fd = w > 0 && (size_t)w < sizeof path ? tide_safe_create(path, O_RDWR, 0600) : -1;
        int fe = fd >= 0 ? posix_fallocate(fd, 0, (off_t)len) : 0;
        if (fd < 0 || fe != 0) {
            make_errno = fd < 0 ? errno : fe;
            if (fd >= 0) {
                close(fd);
                tide_safe_unlink(path);
            }
            path[0] = '\0';
        } else {
            close(fd);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = tide_exchange_bcast(c, path, sizeof path, 0);
    path[sizeof path - 1] = '\0';
    void *map = MAP_FAILED;
    if (rc == MPI_SUCCESS && path[0]) {
        /* a regular file of ours in a private directory, as long as the window */
        int fd = tide_safe_open(path, O_RDWR);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size >= len)
            map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
    }
    uint64_t ok = map != MAP_FAILED ? 1 : 0;
    if (rc == MPI_SUCCESS)
        rc = tide_exchange_allreduce_and(c, &ok, 1);
    if (c->rank == 0 && path[0])
        tide_safe_unlink(path);
    free(sizes);
    if (rc == MPI_SUCCESS && !ok)
        rc = !tide.session_dir[0]
                 ? tide_err(MPI_ERR_NO_MEM, "%s: no directory for shared memory on this node (the processes of comm "
                                            "share none)", fn)
             : make_errno
                 ? tide_err(MPI_ERR_NO_MEM, "%s: cannot make the shared segment of %zu bytes in %s: %s", fn, len,
                            tide.session_dir, strerror(make_errno))
                 : tide_err(MPI_ERR_NO_MEM, "%s: cannot map the shared segment of %zu bytes from %s", fn, len,
                            tide.session_dir);
    if (rc != MPI_SUCCESS) {
        if (map != MAP_FAILED)
            munmap(map, len);
        free(offs);
        return rc;
    }
    *map_out = map;
    *len_out = len;
    *base_out = size > 0 ? (char *)map + offs[c->rank] : NULL;
    *offs_out = offs;
    return MPI_SUCCESS;
}

/* Make w direct over the mapping map (each rank's part at offs[r]). */
static void make_direct(struct tide_win *w, void *map, size_t len, MPI_Aint *offs)
{
    w->shm_base = map;
    w->shm_len = len;
    w->shm_offsets = offs;
    w->peer_base = calloc((size_t)w->size, sizeof *w->peer_base);
    if (!w->peer_base)
        return; /* operations then go as messages */
    for (int r = 0; r < w->size; r++)
        w->peer_base[r] = (unsigned char *)map + offs[r];
    w->ctl = map;
    w->direct = true;
}

/* A window over one shared segment (collective over c); an error code,
 * not raised, if the segment or the window could not be made. */
static int shared_window(struct tide_comm *c, int flavor, MPI_Aint size, int disp_unit, MPI_Info info, bool contig,
                         void *baseptr, MPI_Win *win, const char *fn)
{
    void *base = NULL, *map = NULL;
    size_t len = 0;
    MPI_Aint *offs = NULL;
    int rc = map_shared(c, size, contig, &base, &map, &len, &offs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct tide_win *w;
    rc = tide_win_setup(c, flavor, base, size, disp_unit, info, &w, fn);
    if (rc != MPI_SUCCESS) {
        munmap(map, len);
        free(offs);
        return rc;
    }
    make_direct(w, map, len, offs);
    *(void **)baseptr = base;
    *win = w->handle;
    return MPI_SUCCESS;
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_allocate_shared";
    struct tide_comm *c;
    int rc = create_checks(size, disp_unit, info, comm, win, true, baseptr, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t local = all_on_this_node(c) ? 1 : 0;
    rc = tide_exchange_allreduce_and(c, &local, 1);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    if (!local)
        return TIDE_ERR_COMM(c, MPI_ERR_RMA_SHARED,
                             "%s: the processes of the communicator are not all on one node (split it with "
                             "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) first)", fn);
    /* contiguous (each part right after the previous one) unless the
     * hint alloc_shared_noncontig lets each start on a 64-byte boundary */
    bool noncontig = tide_info_lookup_bool(tide_info_get(info), "alloc_shared_noncontig", false);
    rc = shared_window(c, MPI_WIN_FLAVOR_SHARED, size, disp_unit, info, !noncontig, baseptr, win, fn);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise_comm(c, rc);
}
TIDE_ALIAS(MPI_Win_allocate_shared)

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_shared_query";
    WIN_OR_FAIL(fn, win, w);
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_FLAVOR, "%s: the window was not made by MPI_Win_allocate_shared", fn);
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        return TIDE_ERR_WIN(w, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the window has %d ranks)", fn, rank,
                            w->size);
    if (!size || !disp_unit || !baseptr)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "%s: size, disp_unit and baseptr must not be NULL", fn);
    int r = rank;
    if (rank == MPI_PROC_NULL) {
        /* the lowest rank with memory */
        r = 0;
        while (r < w->size && w->sizes[r] == 0)
            r++;
        if (r == w->size) {
            *size = 0;
            *disp_unit = w->disp_units[0];
            *(void **)baseptr = NULL;
            return MPI_SUCCESS;
        }
    }
    *size = w->sizes[r];
    *disp_unit = w->disp_units[r];
    *(void **)baseptr = w->sizes[r] > 0 ? (char *)w->shm_base + w->shm_offsets[r] : NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_shared_query)

/* ---- dynamic windows ---- */

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_create_dynamic";
    struct tide_comm *c;
    int rc = create_checks(0, 1, info, comm, win, false, NULL, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct tide_win *w;
    rc = tide_win_setup(c, MPI_WIN_FLAVOR_DYNAMIC, MPI_BOTTOM, 0, 1, info, &w, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    *win = w->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_create_dynamic)

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_attach";
    WIN_OR_FAIL(fn, win, w);
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_FLAVOR, "%s: the window was not made by MPI_Win_create_dynamic", fn);
    if (size < 0)
        return TIDE_ERR_WIN(w, MPI_ERR_SIZE, "%s: size %lld is negative (argument size)", fn, (long long)size);
    if (!base && size > 0)
        return TIDE_ERR_WIN(w, MPI_ERR_BASE, "%s: base is NULL (argument base)", fn);
    uintptr_t b = (uintptr_t)base;
    for (int i = 0; i < w->nregions; i++) {
        const struct tide_rma_region *g = &w->regions[i];
        if (size > 0 && g->size > 0 && b < g->base + g->size && g->base < b + (size_t)size)
            return TIDE_ERR_WIN(w, MPI_ERR_RMA_ATTACH,
                                "%s: the memory overlaps memory already attached to the window (at %p, %zu bytes)", fn,
                                (void *)g->base, g->size);
    }
    if (w->nregions == w->cap_regions) {
        int cap = w->cap_regions ? 2 * w->cap_regions : 8;
        struct tide_rma_region *r = realloc(w->regions, (size_t)cap * sizeof *r);
        if (!r)
            return TIDE_ERR_WIN(w, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        w->regions = r;
        w->cap_regions = cap;
    }
    w->regions[w->nregions++] = (struct tide_rma_region){.base = b, .size = (size_t)size};
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_attach)

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_detach";
    WIN_OR_FAIL(fn, win, w);
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_FLAVOR, "%s: the window was not made by MPI_Win_create_dynamic", fn);
    for (int i = 0; i < w->nregions; i++) {
        if (w->regions[i].base == (uintptr_t)base) {
            w->regions[i] = w->regions[--w->nregions];
            return MPI_SUCCESS;
        }
    }
    return TIDE_ERR_WIN(w, MPI_ERR_RMA_ATTACH, "%s: no memory attached to the window starts at %p (argument base)", fn,
                        base);
}
TIDE_ALIAS(MPI_Win_detach)

/* ---- freeing ---- */

int PMPI_Win_free(MPI_Win *win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_free";
    if (!win)
        return TIDE_ERR(MPI_ERR_ARG, "%s: win must not be NULL", fn);
    struct tide_win *w = tide_win_get(*win);
    if (!w)
        return TIDE_ERR(MPI_ERR_WIN, "%s: invalid window%s (argument win)", fn,
                        *win == MPI_WIN_NULL ? " MPI_WIN_NULL" : "");
    if (w->locks_held || w->lock_all || w->start_group || w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: an epoch is still open on the window (%s)", fn,
                            w->lock_all ? "MPI_Win_lock_all without MPI_Win_unlock_all"
                            : w->locks_held ? "MPI_Win_lock without MPI_Win_unlock"
                            : w->start_group ? "MPI_Win_start without MPI_Win_complete"
                                             : "MPI_Win_post without MPI_Win_wait");
    for (int i = 0; i < w->size; i++)
        if (w->fence_sent[i])
            return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC,
                                "%s: operations of the last fence epoch were not completed by MPI_Win_fence", fn);
    int rc = tide_rma_wait_local(w, -1);
    /* every process is done with the window before any stops serving it
     * (in recovery mode by a barrier failures cannot hang: ft/ft.h) */
    int brc = tide_ft_recovery() ? tide_ft_barrier(w->comm) : tide_exchange_barrier(w->comm);
    if (rc == MPI_SUCCESS)
        rc = brc;
    int arc = tide_attr_delete_all(TIDE_ATTR_WIN, w->handle, &w->attrs);
    if (rc == MPI_SUCCESS)
        rc = arc;
    /* the window's error handler (a process may have failed: ft/ft.h) */
    if (rc != MPI_SUCCESS)
        rc = tide_raise_win(w, rc);
    w->freeing = true;
    tide_win_destroy(w);
    *win = MPI_WIN_NULL;
    return rc;
}
TIDE_ALIAS(MPI_Win_free)

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_get_group", win, w);
    if (!group)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_get_group: group must not be NULL");
    struct tide_group *g = tide_group_new_ep(w->group->size, w->group->procs, w->group->ep, w->rank);
    if (!g)
        return TIDE_ERR_WIN(w, MPI_ERR_NO_MEM, "MPI_Win_get_group: out of memory");
    *group = tide_group_handle(g);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_get_group)
