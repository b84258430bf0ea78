/*
 * win.h: one-sided communication (MPI-3 chapter 11): the window object
 * and the interfaces between the parts of libmpi/rma/ (window creation,
 * attributes, the operations, synchronisation, and the protocol that
 * carries operations to their target).
 *
 * Every operation is a message on the window's own communicator (an
 * internal duplicate of the one the window was made on): a header on
 * TIDE_RMA_TAG_REQ, possibly followed by data on TIDE_RMA_TAG_DATA, to
 * the target, which applies it in its progress engine (rma_target.c);
 * answers (fetched data, lock grants, acknowledgements) come back on
 * TIDE_RMA_TAG_REPLY and TIDE_RMA_TAG_CTRL. The target applies the
 * operations of one origin in the order they were issued, so an
 * UNLOCK, FLUSH or COMPLETE marker reaching it means that every earlier
 * operation of that origin is done; accumulates are applied by the target
 * process alone, so they are atomic with respect to each other.
 */
#ifndef TIDE_RMA_WIN_H
#define TIDE_RMA_WIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_group;
struct tide_request;
struct tide_datatype;
struct tide_op;
struct tide_attr_list;

enum {
    TIDE_RMA_TAG_REQ = 1,   /* headers, origin -> target (target's posted ANY_SOURCE receive) */
    TIDE_RMA_TAG_DATA = 2,  /* a header's pieces and payload when not inline */
    TIDE_RMA_TAG_REPLY = 3, /* fetched data, target -> origin, in issue order */
    TIDE_RMA_TAG_CTRL = 4,  /* grants, acknowledgements, post notices, errors (target -> origin) */
};

/* Kinds of header (origin -> target) and of control message (-> origin). */
enum tide_rma_kind {
    TIDE_RMA_PUT = 1,
    TIDE_RMA_GET,
    TIDE_RMA_ACC,
    TIDE_RMA_GACC, /* get_accumulate, fetch_and_op */
    TIDE_RMA_CAS,
    TIDE_RMA_LOCK,
    TIDE_RMA_UNLOCK,
    TIDE_RMA_FLUSH,
    TIDE_RMA_COMPLETE, /* end of a PSCW access epoch */
    /* control messages */
    TIDE_RMA_C_GRANT = 32,
    TIDE_RMA_C_ACK,    /* flush or unlock done */
    TIDE_RMA_C_POST,   /* an exposure epoch began (PSCW) */
    TIDE_RMA_C_ERROR,  /* an operation was refused at the target */
};

/* An attached region of a dynamic window. */
struct tide_rma_region {
    uintptr_t base;
    size_t size;
};

struct tide_rma_pending; /* target: a header waiting for its data (rma_target.c) */
struct tide_rma_opreq;   /* origin: an operation in flight (rma_origin.c) */

/* What a target knows of each origin. */
struct tide_rma_origin_state {
    struct tide_rma_pending *head, *tail; /* received headers not yet applied, in order */
    uint32_t posts_seen;    /* as an origin: POST notices received from this rank */
    uint32_t completes_seen;/* as a target: COMPLETE markers applied from this rank */
    uint32_t grants;        /* as an origin: lock grants received from this rank */
    uint32_t acks;          /* as an origin: flush/unlock acknowledgements received */
    uint32_t acks_wanted;   /* as an origin: acknowledgements asked for */
    int held;               /* as an origin: the lock we hold on this target (0, MPI_LOCK_*) */
    int inflight;           /* as an origin: operations to it not locally complete */
    bool dirty;             /* as an origin: operations sent since its last flush */
    bool nocheck;           /* as an origin: the lock was taken with MPI_MODE_NOCHECK */
    bool want_grant;        /* as an origin: asked for the lock, not granted yet */
    struct tide_rma_opreq *fetch_head, *fetch_tail; /* as an origin: operations awaiting their answer, in order */
    uint32_t req_queued;    /* as a target: headers left to the posted receive (rma_target.c) */
    uint32_t ctrl_queued;   /* as an origin: control messages left to the posted receive */
};

struct tide_win {
    int handle;
    int refcount;
    int flavor;                    /* MPI_WIN_FLAVOR_* */
    struct tide_comm *comm;        /* internal duplicate: the operations' channel */
    struct tide_group *group;      /* the group of the window */
    int rank, size;
    void *base;
    MPI_Aint win_size;
    int disp_unit;
    /* every rank's size and disp_unit (range checks at the origin) */
    MPI_Aint *sizes;
    int *disp_units;
    /* MPI_Win_allocate / allocate_shared memory */
    void *alloc;                   /* malloc'd (allocate) */
    void *shm_base;                /* mapping of the shared segment (shared) */
    size_t shm_len;
    MPI_Aint *shm_offsets;         /* shared: each rank's part in the mapping */
    bool direct;                   /* every rank's memory is mapped here: operations are loads and stores (rma_direct.c) */
    unsigned char **peer_base;     /* direct: each rank's window memory in this mapping */
    uint64_t *ctl;                 /* direct: TIDE_RMA_CTL_WORDS words per rank (lock word, accumulate lock) */
    /* dynamic windows */
    struct tide_rma_region *regions;
    int nregions, cap_regions;
    /* attributes, name, error handler, info */
    struct tide_attr_list *attrs;
    int errhandler;
    int info;                      /* the hints in use (MPI_Win_get_info) */
    char name[MPI_MAX_OBJECT_NAME];
    bool no_locks;                 /* info no_locks=true */
    /* target side */
    struct tide_request *req_recv; /* the posted header receive */
    void *req_buf;
    struct tide_request *ctrl_recv;/* the posted control receive (as origin) */
    void *ctrl_buf;
    struct tide_rma_origin_state *peers;
    uint32_t fence_epoch;          /* fences completed on this window */
    uint64_t fence_applied;        /* operations of fence epochs applied here, not yet counted */
    int lock_excl;                 /* rank holding the exclusive lock, or -1 */
    int lock_shared;               /* shared holders */
    struct tide_rma_lockwait *lockq, *lockq_tail; /* refused lock requests, in order */
    int pending_total;             /* headers received and not yet applied */
    /* origin side: epochs */
    bool fence_active;             /* a fence epoch may be open (after a fence without NOSUCCEED) */
    bool lock_all;                 /* MPI_Win_lock_all epoch */
    int locks_held;                /* MPI_Win_lock epochs open */
    struct tide_group *start_group;/* PSCW access epoch */
    int *start_ranks;              /* ... its ranks in the window */
    struct tide_group *post_group; /* PSCW exposure epoch */
    int *post_ranks;
    uint32_t *fence_sent;          /* operations sent to each rank in this fence epoch */
    struct tide_rma_opreq *ops;    /* operations in flight */
    int error;                     /* an error reported by a target, for the next synchronisation */
    /* rma_check=1: what this epoch's operations accessed (rma_check.c) */
    bool check;
    struct tide_rma_access *accesses;
    int naccesses, cap_accesses;
    bool freeing;
    struct tide_win *next;         /* list of live windows (progress) */
};

extern struct tide_win *tide_rma_windows;

/* Is rank r of w's group a failed process? (rma_fault.c) */
bool tide_rma_rank_failed(const struct tide_win *w, int r);

/* Is rank r of w a failed process (ft/ft.h)? Then nothing more comes from
 * it: the synchronisation calls stop waiting for it. */
static inline bool tide_rma_peer_gone(const struct tide_win *w, int r)
{
    extern int tide_comm_faults;
    return __builtin_expect(tide_comm_faults != 0, 0) && tide_rma_rank_failed(w, r);
}

/* Process p failed: the windows holding it stop waiting for it
 * (rma_fault.c). */
struct tide_proc;
void tide_rma_proc_failed(struct tide_proc *p);
/* An operation to target of w: the error if target failed, else
 * MPI_SUCCESS. */
int tide_rma_target_failed(struct tide_win *w, int target, const char *fn);

/* Look up a window handle; NULL if it is not a live window. */
struct tide_win *tide_win_get(MPI_Win h);
/* Raise code on the window's error handler (MPI_ERRORS_ARE_FATAL by default). */
int tide_raise_win(struct tide_win *win, int code);
#define TIDE_ERR_WIN(w, cls, ...) tide_raise_win((w), tide_err((cls), __VA_ARGS__))
/* Declare w as the window of handle h, or return MPI_ERR_WIN from fn. */
#define WIN_OR_FAIL(fn, h, w)                                                                              \
    struct tide_win *w = tide_win_get(h);                                                                  \
    if (!w)                                                                                                \
        return TIDE_ERR(MPI_ERR_WIN, "%s: invalid window%s (argument win)", fn,                            \
                        (h) == MPI_WIN_NULL ? " MPI_WIN_NULL" : "");

/* Window creation's common part (win_create.c): the window over comm with
 * this base, size and disp_unit, its communicator and exchanges. */
int tide_win_setup(struct tide_comm *comm, int flavor, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   struct tide_win **out, const char *fn);
void tide_win_destroy(struct tide_win *w);

/* Attributes and hints (win_attr.c). */
int tide_win_predefined(int win, int keyval, void *value_out, int *flag);
int tide_win_info_take(struct tide_win *w, MPI_Info info);

/* The protocol (rma_target.c): start serving a window (post its
 * receives), stop (cancel them), and the progress hook. */
int tide_rma_target_start(struct tide_win *w);
void tide_rma_target_stop(struct tide_win *w);
int tide_rma_progress(void);
/* Send a control message (kind, arg) to rank r of the window. */
int tide_rma_send_ctrl(struct tide_win *w, int r, int kind, int64_t arg);
/* Send a copy of len bytes at buf to rank r on tag (at once when the
 * transport takes it). */
int tide_rma_send_copy(struct tide_win *w, int r, int tag, const void *buf, size_t len);
/* Send a synchronisation header (LOCK, UNLOCK, FLUSH, COMPLETE) to r. */
int tide_rma_send_marker(struct tide_win *w, int r, int kind, int arg);

/* Origin side (rma_origin.c): issue an operation. result/compare are for
 * the fetching kinds; req, when not NULL, gets a request completing with
 * the operation (MPI_Rput & co). */
struct tide_rma_args {
    int kind;
    const void *origin;
    MPI_Count ocount;
    struct tide_datatype *odt;
    void *result;
    MPI_Count rcount;
    struct tide_datatype *rdt;
    const void *compare;
    int target;
    MPI_Aint disp;
    MPI_Count tcount;
    struct tide_datatype *tdt;
    struct tide_op *op;
};
int tide_rma_issue(struct tide_win *w, const struct tide_rma_args *a, MPI_Request *req, const char *fn);
/* rma_check.c: with rma_check=1, MPI_ERR_RMA_CONFLICT (not raised) for an
 * operation conflicting with an earlier one of the epoch, else
 * MPI_SUCCESS (the access is kept); forget a target's accesses (-1:
 * every target's) when its part of the epoch completes. */
struct tide_rma_access;
void tide_rma_check_init(struct tide_win *w);
int tide_rma_check_access(struct tide_win *w, const struct tide_rma_args *a, const char *fn);
void tide_rma_check_forget(struct tide_win *w, int target);
/* An answer (fetched data) from src arrived: given to the oldest
 * operation awaiting one from src; true if taken here, false if it is
 * left to matching (a receive for it has been posted when it is not
 * eager). */
bool tide_rma_reply_arrived(struct tide_win *w, int src, bool eager, const void *payload, size_t plen);
/* Rank r failed: the operations awaiting its answers end with err. */
void tide_rma_fetches_abandon(struct tide_win *w, int r, int err);
/* Wait until no operation to rank r (-1: any) is in flight locally. */
int tide_rma_wait_local(struct tide_win *w, int r);
/* Wait until acknowledgements from r reach acks_wanted. */
void tide_rma_wait_acks(struct tide_win *w, int r);
/* Take (and clear) an error a target reported. */
int tide_rma_take_error(struct tide_win *w);

/* The access epoch open to rank r (rma_sync.c): passive target (a lock)
 * first, then PSCW, then fence; NONE if there is none. */
enum { TIDE_RMA_EPOCH_NONE = 0, TIDE_RMA_EPOCH_FENCE, TIDE_RMA_EPOCH_PSCW, TIDE_RMA_EPOCH_PASSIVE };
int tide_rma_epoch_of(struct tide_win *w, int r);

/* Windows in shared memory (rma_direct.c). */
#define TIDE_RMA_CTL_WORDS 8 /* one cache line per rank */
/* After the control lines, per rank, TIDE_RMA_PSCW_WORDS(n) words of
 * POST notices received (a bit per target) and as many of COMPLETE
 * notices received (a bit per origin). */
#define TIDE_RMA_PSCW_WORDS(n) (((size_t)(n) + 63) / 64)
#define TIDE_RMA_CTL_BYTES(n) \
    ((((size_t)(n) * (TIDE_RMA_CTL_WORDS + 2 * TIDE_RMA_PSCW_WORDS(n)) * sizeof(uint64_t)) + 63) & ~(size_t)63)
int tide_rma_direct_issue(struct tide_win *w, const struct tide_rma_args *a);
/* An accumulate (result NULL) or get-accumulate of n elements of the
 * predefined type of builtin index tyi with predefined op index opi,
 * contiguous at t in rank r's memory and at origin and result: 1 done,
 * 0 when the pair is not allowed or a buffer is not aligned for the type
 * (the checked path then takes it). */
/* A compare-and-swap of one element of an integer or byte type (builtin
 * index tyi) at t in rank r's memory: 1 done, 0 take the checked path. */
int tide_rma_direct_cas_now(struct tide_win *w, int r, unsigned char *t, const void *origin, const void *compare,
                            void *result, int tyi);
int tide_rma_direct_acc_now(struct tide_win *w, int r, unsigned char *t, const void *origin, void *result, size_t n,
                            int tyi, int opi);
void tide_rma_direct_lock(struct tide_win *w, int r, int type);
void tide_rma_direct_unlock(struct tide_win *w, int r, int type);
/* PSCW on such windows: notices are bits in the segment, set by the
 * notifying process and cleared by the one that takes them. */
void tide_rma_direct_post(struct tide_win *w);
void tide_rma_direct_start(struct tide_win *w);
void tide_rma_direct_complete(struct tide_win *w);
bool tide_rma_direct_completed(struct tide_win *w, bool wait);

/* The optional progress thread (rma_thread.c): started with the first
 * window when the parameter rma_progress_thread is 1; stopped at finalize. */
void tide_rma_thread_start(void);
void tide_rma_thread_stop(void);

/* Module start/stop (runtime/modules.c). */
int tide_rma_init(void);
void tide_rma_finalize(void);

#endif
