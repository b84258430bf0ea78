/*
 * shm_region.c: the shared region of a one-node communicator
 * (shm_region.h): setting it up on first use, the rounds, waiting.
 *
 * Set-up is collective and happens inside the first blocking collective
 * that chooses the region: rank 0 creates a file in the job's private
 * directory and sends its name to the others (the communicator's
 * internal exchange), every rank maps it, and all agree (a bitwise AND
 * of one bit each) that every rank has it and can wake every other. The
 * file is removed as soon as they agree, so nothing is left behind
 * whatever happens later. If any rank could not, none uses a region on
 * that communicator. Whether the ranks can also read each other's memory
 * (shm_get.c) is agreed the same way, in the first call that asks: each
 * reads a known word of every other's, at an address it put in the
 * region.
 *
 * A waiting rank runs the progress engine (other traffic, nonblocking
 * collectives in flight) and, like any wait, may fall asleep on its
 * transport's doorbell; a rank publishing a round issues a full barrier
 * and then rings the doorbells of the ranks asleep.
 *
 * A round orders point-to-point traffic much as a collective over
 * messages would: a rank publishes only once its messages to the other
 * ranks have all left (none queued behind a full ring), and a rank that
 * has seen every counter runs a few passes of delivery before it
 * returns. So what a rank sent just before the call (a rendezvous's
 * completion notice freeing a buffered send's space, say) has arrived
 * when the others leave it; the passes stop early, so that a rank which
 * has left the call and streams messages already does not hold the
 * others in it.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll_args.h"
#include "coll/shm_region.h"
#include "comm/group.h"
#include "params.h"
#include "safefs.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "transport/transport.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define REGION_MAGIC 0x4e4f494745524454ull /* "TDREGION" */
#define CTL_STRIDE 64

struct region_header {
    uint64_t magic;
    uint32_t n;
    uint32_t slot;
};

struct tide_coll_region {
    uint8_t *base;
    size_t len;
    int n, me;
    int get_state;      /* reads of the others' memory: 0 not tried, 1 agreed, -1 not */
    uint64_t seq;       /* the last round this rank began */
    uint64_t all_at;    /* every counter was seen at least this high */
    size_t slot;        /* bytes of a slot */
    uint8_t *data;      /* [2][n][slot] */
    struct tide_proc **procs;
    uint32_t ctx;       /* the communicator's collective context */
    struct tide_comm *comm;
    bool broken;        /* a wait ended because the context was revoked */
};

static _Atomic unsigned region_names;

static size_t data_offset(int n)
{
    size_t ctl_end = CTL_STRIDE + (size_t)n * CTL_STRIDE;
    return (ctl_end + 4095) & ~(size_t)4095;
}

size_t tide_region_slot_bytes(int n)
{
    /* at most 512 KiB of slots up to 32 ranks, never under 8 KiB a slot */
    return n <= 2 ? 32768 : n <= 4 ? 65536 : n <= 8 ? 32768 : n <= 16 ? 16384 : 8192;
}

static size_t region_len(int n)
{
    return data_offset(n) + 2 * (size_t)n * tide_region_slot_bytes(n);
}

static _Atomic uint64_t *ctl(const struct tide_coll_region *r, int i)
{
    return (_Atomic uint64_t *)(r->base + CTL_STRIDE + (size_t)i * CTL_STRIDE);
}

/* Next to rank i's counter: the address of a word in its memory that
 * holds PROBE_VALUE, which the others read to learn whether they can
 * read its memory at all. */
#define PROBE_VALUE 0x45424f5250444954ull /* "TDPROBE" */
static const volatile uint64_t probe_word = PROBE_VALUE;

static uint64_t *probe_addr(const struct tide_coll_region *r, int i)
{
    return (uint64_t *)(r->base + CTL_STRIDE + (size_t)i * CTL_STRIDE + 8);
}

/* Next to that: the word rank i sends with its rounds
 * (tide_region_set_word). */
static volatile uint64_t *word_addr(const struct tide_coll_region *r, int i)
{
    return (volatile uint64_t *)(r->base + CTL_STRIDE + (size_t)i * CTL_STRIDE + 16);
}

void tide_region_set_word(struct tide_coll_region *r, uint64_t v)
{
    *word_addr(r, r->me) = v;
}

uint64_t tide_region_word(struct tide_coll_region *r, int i)
{
    return *word_addr(r, i);
}

bool tide_coll_region_possible(struct tide_comm *c)
{
    struct tide_coll_state *st = c->coll;
    return st && st->one_node && st->region_state >= 0 && !c->is_inter && c->size >= 2 &&
           c->size <= TIDE_REGION_MAX_RANKS && !tide_coll_checking();
}

/* rank 0: the file, zero-filled; path[0] = 0 if it could not */
static void create_file(char *path, size_t len, int n)
{
    path[0] = '\0';
    if (!tide.session_dir[0] || tide_config_int("coll_shm") == 0)
        return;
    char p[512];
    int w = snprintf(p, sizeof p, "%s/coll-%d-%u", tide.session_dir, (int)getpid(),
                     atomic_fetch_add(&region_names, 1));
    if (w < 0 || (size_t)w >= sizeof p || (size_t)w >= len)
        return;
    int fd = tide_safe_create(p, O_RDWR, 0600); /* exclusive, in a private directory */
    if (fd < 0)
        return;
    /* the pages are taken now, so that a full file system refuses the
     * region here instead of faulting a rank writing to it later */
    if (posix_fallocate(fd, 0, (off_t)region_len(n)) != 0) {
        close(fd);
        tide_safe_unlink(p);
        return;
    }
    struct region_header h = {.magic = REGION_MAGIC, .n = (uint32_t)n, .slot = (uint32_t)tide_region_slot_bytes(n)};
    if (pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        close(fd);
        tide_safe_unlink(p);
        return;
    }
    close(fd);
    memcpy(path, p, (size_t)w + 1);
}

/* Regions this process maps now (capped by coll_shm_regions). */
static int live_regions;

static struct tide_coll_region *map_file(const char *path, struct tide_comm *c)
{
    int n = c->size;
    int fd = tide_safe_open(path, O_RDWR); /* a regular file of ours, not a symlink */
    if (fd < 0)
        return NULL;
    struct stat sb;
    size_t len = region_len(n);
    if (fstat(fd, &sb) != 0 || (size_t)sb.st_size != len) {
        close(fd);
        return NULL;
    }
    uint8_t *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
        return NULL;
    const struct region_header *h = (const struct region_header *)base;
    struct tide_coll_region *r = calloc(1, sizeof *r);
    if (!r || h->magic != REGION_MAGIC || h->n != (uint32_t)n || h->slot != tide_region_slot_bytes(n)) {
        free(r);
        munmap(base, len);
        return NULL;
    }
    live_regions++;
    r->base = base;
    r->len = len;
    r->n = n;
    r->me = c->rank;
    r->data = base + data_offset(n);
    r->slot = tide_region_slot_bytes(n);
    r->procs = c->group->procs;
    r->ctx = c->context_id + 1;
    r->comm = c;
    *probe_addr(r, r->me) = (uint64_t)(uintptr_t)&probe_word; /* seen by all after the agreement */
    return r;
}

/* Can this process wake every other rank of c? */
static bool can_wake_all(struct tide_comm *c)
{
    tide_cards_prefetch(c->group->procs, c->size); /* one wait for all, not one each */
    for (int i = 0; i < c->size; i++)
        if (i != c->rank && !tide_transport_can_wake(c->group->procs[i]))
            return false;
    return true;
}

static void setup(struct tide_comm *c, struct tide_coll_state *st)
{
    char path[512];
    path[0] = '\0';
    if (c->rank == 0 && live_regions < tide_config_int("coll_shm_regions"))
        create_file(path, sizeof path, c->size);
    struct tide_coll_region *r = NULL;
    int rc = tide_exchange_bcast(c, path, sizeof path, 0);
    path[sizeof path - 1] = '\0';
    /* a process in many communicators keeps only so many regions */
    if (rc == MPI_SUCCESS && path[0] && live_regions < tide_config_int("coll_shm_regions"))
        r = map_file(path, c);
    uint64_t ok = r && can_wake_all(c) ? 1 : 0;
    rc = tide_exchange_allreduce_and(c, &ok, 1);
    if (c->rank == 0 && path[0])
        tide_safe_unlink(path);
    if (rc != MPI_SUCCESS || !ok) {
        tide_coll_region_free(r);
        st->region_state = -1;
        st->version++;
        return;
    }
    st->region = r;
    st->region_state = 1;
}

struct tide_coll_region *tide_coll_region_get(struct tide_comm *c)
{
    struct tide_coll_state *st = c->coll;
    if (!st || st->region_state < 0)
        return NULL;
    if (st->region_state == 0)
        setup(c, st);
    return st->region;
}

int tide_region_read(struct tide_coll_region *r, int i, void *dst, uint64_t remote, size_t n)
{
    struct iovec rm = {.iov_base = (void *)(uintptr_t)remote, .iov_len = n};
    return tide_protocol_get_span(r->procs[i], &rm, 1, 0, n, dst);
}

/* Can this process read the memory of every other rank (its transport
 * has a single-copy get, and reading the probe word works)? */
static bool can_read_all(struct tide_coll_region *r)
{
    for (int i = 0; i < r->n; i++) {
        if (i == r->me)
            continue;
        struct tide_proc *p = r->procs[i];
        struct tide_transport *tx = tide_transport_for(p);
        uint64_t v = 0;
        if (!tx || !tx->can_get || p->no_get || tide_region_read(r, i, &v, *probe_addr(r, i), sizeof v) != 0 ||
            v != PROBE_VALUE)
            return false;
    }
    return true;
}

struct tide_coll_region *tide_coll_region_get_readable(struct tide_comm *c)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r || r->get_state < 0)
        return NULL;
    if (r->get_state == 0) {
        uint64_t ok = can_read_all(r) ? 1 : 0;
        if (tide_exchange_allreduce_and(c, &ok, 1) != MPI_SUCCESS)
            ok = 0;
        r->get_state = ok ? 1 : -1;
        if (!ok)
            c->coll->version++;
        if (!ok && tide.tuning.verbose >= 2 && c->rank == 0)
            fprintf(stderr, "tide: the ranks of a communicator cannot all read each other's memory: its "
                            "collectives move data by messages\n");
    }
    return r->get_state > 0 ? r : NULL;
}

bool tide_coll_region_readable_possible(struct tide_comm *c)
{
    struct tide_coll_state *st = c->coll;
    return tide_coll_region_possible(c) && !(st->region && st->region->get_state < 0);
}

void tide_coll_region_free(struct tide_coll_region *r)
{
    if (!r)
        return;
    live_regions--;
    munmap(r->base, r->len);
    free(r);
}

void *tide_region_slot(struct tide_coll_region *r, uint64_t s, int i)
{
    return r->data + ((size_t)(s & 1) * (size_t)r->n + (size_t)i) * r->slot;
}

size_t tide_region_round_bytes(int n)
{
    return (size_t)n * tide_region_slot_bytes(n);
}

/* ---- waiting ---- */

/* Ranks [next, end) are awaited at round s. */
struct waiter {
    struct tide_coll_region *r;
    uint64_t s;
    int next, end; /* ranks below next are known to be at s */
};

static bool reached(void *arg)
{
    struct waiter *w = arg;
    if (w->r->broken)
        return true;
    /* a rank that will never publish (coll/coll_notice.h): the round is
     * abandoned, and so is the region */
    if (__builtin_expect(tide_comm_faults != 0, 0) && tide_ctx_revoked(w->r->ctx) &&
        tide_coll_revoked(w->r->comm, w->r->comm->coll_calls - 1) != MPI_SUCCESS) {
        w->r->broken = true;
        return true;
    }
    while (w->next < w->end) {
        if (atomic_load_explicit(ctl(w->r, w->next), memory_order_acquire) < w->s)
            return false;
        w->next++;
    }
    return true;
}

/* Wait for ranks [from, to) at round s; then what they sent before they
 * published is in the rings: deliver it (a few passes: a rank that has
 * left the call may be sending more already, which can wait). */
static void wait_ranks(struct tide_coll_region *r, uint64_t s, int from, int to)
{
    struct waiter w = {.r = r, .s = s, .next = from, .end = to};
    if (!reached(&w))
        tide_progress_until(reached, &w);
    for (int k = 0; k < 4 && tide_progress() > 0; k++)
        ;
}

int tide_region_error(const struct tide_coll_region *r)
{
    return r->broken ? tide_coll_revoked(r->comm, r->comm->coll_calls - 1) : MPI_SUCCESS;
}

void tide_region_wait_all(struct tide_coll_region *r, uint64_t s)
{
    if (r->all_at >= s)
        return;
    wait_ranks(r, s, 0, r->n);
    if (!r->broken)
        r->all_at = s;
}

void tide_region_wait_one(struct tide_coll_region *r, uint64_t s, int i)
{
    if (r->all_at < s)
        wait_ranks(r, s, i, i + 1);
}

/* Has every message to the other ranks left? */
static bool output_gone(void *arg)
{
    struct tide_coll_region *r = arg;
    for (int i = 0; i < r->n; i++)
        if (tide_protocol_output_queued(r->procs[i]))
            return false;
    return true;
}

uint64_t tide_region_begin(struct tide_coll_region *r)
{
    uint64_t s = ++r->seq;
    /* buffer s % 2 was last read in round s - 2 */
    if (s >= 2)
        tide_region_wait_all(r, s - 1);
    return s;
}

void tide_region_publish(struct tide_coll_region *r, uint64_t s)
{
    if (!output_gone(r))
        tide_progress_until(output_gone, r);
    atomic_store_explicit(ctl(r, r->me), s, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    for (int i = 0; i < r->n; i++)
        if (i != r->me)
            tide_transport_wake(r->procs[i]);
}

void tide_region_barrier(struct tide_coll_region *r)
{
    uint64_t s = tide_region_begin(r);
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
}
