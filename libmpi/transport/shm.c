/*
 * shm.c: the shared-memory transport between processes of one node.
 *
 * Each process owns a receive segment (a 0600 file in its job's private
 * directory, named in its business card). A sender maps the segment on
 * first use, claims one of its ring slots, and from then on writes
 * messages into that ring (shm_ring.h): lock-free, one producer, one
 * consumer. Because any local process can map any segment, processes of
 * different jobs (spawned or connected) talk the same way.
 *
 * Large messages are read by the receiver straight from the sender's
 * memory with process_vm_readv (one copy); where the kernel refuses that,
 * they go through the ring in chunks. A receiver that has waited long
 * enough sets a flag in its segment and sleeps on a datagram socket (its
 * doorbell); a sender that sees the flag rings it.
 *
 * Under MPI_THREAD_MULTIPLE, threads holding the library lock shared
 * (runtime/lock.h) send through shm_send_shared, under a lock per peer
 * ring, and deliver through shm_progress_shared, which takes an inbound
 * ring by its busy flag and hands over only what the fast path can take
 * (plain eager messages: tide_protocol_incoming_shared); it stops at the
 * first message that needs the exclusive lock, which stays in the ring.
 *
 * The flag is read without a barrier right after a message is published
 * (a barrier there would wait for the message's cache line to reach the
 * receiver, on every message). A receiver falling asleep just then can be
 * missed that way, so the peers written to since are checked again, after
 * one barrier, when this process next finds nothing to do and waits (or
 * every 64th poll, or before it sleeps itself); a sleep also ends by
 * itself after a short timeout. The doorbell also serves waits on memory
 * shared otherwise (the collectives' region): the writer rings it
 * through shm_wake after a barrier of its own.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "runtime/small_copy.h"
#include "runtime/spinlock.h"
#include "transport/card.h"
#include "transport/shm_ring.h"
#include "transport/tcp_auth.h"
#include "transport/transport.h"
#include "datatype/datatype.h"
#include "params.h"
#include "safefs.h"
#include "shmseg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/* The longest header of a ring entry (shm_send). */
#define SHM_HDR_MAX 64

extern struct tide_transport tide_shm_transport;

#define SEG_MAGIC 0x314d485345444954ull /* "TIDESHM1" */
#define SEG_VERSION 4 /* 3: producer-guarded rings (the consumer writes none), short eager headers;
                         * 4: a ring is cleared only when reused */
#define AREA_CTRL TIDE_SHM_AREA_CTRL
#define MAX_INBOUND 4096

struct seg_header {
    uint64_t magic;
    uint32_t version;
    uint32_t nslots;
    uint64_t ring_size;
    uint64_t area_size;
    int32_t owner_pid;
    _Alignas(64) _Atomic uint32_t generation; /* bumped when a ring becomes active */
    _Alignas(64) _Atomic int sleeping;        /* the owner sleeps on its doorbell */
};

#define SEG_AREAS_OFFSET TIDE_SHM_SEG_HEADER

struct shm_peer {
    struct shm_peer *next; /* every segment we have mapped */
    struct tide_proc *proc;
    uint8_t *base;
    size_t len;
    struct seg_header *hdr;
    struct tide_ring_prod prod;
    uint64_t *payload_cells; /* the producer's bitmap (shm_ring.h) */
    int slot;
    struct sockaddr_un bell;
    socklen_t bell_len;
    pid_t pid;
    bool dirty;                  /* written to since the last barrier-checked look at its flag */
    struct shm_peer *dirty_next;
    tide_spinlock send_lock;   /* the producer's, for holders of the shared library lock */
};

struct inbound {
    struct tide_ring_cons cons;
    struct tide_proc *from;
    int slot;
    int busy; /* a holder of the shared library lock is draining it */
};

/* the dirty list, for holders of the shared library lock */
static tide_spinlock dirty_lock = TIDE_SPINLOCK_INIT;

static struct shm_peer *peers;
static struct shm_peer *dirty_peers; /* list of the peers with dirty set */

static struct {
    uint8_t *base;
    size_t len;
    struct seg_header *hdr;
    char path[4200];
    int bell_fd;
    uint32_t seen_gen;
    struct inbound *in;
    int nin;
    bool *tracked;
    uid_t uid;                   /* doorbell datagrams from other uids are dropped */
    unsigned long bell_dropped;  /* how many were */
    bool cma_refused;            /* test_cma_refused: act as if the kernel refused CMA */
    bool cma_noted;
    uint64_t ring_size;
    uint32_t nslots;
    unsigned progress_calls;
} me = {.bell_fd = -1};

static uint8_t *area(uint8_t *base, const struct seg_header *h, int slot)
{
    return base + SEG_AREAS_OFFSET + (size_t)slot * h->area_size;
}

/* ---- the doorbell ----
 * An abstract datagram socket named from a fresh random value (nothing
 * secret: abstract names are listed in /proc/net/unix for every user to
 * see). Anyone may send to it, so it carries no data: a datagram only
 * ends a sleep, and datagrams from processes of other users are dropped
 * unread, their number shown at verbose level 1 when the rank ends. */

static int open_doorbell(char *name, size_t len)
{
    uint8_t rnd[8];
    tide_auth_random(rnd, sizeof rnd);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int on = 1;
    int n = snprintf(name, len, "tide-bell-%d-", (int)getpid());
    for (size_t i = 0; i < sizeof rnd && n > 0 && (size_t)n + 3 <= len; i++)
        n += snprintf(name + n, len - (size_t)n, "%02x", rnd[i]);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    size_t bl = strlen(name);
    memcpy(a.sun_path + 1, name, bl);
    if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0 ||
        bind(fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + bl)) != 0) {
        close(fd);
        return -1;
    }
    me.bell_fd = fd;
    me.uid = getuid();
    return 0;
}

/* Empty the doorbell. Datagrams of other users are counted as dropped. */
static void drain_doorbell(void)
{
    for (;;) {
        char buf[64];
        union {
            struct cmsghdr h;
            char space[CMSG_SPACE(sizeof(struct ucred))];
        } ctl;
        struct iovec iov = {.iov_base = buf, .iov_len = sizeof buf};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof ctl};
        if (recvmsg(me.bell_fd, &m, MSG_DONTWAIT) < 0)
            return;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        struct ucred cred = {0};
        bool ours = false;
        if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
            c->cmsg_len >= CMSG_LEN(sizeof cred)) {
            memcpy(&cred, CMSG_DATA(c), sizeof cred);
            ours = cred.uid == me.uid;
        }
        if (!ours && me.bell_dropped++ == 0 && tide.tuning.verbose >= 2)
            fprintf(stderr, "tide[%u]: doorbell: dropping datagrams from uid %d (not this job's user)\n",
                    tide.rank, c ? (int)cred.uid : -1);
    }
}

/* Who may read this process's memory with process_vm_readv (Yama's
 * ptrace_scope 1 allows only ancestors and a declared ptracer). With
 * debug_ptrace=1, any process of the user (debuggers attaching). Else
 * the rank's daemon, which lets the daemon's descendants in too: the
 * ranks it started on this node, of this job and of jobs spawned or
 * connected within the same mpiexec. Ranks started otherwise cannot read
 * each other: large messages then go through the rings (detected at
 * the first refused read). */
static void allow_peer_reads(void)
{
    if (tide_config_int("debug_ptrace") == 1) {
        prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
        return;
    }
    pid_t daemon = getppid();
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/%d/comm", (int)daemon);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = '\0';
        fclose(f);
    }
    if (strstr(comm, "tided"))
        prctl(PR_SET_PTRACER, (unsigned long)daemon, 0, 0, 0);
}

/* ---- our segment ---- */

int tide_shm_init(char *err, size_t errlen);
int tide_shm_init(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    if (!tide.session_dir[0])
        return -1; /* no private job directory (a singleton): no shared memory */
    /* when ranks outnumber cores a rendezvous costs a wait for the
     * receiver to be scheduled: longer eager messages, and rings to hold
     * several of them */
    /* the slots are capped (shmseg.h): a segment does not grow with the job */
    struct tide_shm_layout lay;
    tide_shm_layout(tide.local_size,
                    tide.oversubscribed ? tide.tuning.shm_ring_size_oversub : tide.tuning.shm_ring_size, &lay);
    uint64_t ring = lay.ring_size;
    me.ring_size = ring;
    me.nslots = lay.nslots;
    uint64_t area_size = lay.area_size;
    me.len = (size_t)lay.len;
    snprintf(me.path, sizeof me.path, "%s/shm-%u-%d", tide.session_dir, tide.rank, (int)getpid());
    /* exclusive, never through a symlink, in a private directory (safefs.h) */
    int fd = tide_safe_create(me.path, O_RDWR, 0600);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)me.len) != 0) {
        close(fd);
        tide_safe_unlink(me.path);
        return -1;
    }
    me.base = mmap(NULL, me.len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (me.base == MAP_FAILED) {
        me.base = NULL;
        tide_safe_unlink(me.path);
        return -1;
    }
    me.hdr = (struct seg_header *)me.base;
    me.hdr->version = SEG_VERSION;
    me.hdr->nslots = me.nslots;
    me.hdr->ring_size = ring;
    me.hdr->area_size = area_size;
    me.hdr->owner_pid = (int32_t)getpid();
    atomic_store(&me.hdr->generation, 0);
    atomic_store(&me.hdr->sleeping, 0);
    __atomic_store_n(&me.hdr->magic, SEG_MAGIC, __ATOMIC_RELEASE);
    me.in = calloc(me.nslots, sizeof *me.in);
    me.tracked = calloc(me.nslots, sizeof *me.tracked);
    if (!me.in || !me.tracked)
        return -1;
    char bell[108];

    if (open_doorbell(bell, sizeof bell) != 0)
        bell[0] = '\0';
    allow_peer_reads();
    tide_card_add("shm", me.path);
    if (bell[0])
        tide_card_add("bell", bell);
    tide_shm_transport.eager_limit =
        tide.oversubscribed ? tide.tuning.shm_eager_limit_oversub : tide.tuning.shm_eager_limit;
    tide_shm_transport.eager_limit_coll =
        tide.oversubscribed ? tide.tuning.shm_eager_limit_oversub : tide.tuning.shm_eager_limit_coll;
    size_t maxp = tide_ring_max_payload(ring) - SHM_HDR_MAX;
    if (tide_shm_transport.eager_limit > maxp)
        tide_shm_transport.eager_limit = maxp;
    if (tide_shm_transport.eager_limit_coll > maxp)
        tide_shm_transport.eager_limit_coll = maxp;
    size_t chunk = tide.tuning.shm_pipeline_chunk;
    tide_shm_transport.max_chunk = chunk > maxp ? maxp : chunk;
    tide_shm_transport.can_get = tide.tuning.shm_cma;
    me.cma_refused = tide_config_int("test_cma_refused") == 1;
    return 0;
}

/* ---- attaching to a peer's segment ---- */

static inline void ring_bell(struct shm_peer *peer)
{
    if (peer->bell_len && me.bell_fd >= 0) {
        char b = 1;
        sendto(me.bell_fd, &b, 1, MSG_DONTWAIT, (struct sockaddr *)&peer->bell, peer->bell_len);
    }
}



static struct shm_peer *attach(struct tide_proc *p, const struct tide_card *card)
{
    /* a peer's segment: a regular file of our user in a private directory
     * of ours, not a symlink (safefs.h), or none at all */
    int fd = tide_safe_open(card->shm_path, O_RDWR);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < SEG_AREAS_OFFSET + AREA_CTRL) {
        close(fd);
        return NULL;
    }
    uint8_t *base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
        return NULL;
    struct seg_header *h = (struct seg_header *)base;
    if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != SEG_MAGIC || h->version != SEG_VERSION ||
        SEG_AREAS_OFFSET + (uint64_t)h->nslots * h->area_size > (uint64_t)st.st_size ||
        h->area_size != AREA_CTRL + h->ring_size || (h->ring_size & (h->ring_size - 1))) {
        munmap(base, (size_t)st.st_size);
        return NULL;
    }
    struct shm_peer *peer = calloc(1, sizeof *peer);
    uint64_t *bitmap = calloc(tide_ring_bitmap_words(h->ring_size), sizeof *bitmap);
    if (!peer || !bitmap) {
        free(peer);
        free(bitmap);
        munmap(base, (size_t)st.st_size);
        return NULL;
    }
    peer->payload_cells = bitmap;
    peer->base = base;
    peer->len = (size_t)st.st_size;
    peer->hdr = h;
    peer->pid = card->pid;
    peer->slot = -1;
    for (uint32_t s = 0; s < h->nslots; s++) {
        struct tide_ring_ctrl *c = (struct tide_ring_ctrl *)area(base, h, (int)s);
        uint32_t expect = 0;
        if (atomic_compare_exchange_strong(&c->state, &expect, 1)) {
            peer->slot = (int)s;
            break;
        }
    }
    if (peer->slot < 0) { /* every slot taken: use another transport */
        munmap(base, peer->len);
        free(peer->payload_cells);
        free(peer);
        return NULL;
    }
    uint8_t *a = area(base, h, peer->slot);
    struct tide_ring_ctrl *c = (struct tide_ring_ctrl *)a;
    /* a new segment's rings are zero pages: clearing them would take
     * every page of every ring of every pair of ranks at once (64 ranks:
     * 2 GiB of shared memory and a second of page faults each) */
    if (c->used)
        memset(a + AREA_CTRL, 0, h->ring_size);
    c->used = 1;
    atomic_store(&c->head, 0);
    c->sender_pid = (int32_t)getpid();
    c->sender_rank = tide.rank;
    snprintf(c->sender_nspace, sizeof c->sender_nspace, "%s", tide.nspace);
    tide_ring_prod_init(&peer->prod, c, a + AREA_CTRL, h->ring_size, peer->payload_cells);
    atomic_store_explicit(&c->state, 2, memory_order_release);
    atomic_fetch_add(&h->generation, 1);
    if (card->bell[0]) {
        peer->bell.sun_family = AF_UNIX;
        size_t bl = strlen(card->bell);
        if (bl > sizeof peer->bell.sun_path - 2)
            bl = sizeof peer->bell.sun_path - 2;
        memcpy(peer->bell.sun_path + 1, card->bell, bl);
        peer->bell_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + bl);
    }
    peer->proc = p;
    peer->next = peers;
    peers = peer;
    return peer;
}

/* Stop sending to a peer: our ring in its segment is closed (it reuses the
 * slot once drained) and the mapping goes. */
/* After one barrier, ring the peers written to that have fallen asleep. */
static void wake_sleepers(void)
{
    if (!__atomic_load_n(&dirty_peers, __ATOMIC_RELAXED))
        return;
    tide_store_load_fence();
    for (struct shm_peer *p = dirty_peers, *next; p; p = next) {
        next = p->dirty_next;
        __atomic_store_n(&p->dirty, false, __ATOMIC_RELAXED); /* read by shm_send_shared */
        p->dirty_next = NULL;
        if (atomic_load_explicit(&p->hdr->sleeping, memory_order_relaxed))
            ring_bell(p);
    }
    __atomic_store_n(&dirty_peers, NULL, __ATOMIC_RELAXED);
}

/* The same for a holder of the shared lock. */
static void wake_sleepers_shared(void)
{
    if (!__atomic_load_n(&dirty_peers, __ATOMIC_RELAXED))
        return;
    tide_spin_lock(&dirty_lock);
    if (dirty_peers)
        wake_sleepers();
    tide_spin_unlock(&dirty_lock);
}

static void detach(struct shm_peer *peer)
{
    if (peer->dirty)
        for (struct shm_peer **pp = &dirty_peers; *pp; pp = &(*pp)->dirty_next)
            if (*pp == peer) {
                *pp = peer->dirty_next;
                break;
            }
    atomic_store_explicit(&peer->prod.ctrl->state, 3, memory_order_release);
    atomic_fetch_add(&peer->hdr->generation, 1);
    if (atomic_load(&peer->hdr->sleeping))
        ring_bell(peer);
    munmap(peer->base, peer->len);
    for (struct shm_peer **pp = &peers; *pp; pp = &(*pp)->next)
        if (*pp == peer) {
            *pp = peer->next;
            break;
        }
    if (peer->proc && peer->proc->tx_state == peer)
        peer->proc->tx_state = NULL;
    free(peer->payload_cells);
    free(peer);
}

static void shm_forget(struct tide_proc *p)
{
    if (p->tx == &tide_shm_transport && p->tx_state)
        detach(p->tx_state);
}

static bool shm_reachable(struct tide_proc *p, const struct tide_card *card)
{
    if (!me.base || !card->shm_path[0] || strcmp(card->host, tide.hostname) != 0 || p == tide.me)
        return false;
    struct shm_peer *peer = attach(p, card);
    if (!peer)
        return false;
    p->tx_state = peer;
    /* its ring may be smaller than ours (another job, other settings) */
    p->msg_max = tide_ring_max_payload(peer->hdr->ring_size) - SHM_HDR_MAX;
    return true;
}

/* An eager message goes with a short header: its length is the entry's,
 * and its sender request id is left out when it has none, so that up to
 * 40 payload bytes share the entry's first cache line with the word and
 * the header. A payload of a cache line or more follows a padded header
 * (SHORT_EAGER_PAD, the pad's length in the niov field): it starts 32
 * bytes into the entry and the entry ends at a line boundary or at
 * least half-way into its last line: entries ending just past a line
 * boundary made a ping-pong of 128-256 B a third slower on the machine
 * measured (0.22 us against 0.14). The first byte tells the forms
 * apart. */
#define SHORT_EAGER 0x80     /* type byte: short eager header, no request id */
#define SHORT_EAGER_ID 0x81  /* type byte: short eager header and request id */
#define SHORT_EAGER_PAD 0x82 /* type byte: short eager header, request id (or 0), padding */
struct short_eager {
    uint8_t type;
    uint8_t flags;
    uint16_t niov;
    uint32_t ctx;
    int32_t src;
    int32_t tag;
};
_Static_assert(offsetof(struct tide_hdr, tag) + sizeof(int32_t) == sizeof(struct short_eager) &&
                   offsetof(struct tide_hdr, ctx) == offsetof(struct short_eager, ctx),
               "a short eager header is the full header's first bytes");

/* The size of the header h goes with (body: the bytes after it). */
static inline size_t header_size(const struct tide_hdr *h, size_t body)
{
    if (h->type != TIDE_MSG_EAGER || h->aux != 0 || h->len != body)
        return sizeof *h;
    if (body < TIDE_RING_CELL)
        return h->sreq ? sizeof(struct short_eager) + sizeof h->sreq : sizeof(struct short_eager);
    size_t hlen = sizeof(struct short_eager) + sizeof h->sreq;
    size_t end = (8 + hlen + body) % TIDE_RING_CELL; /* 8: the ring's word */
    return end && end < TIDE_RING_CELL / 2 ? hlen + TIDE_RING_CELL / 2 - end : hlen;
}

static inline void header_out(uint8_t *dst, const struct tide_hdr *h, size_t hlen, size_t body)
{
    if (h->type != TIDE_MSG_EAGER || h->aux != 0 || h->len != body) {
        memcpy(dst, h, sizeof *h);
        return;
    }
    /* type, flags, niov, ctx, src, tag: the full header's first 16 bytes */
    memcpy(dst, h, sizeof(struct short_eager));
    size_t with_id = sizeof(struct short_eager) + sizeof h->sreq;
    if (hlen >= with_id && (hlen > with_id || !h->sreq)) {
        uint16_t pad = (uint16_t)(hlen - with_id);
        dst[0] = SHORT_EAGER_PAD;
        memcpy(dst + offsetof(struct short_eager, niov), &pad, sizeof pad);
    } else {
        dst[0] = h->sreq ? SHORT_EAGER_ID : SHORT_EAGER;
    }
    if (hlen >= with_id)
        memcpy(dst + sizeof(struct short_eager), &h->sreq, sizeof h->sreq);
}

/* The full header of an entry of len bytes; its size there, 0 if invalid. */
static size_t header_in(struct tide_hdr *h, const uint8_t *msg, size_t len)
{
    if (len >= sizeof(struct short_eager) &&
        (msg[0] == SHORT_EAGER || msg[0] == SHORT_EAGER_ID || msg[0] == SHORT_EAGER_PAD)) {
        struct short_eager s;
        memcpy(&s, msg, sizeof s);
        size_t n = sizeof s;
        uint64_t sreq = 0;
        if (s.type != SHORT_EAGER) {
            if (len < n + sizeof sreq)
                return 0;
            memcpy(&sreq, msg + n, sizeof sreq);
            n += sizeof sreq;
        }
        if (s.type == SHORT_EAGER_PAD) {
            if (s.niov > SHM_HDR_MAX - n || len < n + s.niov)
                return 0;
            n += s.niov;
            s.niov = 0;
        }
        *h = (struct tide_hdr){.type = TIDE_MSG_EAGER, .flags = s.flags, .niov = s.niov, .ctx = s.ctx,
                               .src = s.src, .tag = s.tag, .len = len - n, .sreq = sreq};
        return n;
    }
    if (len < sizeof *h)
        return 0;
    memcpy(h, msg, sizeof *h);
    return sizeof *h;
}

/* Write one message into peer's ring: false if there is no room now. */
static inline bool ring_write(struct shm_peer *peer, const struct tide_hdr *h, const void *extra, size_t extra_len,
                              struct tide_convertor *cv, size_t len)
{
    size_t hlen = header_size(h, extra_len + len);
    size_t total = hlen + extra_len + len;
    uint8_t *dst = tide_ring_reserve(&peer->prod, total);
    if (!dst)
        return false;
    header_out(dst, h, hlen, extra_len + len);
    if (extra_len)
        memcpy(dst + hlen, extra, extra_len);
    if (len)
        tide_conv_pack(cv, dst + hlen + extra_len, len);
    tide_ring_commit(&peer->prod, total);
    return true;
}

/* After a message into peer's ring: ring it if it sleeps, else note it
 * for the barrier-checked look (see the top). */
static inline void written(struct shm_peer *peer)
{
    if (__builtin_expect(atomic_load_explicit(&peer->hdr->sleeping, memory_order_relaxed), 0)) {
        ring_bell(peer);
    } else if (!peer->dirty) {
        peer->dirty = true;
        peer->dirty_next = dirty_peers;
        dirty_peers = peer;
    }
}

static int shm_send(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                    struct tide_convertor *cv, size_t len)
{
    struct shm_peer *peer = p->tx_state;
    if (!ring_write(peer, h, extra, extra_len, cv, len))
        return 1;
    written(peer);
    return 0;
}

/* shm_send of a plain eager message from a contiguous buffer: below a
 * cache line of payload its short header is written in place (what
 * header_size and header_out choose for it), without a tide_hdr. */
static int shm_send_eager(struct tide_proc *p, uint32_t ctx, int32_t src, int32_t tag, uint64_t sreq,
                          const void *data, size_t len)
{
    if (len >= TIDE_RING_CELL) {
        struct tide_hdr h = {.type = TIDE_MSG_EAGER, .ctx = ctx, .src = src, .tag = tag, .len = len, .sreq = sreq};
        return shm_send(p, &h, data, len, NULL, 0);
    }
    struct shm_peer *peer = p->tx_state;
    size_t hlen = sizeof(struct short_eager) + (sreq ? sizeof sreq : 0);
    uint8_t *dst = tide_ring_reserve(&peer->prod, hlen + len);
    if (!dst)
        return 1;
    struct short_eager s = {.type = sreq ? SHORT_EAGER_ID : SHORT_EAGER, .ctx = ctx, .src = src, .tag = tag};
    memcpy(dst, &s, sizeof s);
    if (sreq)
        memcpy(dst + sizeof s, &sreq, sizeof sreq);
    tide_small_copy(dst + hlen, data, len);
    tide_ring_commit(&peer->prod, hlen + len);
    written(peer);
    return 0;
}

/* shm_send for a holder of the shared library lock: one thread at a time
 * writes a ring; 1 also when p has no ring yet (the exclusive path makes
 * it). */
static int shm_send_shared(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                           struct tide_convertor *cv, size_t len)
{
    struct shm_peer *peer = p->tx_state;
    if (!peer)
        return 1;
    tide_spin_lock(&peer->send_lock);
    bool written = ring_write(peer, h, extra, extra_len, cv, len);
    tide_spin_unlock(&peer->send_lock);
    if (!written)
        return 1;
    if (__builtin_expect(atomic_load_explicit(&peer->hdr->sleeping, memory_order_relaxed), 0)) {
        ring_bell(peer);
    } else if (!__atomic_load_n(&peer->dirty, __ATOMIC_RELAXED)) {
        tide_spin_lock(&dirty_lock);
        if (!peer->dirty) {
            __atomic_store_n(&peer->dirty, true, __ATOMIC_RELAXED);
            peer->dirty_next = dirty_peers;
            __atomic_store_n(&dirty_peers, peer, __ATOMIC_RELAXED); /* read unlocked by wake_sleepers_shared */
        }
        tide_spin_unlock(&dirty_lock);
    }
    return 0;
}

/* A refused single-copy transfer is no error: the caller falls back to
 * the rings for that peer. Said once, at verbose level 1. */
static void cma_refused_note(int err)
{
    if (!me.cma_noted && tide.tuning.verbose >= 1)
        fprintf(stderr, "tide[%u]: single-copy transfers refused by the kernel (%s): large messages go "
                        "through the shared-memory rings\n", tide.rank, strerror(err));
    me.cma_noted = true;
}

static long shm_get(struct tide_proc *p, const struct iovec *local, int nlocal, const struct iovec *remote,
                    int nremote)
{
    struct shm_peer *peer = p->tx_state;
    ssize_t n = me.cma_refused ? (errno = EPERM, -1)
                               : process_vm_readv(peer->pid, local, (unsigned long)nlocal, remote,
                                                  (unsigned long)nremote, 0);
    if (n < 0)
        cma_refused_note(errno);
    return n < 0 ? -errno : (long)n;
}

static long shm_put(struct tide_proc *p, const struct iovec *local, int nlocal, const struct iovec *remote,
                    int nremote)
{
    struct shm_peer *peer = p->tx_state;
    ssize_t n = me.cma_refused ? (errno = EPERM, -1)
                               : process_vm_writev(peer->pid, local, (unsigned long)nlocal, remote,
                                                   (unsigned long)nremote, 0);
    if (n < 0)
        cma_refused_note(errno);
    return n < 0 ? -errno : (long)n;
}

/* ---- receiving ---- */

static void deliver_ring(struct inbound *in, int max);

static void scan_slots(void)
{
    uint32_t gen = atomic_load_explicit(&me.hdr->generation, memory_order_acquire);
    if (gen == me.seen_gen)
        return;
    me.seen_gen = gen;
    /* senders that closed their rings: deliver what is left, free the slot */
    for (int i = 0; i < me.nin;) {
        struct inbound *in = &me.in[i];
        if (atomic_load_explicit(&in->cons.ctrl->state, memory_order_acquire) == 3) {
            deliver_ring(in, 1 << 30);
            atomic_store_explicit(&in->cons.ctrl->state, 0, memory_order_release);
            me.tracked[in->slot] = false;
            me.in[i] = me.in[--me.nin];
            continue;
        }
        i++;
    }
    /* new rings; a ring may also be closed already (its sender wrote its
     * messages and ended between two of our looks): its messages are
     * delivered all the same, then its slot is free again */
    for (uint32_t s = 0; s < me.nslots; s++) {
        if (me.tracked[s])
            continue;
        uint8_t *a = area(me.base, me.hdr, (int)s);
        struct tide_ring_ctrl *c = (struct tide_ring_ctrl *)a;
        uint32_t state = atomic_load_explicit(&c->state, memory_order_acquire);
        if (state != 2 && state != 3)
            continue;
        char ns[256];
        memcpy(ns, c->sender_nspace, sizeof ns);
        ns[sizeof ns - 1] = '\0';
        struct tide_proc *from = tide_proc_get(ns, c->sender_rank);
        if (!from)
            continue;
        struct inbound *in = &me.in[me.nin++];
        tide_ring_cons_init(&in->cons, c, a + AREA_CTRL, me.hdr->ring_size);
        in->from = from;
        in->slot = (int)s;
        me.tracked[s] = true;
        if (state == 3) {
            deliver_ring(in, 1 << 30);
            atomic_store_explicit(&c->state, 0, memory_order_release);
            me.tracked[s] = false;
            me.nin--;
        }
    }
}

__attribute__((noinline)) static int deliver_ring_count(struct inbound *in, int max)
{
    int n = 0;
    tide_protocol_burst_begin();
    for (int k = 0; k < max; k++) {
        size_t len;
        const uint8_t *msg = tide_ring_peek(&in->cons, &len);
        if (!msg)
            break;
        if ((msg[0] == SHORT_EAGER || msg[0] == SHORT_EAGER_ID) && msg[1] == 0 &&
            len >= sizeof(struct short_eager) + (msg[0] == SHORT_EAGER_ID ? sizeof(uint64_t) : 0)) {
            /* a plain eager message: no tide_hdr made */
            struct short_eager s;
            memcpy(&s, msg, sizeof s);
            uint64_t sreq = 0;
            size_t hlen = sizeof s;
            if (s.type == SHORT_EAGER_ID) {
                memcpy(&sreq, msg + hlen, sizeof sreq);
                hlen += sizeof sreq;
            }
            tide_protocol_incoming_eager(in->from, s.ctx, s.src, s.tag, sreq, msg + hlen, len - hlen);
        } else {
            struct tide_hdr h;
            size_t hlen = header_in(&h, msg, len);
            if (hlen)
                tide_protocol_incoming(in->from, &h, msg + hlen, len - hlen);
        }
        tide_ring_release(&in->cons, len, 0);
        n++;
    }
    tide_protocol_burst_end();
    return n;
}

static void deliver_ring(struct inbound *in, int max)
{
    deliver_ring_count(in, max);
}

static int shm_progress(void)
{
    /* the barrier-checked look at the flags of the peers written to waits
     * for those writes to reach them: done when about to wait
     * (shm_idle), before sleeping, and here only now and then (callers
     * that poll without waiting, like MPI_Test loops) */
    if (dirty_peers && (++me.progress_calls & 63) == 0)
        wake_sleepers();
    if (__builtin_expect(atomic_load_explicit(&me.hdr->generation, memory_order_relaxed) != me.seen_gen, 0))
        scan_slots();
    int n = 0;
    for (int i = 0; i < me.nin; i++)
        if (tide_ring_has_entry(&me.in[i].cons))
            n += deliver_ring_count(&me.in[i], 32);
    return n;
}

/* Delivery by a holder of the shared library lock: what the fast path
 * takes, from rings no other thread drains at the moment. Sets
 * *exclusive when a message (or a new ring) needs the exclusive lock. */
static int shm_progress_shared(bool *exclusive)
{
    if (atomic_load_explicit(&me.hdr->generation, memory_order_relaxed) != me.seen_gen) {
        *exclusive = true;
        return 0;
    }
    int n = 0;
    for (int i = 0; i < me.nin; i++) {
        struct inbound *in = &me.in[i];
        if (__atomic_load_n(&in->busy, __ATOMIC_RELAXED) || __atomic_exchange_n(&in->busy, 1, __ATOMIC_ACQUIRE))
            continue;
        for (int k = 0; k < 32; k++) {
            size_t len;
            const uint8_t *msg = tide_ring_peek(&in->cons, &len);
            if (!msg)
                break;
            struct tide_hdr h;
            size_t hlen = header_in(&h, msg, len);
            if (!hlen || !tide_protocol_incoming_shared(in->from, &h, msg + hlen, len - hlen)) {
                *exclusive = true;
                break;
            }
            tide_ring_release(&in->cons, len, 0);
            n++;
        }
        __atomic_store_n(&in->busy, 0, __ATOMIC_RELEASE);
    }
    if (!n)
        wake_sleepers_shared();
    return n;
}

static int shm_block_prepare(struct pollfd *fds, int max)
{
    wake_sleepers();
    if (me.bell_fd < 0 || max < 1)
        return 0;
    atomic_store(&me.hdr->sleeping, 1);
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load(&me.hdr->generation) != me.seen_gen) {
        atomic_store(&me.hdr->sleeping, 0);
        return -1;
    }
    for (int i = 0; i < me.nin; i++)
        if (tide_ring_ready(&me.in[i].cons)) {
            atomic_store(&me.hdr->sleeping, 0);
            return -1;
        }
    fds[0].fd = me.bell_fd;
    fds[0].events = POLLIN;
    fds[0].revents = 0;
    return 1;
}

static void shm_block_finish(void)
{
    atomic_store(&me.hdr->sleeping, 0);
    if (me.bell_fd >= 0)
        drain_doorbell();
}

/* p may sleep waiting for memory this process has just written (after a
 * full barrier): ring it if it does. */
static void shm_wake(struct tide_proc *p)
{
    struct shm_peer *peer = p->tx_state;
    if (peer && atomic_load_explicit(&peer->hdr->sleeping, memory_order_relaxed))
        ring_bell(peer);
}

static void shm_finalize(void)
{
    wake_sleepers();
    while (peers)
        detach(peers);
    if (me.base) {
        munmap(me.base, me.len);
        me.base = NULL;
        tide_safe_unlink(me.path);
    }
    if (me.bell_fd >= 0) {
        drain_doorbell();
        close(me.bell_fd);
    }
    me.bell_fd = -1;
    if (me.bell_dropped && tide.tuning.verbose >= 1)
        fprintf(stderr, "tide[%u]: doorbell: %lu datagrams from other users dropped\n", tide.rank,
                me.bell_dropped);
    me.bell_dropped = 0;
    free(me.in);
    free(me.tracked);
    me.in = NULL;
    me.tracked = NULL;
    me.nin = 0;
    me.seen_gen = 0; /* a new segment's generation starts again at 0 */
}

/* A message above 4 KiB goes eagerly while the ring stays at most half
 * full with it: a ping-pong keeps the ring empty and gains the copy
 * through it, a burst of them (a window of sends) turns to single-copy
 * rendezvous before it would wait for room. */
static bool shm_eager_room(const struct tide_proc *p, size_t len)
{
    const struct shm_peer *peer = p->tx_state;
    if (!peer)
        return true;
    const struct tide_ring_prod *r = &peer->prod;
    uint64_t used = r->tail - atomic_load_explicit(&r->ctrl->head, memory_order_relaxed);
    return used + len + 256 <= r->size / 2;
}

struct tide_transport tide_shm_transport = {
    .name = "shm",
    .eager_limit = 4096,
    .eager_limit_coll = 4096,
    .max_chunk = 65536,
    .can_get = true,
    .reachable = shm_reachable,
    .send_shared = shm_send_shared,
    .progress_shared = shm_progress_shared,
    .send = shm_send,
    .send_eager = shm_send_eager,
    .get = shm_get,
    .put = shm_put,
    .progress = shm_progress,
    .progress_quick = shm_progress,
    .block_prepare = shm_block_prepare,
    .idle = wake_sleepers,
    .block_finish = shm_block_finish,
    .finalize = shm_finalize,
    .forget = shm_forget,
    .wake = shm_wake,
    .eager_limit_low = 4096 + SHM_HDR_MAX, /* 4 KiB of data with a header of its own (one-sided) */
    .eager_room = shm_eager_room,
};
