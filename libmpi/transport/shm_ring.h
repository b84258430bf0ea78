/*
 * shm_ring.h: the single-producer single-consumer ring that carries
 * messages from one sender into a receiver's shared-memory segment.
 *
 * Entries start with a 64-bit word: the high 36 bits are a lap tag
 * ((position >> log2(size)) + 1, so stale words of earlier laps and the
 * zeroed ring never look valid), the low 28 bits the entry's byte length
 * (all ones: skip to the end of the ring; rings are at most
 * TIDE_RING_MAX_SIZE, so entries stay below it). The producer writes the
 * payload, then the word with release order; the consumer polls the word
 * at its head with acquire order, and writes nothing into the ring.
 *
 * Entries of one lap may start inside the payload of an earlier lap's,
 * where any bytes may be. The consumer only ever looks at the word at the
 * end of the last entry it took (or at the ring's start after a skip), so
 * the producer makes that word harmless before it publishes the entry (or
 * skip) that leads there: it keeps a bitmap of the cells whose first word
 * holds payload bytes and, only for such a cell, stores a zero word there
 * first (x86 stores, and release order elsewhere, make it visible before
 * the entry's word). Every other word it may find there is an entry word
 * or skip of an earlier lap, whose tag is stale. So a small message and
 * its word share one cache line, delivery costs one line transfer, and
 * the consumer's cache never holds a ring line the producer must take
 * back from it. The consumer publishes its head only for the producer's
 * space checks: every eighth of the ring, when asked, and whenever the
 * ring runs empty.
 *
 * A producer finding the ring empty once it is TIDE_RING_REWIND bytes
 * into a lap skips to the next lap's start (if its entry fits before
 * where it was: until the consumer has passed the skip, the skipped
 * part counts as used): a conversation of messages
 * one at a time (a ping-pong) then keeps to the ring's first lines,
 * which stay in the caches of both cores, instead of walking the whole
 * ring. At 4 KiB (not 16), a ping-pong of 1-8 KiB messages keeps to
 * one or two entries' lines and a window of small messages (64 of a
 * line each) to the same 64 lines window after window: a third less
 * latency at 1-8 KiB on the machine measured, the same message rate.
 * Laps are then as short as TIDE_RING_REWIND bytes of traffic; the
 * tags wrap after 2^36 of them (256 TiB), and even then a stale word
 * is only mistaken if its lap is a whole number of wraps behind.
 */
#ifndef TIDE_SHM_RING_H
#define TIDE_SHM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TIDE_RING_CELL 64u
#define TIDE_RING_LEN_BITS 28
#define TIDE_RING_LEN_MASK ((1ull << TIDE_RING_LEN_BITS) - 1)
#define TIDE_RING_SKIP TIDE_RING_LEN_MASK
#define TIDE_RING_MAX_SIZE (512ull << 20) /* entries are at most a quarter of it */
#define TIDE_RING_REWIND 4096u          /* see the top */
#define TIDE_RING_REWIND_EVERY 1024u     /* how often past it an empty ring is looked for */

/* A full barrier (stores before it are visible before loads after it),
 * for the sender's check of the receiver's sleeping flag after publishing.
 * On x86 a locked add to the stack costs a fraction of an mfence. */
static inline void tide_store_load_fence(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock; addl $0,-8(%%rsp)" ::: "memory", "cc");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* The ring's operations on the message path: inlined into their callers,
 * where the compiler would otherwise call them. */
#define TIDE_RING_HOT static inline __attribute__((always_inline))

/* Shared control block at the start of each ring area. */
struct tide_ring_ctrl {
    _Alignas(64) _Atomic uint64_t head;  /* consumer position */
    _Alignas(64) _Atomic uint32_t state; /* 0 free, 1 being claimed, 2 active, 3 closed */
    int32_t sender_pid;
    uint32_t sender_rank;
    uint32_t used; /* a sender had it before: its ring may hold old entries */
    char sender_nspace[256];
};

struct tide_ring_prod {
    uint8_t *cells;
    struct tide_ring_ctrl *ctrl;
    uint64_t size, mask;
    unsigned shift;
    uint64_t tail;
    uint64_t head_cache;
    uint64_t rewind_check; /* the next position past which to look for an empty ring */
    uint64_t *payload_cells; /* bit per cell: its first word holds payload bytes */
};

struct tide_ring_cons {
    uint8_t *cells;
    struct tide_ring_ctrl *ctrl;
    uint64_t size, mask;
    unsigned shift;
    uint64_t head;
    uint64_t published;
};

static inline unsigned tide_ring_log2(uint64_t v)
{
    unsigned s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

/* Words of the bitmap a producer of a ring of size bytes needs. */
static inline size_t tide_ring_bitmap_words(uint64_t size)
{
    return (size_t)((size / TIDE_RING_CELL + 63) / 64);
}

/* A producer for a zeroed ring; payload_cells has
 * tide_ring_bitmap_words(size) words. */
static inline void tide_ring_prod_init(struct tide_ring_prod *p, struct tide_ring_ctrl *ctrl, void *cells,
                                       uint64_t size, uint64_t *payload_cells)
{
    memset(payload_cells, 0, tide_ring_bitmap_words(size) * sizeof *payload_cells);
    p->payload_cells = payload_cells;
    p->cells = cells;
    p->ctrl = ctrl;
    p->size = size;
    p->mask = size - 1;
    p->shift = tide_ring_log2(size);
    p->tail = 0;
    p->head_cache = 0;
    p->rewind_check = TIDE_RING_REWIND;
}

/* The word of an entry (or skip) of length len at position pos. */
static inline uint64_t tide_ring_word(uint64_t pos, unsigned shift, uint64_t len)
{
    return (((pos >> shift) + 1) << TIDE_RING_LEN_BITS) | len;
}

/* Does word hold the tag of the lap of position pos? */
static inline int tide_ring_word_current(uint64_t word, uint64_t pos, unsigned shift)
{
    return (word >> TIDE_RING_LEN_BITS) == (((pos >> shift) + 1) & (~0ull >> TIDE_RING_LEN_BITS));
}

static inline void tide_ring_cons_init(struct tide_ring_cons *c, struct tide_ring_ctrl *ctrl, void *cells,
                                       uint64_t size)
{
    c->cells = cells;
    c->ctrl = ctrl;
    c->size = size;
    c->mask = size - 1;
    c->shift = tide_ring_log2(size);
    c->head = 0;
    c->published = 0;
}

/* Largest payload an entry may carry. */
static inline size_t tide_ring_max_payload(uint64_t size)
{
    return (size_t)(size / 4) - 8;
}

static inline uint64_t tide_ring_round(uint64_t n)
{
    return (n + TIDE_RING_CELL - 1) & ~(uint64_t)(TIDE_RING_CELL - 1);
}

/* Make the word at ring offset off harmless before the consumer can look
 * at it: if payload bytes lie there, a zero word (ordered before the next
 * release store). */
TIDE_RING_HOT void tide_ring_guard(struct tide_ring_prod *p, uint64_t off)
{
    uint64_t cell = off / TIDE_RING_CELL;
    uint64_t bit = 1ull << (cell & 63);
    if (p->payload_cells[cell >> 6] & bit) {
        atomic_store_explicit((_Atomic uint64_t *)(p->cells + off), 0, memory_order_relaxed);
        p->payload_cells[cell >> 6] &= ~bit;
    }
}

/* Record that cells [first, last] (indices) now hold payload at their
 * start, or not. */
static inline void tide_ring_mark(struct tide_ring_prod *p, uint64_t first, uint64_t last, int payload)
{
    while (first <= last) {
        uint64_t w = first >> 6, lo = first & 63;
        uint64_t hi = (last >> 6) == w ? (last & 63) : 63;
        uint64_t m = (hi == 63 ? ~0ull : ((1ull << (hi + 1)) - 1)) & ~((1ull << lo) - 1);
        if (payload)
            p->payload_cells[w] |= m;
        else
            p->payload_cells[w] &= ~m;
        first = (w << 6) + hi + 1;
    }
}

/* Reserve room for len payload bytes. Returns where to write the payload,
 * or NULL if the ring is full now. */
TIDE_RING_HOT void *tide_ring_reserve(struct tide_ring_prod *p, size_t len)
{
    uint64_t need = tide_ring_round(8 + (uint64_t)len);
    uint64_t off = p->tail & p->mask;
    uint64_t skip = (off + need > p->size) ? p->size - off : 0;
    if (!skip && off >= TIDE_RING_REWIND && p->tail >= p->rewind_check) {
        /* past the rewind point: back to the lap's start if the ring is empty */
        p->rewind_check = p->tail + TIDE_RING_REWIND_EVERY;
        p->head_cache = atomic_load_explicit(&p->ctrl->head, memory_order_acquire);
        if (p->head_cache == p->tail && need <= off)
            skip = p->size - off; /* the entry fits before the skipped part */
    }
    if (p->tail + skip + need - p->head_cache > p->size) {
        p->head_cache = atomic_load_explicit(&p->ctrl->head, memory_order_acquire);
        if (p->tail + skip + need - p->head_cache > p->size)
            return NULL;
    }
    if (skip) {
        /* the consumer goes on at the ring's start (free: checked above) */
        tide_ring_guard(p, 0);
        _Atomic uint64_t *w = (_Atomic uint64_t *)(p->cells + off);
        atomic_store_explicit(w, tide_ring_word(p->tail, p->shift, TIDE_RING_SKIP), memory_order_release);
        p->tail += skip;
        p->rewind_check = p->tail + TIDE_RING_REWIND;
        off = 0;
    }
    return p->cells + off + 8;
}

/* Publish the entry reserved last, holding len payload bytes. */
TIDE_RING_HOT void tide_ring_commit(struct tide_ring_prod *p, size_t len)
{
    uint64_t off = p->tail & p->mask;
    uint64_t need = tide_ring_round(8 + (uint64_t)len);
    uint64_t first = off / TIDE_RING_CELL, ncells = need / TIDE_RING_CELL;
    if (ncells > 1)
        tide_ring_mark(p, first + 1, first + ncells - 1, 1);
    /* where the consumer looks next; free, or the start of the oldest
     * entry it has not taken (whose word is no payload) */
    tide_ring_guard(p, (off + need) & p->mask);
    _Atomic uint64_t *w = (_Atomic uint64_t *)(p->cells + off);
    atomic_store_explicit(w, tide_ring_word(p->tail, p->shift, 8 + (uint64_t)len), memory_order_release);
    p->tail += need;
}

/* The next entry's payload and length, or NULL if none has arrived. */
TIDE_RING_HOT const void *tide_ring_peek(struct tide_ring_cons *c, size_t *len)
{
    for (;;) {
        uint64_t off = c->head & c->mask;
        _Atomic uint64_t *w = (_Atomic uint64_t *)(c->cells + off);
        uint64_t word = atomic_load_explicit(w, memory_order_acquire);
        if (!tide_ring_word_current(word, c->head, c->shift)) {
            /* drained: let the producer see all the room there is */
            if (c->head != c->published) {
                atomic_store_explicit(&c->ctrl->head, c->head, memory_order_release);
                c->published = c->head;
            }
            return NULL;
        }
        uint64_t n = word & TIDE_RING_LEN_MASK;
        if (n == TIDE_RING_SKIP) {
            /* the skipped room is the producer's again at once (its
             * eager-room check counts it until it sees this head) */
            c->head += c->size - off;
            atomic_store_explicit(&c->ctrl->head, c->head, memory_order_release);
            c->published = c->head;
            continue;
        }
        *len = n - 8;
        return c->cells + off + 8;
    }
}

/* Consume the entry returned by the last peek. */
TIDE_RING_HOT void tide_ring_release(struct tide_ring_cons *c, size_t len, int publish_now)
{
    c->head += tide_ring_round(8 + (uint64_t)len);
    if (publish_now || c->head - c->published >= c->size / 8) {
        atomic_store_explicit(&c->ctrl->head, c->head, memory_order_release);
        c->published = c->head;
    }
}

/* True if an entry is waiting (the check before sleeping). */
/* Is an entry (or a wrap marker) waiting? A look without side effects,
 * for polling: the consumer has published its head when it last ran
 * empty. */
static inline int tide_ring_has_entry(const struct tide_ring_cons *c)
{
    uint64_t word = atomic_load_explicit((_Atomic uint64_t *)(c->cells + (c->head & c->mask)), memory_order_acquire);
    return tide_ring_word_current(word, c->head, c->shift);
}

static inline int tide_ring_ready(struct tide_ring_cons *c)
{
    size_t len;
    return tide_ring_peek(c, &len) != NULL;
}

#endif
