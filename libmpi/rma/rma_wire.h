/*
 * rma_wire.h: the messages of the one-sided protocol (see win.h): the
 * header of an operation or synchronisation marker (origin -> target),
 * the pieces that describe the target's layout, and control messages
 * (target -> origin).
 */
#ifndef TIDE_RMA_WIRE_H
#define TIDE_RMA_WIRE_H

#include <stdint.h>

/* Everything of an operation up to this size travels in one message. */
#define TIDE_RMA_INLINE_MAX 8192

enum {
    TIDE_RMA_F_INLINE = 1, /* pieces and payload follow the header in its message */
    TIDE_RMA_F_FENCE = 2,  /* issued in a fence epoch (counted by MPI_Win_fence) */
};

struct tide_rma_hdr {
    uint8_t kind;       /* enum tide_rma_kind */
    uint8_t flags;
    uint16_t elem;      /* CAS: bytes of one element */
    int32_t op;         /* accumulate: the MPI_Op handle (predefined) */
    int32_t base;       /* accumulate: builtin index of the target's element type */
    uint32_t epoch;     /* the origin's count of completed fences */
    int32_t arg;        /* LOCK: the lock type */
    uint32_t npieces;   /* 0: one run of nbytes at offset */
    uint64_t offset;    /* byte offset in the target's window (address for dynamic windows) */
    uint64_t nbytes;    /* bytes of target memory accessed */
    uint64_t payload;   /* bytes of data the origin sends (put, accumulate, CAS) */
};

/* One contiguous piece of the target's layout, relative to offset. */
struct tide_rma_piece {
    int64_t off;
    uint64_t len;
};

struct tide_rma_ctrl {
    int32_t kind;       /* TIDE_RMA_C_* */
    int32_t pad;
    int64_t arg;        /* ERROR: the error class */
};

#endif
