/*
 * context.h: context ids. Each communicator owns an even id for its
 * point-to-point traffic and the next (odd) one for its collectives.
 * MPI_COMM_WORLD and MPI_COMM_SELF have fixed ids. This process keeps a
 * bitmap of the ids it uses; a group agrees on an id free at all of its
 * members by reducing "offers" (a window of each member's free bits, see
 * context.c for the scheme), and an intercommunicator's two groups
 * combine their groups' offers through their leaders (intercomm.h).
 */
#ifndef TIDE_CONTEXT_H
#define TIDE_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#define TIDE_CONTEXT_WORLD 0u
#define TIDE_CONTEXT_SELF 2u
#define TIDE_CONTEXT_MAX (1u << 20) /* ids below this; half a million communicators */
#define TIDE_CONTEXT_MASK_WORDS (TIDE_CONTEXT_MAX / 2 / 64)
#define TIDE_CONTEXT_NONE UINT32_MAX
/* Ids below this are fixed for the life of the process (MPI_COMM_WORLD,
 * MPI_COMM_SELF, and ids other parts reserve at start-up): reserved when
 * the predefined communicators are made, never released. */
#define TIDE_CONTEXT_FIXED_END 8u

/* ---- this process's bitmap ---- */

void tide_context_reserve(uint32_t id);
/* Ids below TIDE_CONTEXT_FIXED_END are never released. */
void tide_context_release(uint32_t id);
int tide_context_is_free(uint32_t id);
/* This process's free-id mask (bit i: id 2*i is free and not being
 * offered by an agreement in progress), for agreement. */
void tide_context_free_mask(uint64_t *mask, int words);
/* Lowest id free in a mask, or UINT32_MAX. */
uint32_t tide_context_lowest(const uint64_t *mask, int words);
/* How many ids this process uses (diagnostics and tests). */
unsigned tide_context_in_use(void);

/* ---- offers: the unit of agreement ----
 *
 * An offer is a window of TIDE_CONTEXT_WINDOW bitmap words starting at
 * word `start`: bit b of mask[j] set means id 2*(64*(start+j)+b) is free
 * at every contributor combined into it. Bits outside the window count
 * as not free. `any` marks the offer of a process that will not use the
 * id (it constrains nothing); `shared` that some contributor made its
 * offer while another agreement was under way in its process (the id
 * found must then be confirmed, see context.c). */
#define TIDE_CONTEXT_WINDOW 8

struct tide_ctx_offer {
    uint32_t start;
    uint32_t any;
    uint32_t shared;
    uint32_t pad;
    uint64_t mask[TIDE_CONTEXT_WINDOW];
};

/* One agreement's claim on this process's bitmap, from its start to its
 * end (agreements of other threads and pending MPI_Comm_idup requests
 * run at the same time). The free bits of its offer stay claimed until
 * its round ends; a confirmation holds the one id it confirms. Another
 * agreement offers neither, except that an agreement with a lower key
 * also offers the bits of a higher one's shared offer (made while
 * another agreement was registered). The key names the agreement the
 * same way at every member. */
struct tide_ctx_claim {
    struct tide_ctx_claim *next; /* the agreements registered in this process */
    uint64_t key;
    bool registered;
    bool held;     /* the bits below are claimed */
    bool shared;   /* they were offered as shared */
    uint32_t start;
    uint64_t bits[TIDE_CONTEXT_WINDOW];
    uint32_t lock; /* the id being confirmed, or TIDE_CONTEXT_NONE */
};

/* Register an agreement under key (nothing claimed yet). */
void tide_context_claim_init(struct tide_ctx_claim *cl, uint64_t key);
/* This process's offer for a round: the window at the lowest word
 * >= floor_word that has an id usable by this agreement (not used, not
 * claimed or confirmed by another agreement it must leave alone), those
 * bits claimed; shared when another agreement is registered. */
void tide_context_offer(uint32_t floor_word, struct tide_ctx_offer *o, struct tide_ctx_claim *cl);
/* The offer confirming id: the id alone if this agreement may still take
 * it here (then held until unclaimed), else nothing, in id's word. */
void tide_context_offer_confirm(uint32_t id, struct tide_ctx_offer *o, struct tide_ctx_claim *cl);
/* The offer of a process that takes part without using the id. */
void tide_context_offer_any(uint32_t floor_word, struct tide_ctx_offer *o);
/* Give back what the last offer claimed (after the round's decision,
 * whatever it was; reserve the chosen id separately). */
void tide_context_unclaim(struct tide_ctx_claim *cl);
/* The agreement is over (decided or failed): unclaim and unregister. */
void tide_context_claim_end(struct tide_ctx_claim *cl);
/* acc = acc combined with in (commutative and associative). */
void tide_context_combine(struct tide_ctx_offer *acc, const struct tide_ctx_offer *in);
/* The lowest id of a combined offer, or TIDE_CONTEXT_NONE. */
uint32_t tide_context_pick(const struct tide_ctx_offer *o);
/* Where the next round starts after an offer with nothing free; returns
 * TIDE_CONTEXT_NONE when the ids are exhausted. */
uint32_t tide_context_next_floor(const struct tide_ctx_offer *o, uint32_t floor_word);

/* ---- an agreement's rounds ----
 *
 * What every member of an agreement keeps: its claim, the floor of its
 * rounds, and whether the next round confirms a candidate. Each round,
 * every member offers tide_ctx_agreement_offer; the combined offer gives
 * the outcome (the same at every member), which every member applies. */
enum {
    TIDE_CTX_AGAIN,     /* another round (from the floor returned) */
    TIDE_CTX_CONFIRM,   /* the id found is confirmed by the next round */
    TIDE_CTX_DONE,      /* the id is agreed */
    TIDE_CTX_EXHAUSTED, /* no id is free at every member */
};

struct tide_ctx_agreement {
    struct tide_ctx_claim cl;
    bool member;     /* this process uses the id */
    bool confirming; /* the next round confirms cand */
    uint32_t floor;
    uint32_t cand;
};

/* Start (member: registers the claim; key as for tide_context_claim_init). */
void tide_ctx_agreement_begin(struct tide_ctx_agreement *a, uint64_t key, bool member);
/* This process's offer for the next round. */
void tide_ctx_agreement_offer(struct tide_ctx_agreement *a, struct tide_ctx_offer *o);
/* The outcome of a round whose combined offer is o: TIDE_CTX_*, with the
 * id (DONE, CONFIRM) or the next floor (AGAIN). */
int tide_ctx_agreement_outcome(const struct tide_ctx_agreement *a, const struct tide_ctx_offer *o, uint32_t *id,
                               uint32_t *floor_word);
/* Apply an outcome; returns it. DONE reserves the id (member) and ends
 * the agreement, EXHAUSTED ends it. */
int tide_ctx_agreement_next(struct tide_ctx_agreement *a, int outcome, uint32_t id, uint32_t floor_word);
/* End an agreement early (an error). */
void tide_ctx_agreement_end(struct tide_ctx_agreement *a);
/* A key for an agreement run by messages on context ctx under collective
 * sequence number seq. */
uint64_t tide_ctx_key(uint32_t ctx, uint32_t seq);

/* ---- reducing offers over a group (nonblocking) ----
 *
 * A recursive-doubling allreduce of offers over n members of a
 * communicator, on one of its contexts. Member i is rank ranks[i] of comm
 * (ranks NULL: rank i). Every round of one agreement uses the same tag
 * base; messages of successive rounds between two members keep their
 * order, so rounds never mix. */
struct tide_comm;
struct tide_request;

struct tide_ctx_reduce {
    struct tide_comm *comm;
    uint32_t ctx;
    int n, me;
    const int *ranks;
    bool fixed_tag; /* every message uses `tag` */
    int tag;
    uint32_t seq;   /* otherwise tide_coll_tag(seq, step) */
    int round;
    /* state of the current round */
    int stage, mask, pof2, rem, newrank;
    struct tide_request *rq[2];
    struct tide_ctx_offer acc, in;
    int err;
};

/* Over the whole of intracommunicator c (an intercommunicator: its local
 * communicator) on its collective context; takes c's next collective
 * sequence number. */
void tide_ctx_reduce_init(struct tide_ctx_reduce *r, struct tide_comm *c);
/* Over n members of c (me is this process's index), every message tagged
 * `tag` on c's collective context (MPI_Comm_create_group). */
void tide_ctx_reduce_init_sub(struct tide_ctx_reduce *r, struct tide_comm *c, int n, int me, const int *ranks,
                              int tag);
/* Start a round with this process's offer. */
void tide_ctx_reduce_start(struct tide_ctx_reduce *r, const struct tide_ctx_offer *mine);
/* Advance: 1 when the round is done (result in r->acc), 0 while it runs,
 * -1 on error (code in r->err). Never blocks. */
int tide_ctx_reduce_test(struct tide_ctx_reduce *r);
/* Run the round to its end; MPI_SUCCESS or an error code. */
int tide_ctx_reduce_wait(struct tide_ctx_reduce *r);
/* The key of the agreement whose rounds r runs. */
uint64_t tide_ctx_reduce_key(const struct tide_ctx_reduce *r);
/* ---- blocking agreements ---- */

/* Collective over intracommunicator c (an intercommunicator: over its
 * local group): an id free at every member that passes member = true;
 * those reserve it. The others (e.g. MPI_UNDEFINED in a split) take part
 * and get the id too, unreserved. Returns MPI_SUCCESS or an error code. */
int tide_context_agree(struct tide_comm *c, bool member, uint32_t *id);
/* The same among n members of c (member i is rank ranks[i], me this
 * process's index), with messages tagged `tag`: for MPI_Comm_create_group,
 * where the rest of c takes no part. */
int tide_context_agree_sub(struct tide_comm *c, int n, int me, const int *ranks, int tag, uint32_t *id);

#endif
