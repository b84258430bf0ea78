/*
 * intercomm.h: building intercommunicators. Two groups, each with an
 * intracommunicator over itself, are joined through their leaders, who
 * talk over a "leader channel": a peer communicator for
 * MPI_Intercomm_create, the old intercommunicator for dup/create/split/
 * merge, or whatever connects two separate jobs (spawn, connect/accept).
 *
 * The leaders swap their groups' member lists and their groups' context
 * offers (context.h); the context id they choose is free at every member
 * of both groups, and each leader broadcasts the outcome to its group.
 */
#ifndef TIDE_INTERCOMM_H
#define TIDE_INTERCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tide_comm;
struct tide_group;

/* How a leader exchanges bytes with the other group's leader: send slen
 * bytes and receive rlen bytes (both sides know both lengths: exchanges
 * of varying size send their lengths first). Both leaders make the same
 * sequence of calls. Returns MPI_SUCCESS or an error code. */
struct tide_leader_chan {
    int (*xchg)(void *arg, const void *sbuf, size_t slen, void *rbuf, size_t rlen);
    void *arg;
};

/* A channel over point-to-point: rank `rank` of comm, on context ctx,
 * every message tagged `tag`. pc must outlive the channel's use. */
struct tide_pt2pt_chan {
    struct tide_comm *comm;
    int rank;
    uint32_t ctx;
    int tag;
};
void tide_leader_chan_pt2pt(struct tide_leader_chan *ch, struct tide_pt2pt_chan *pc, struct tide_comm *comm,
                            int rank, uint32_t ctx, int tag);

/* Join this group (intracommunicator lc, leader rank `leader` of lc) and
 * the group at the other end of chan into a new intercommunicator.
 * Collective over lc; chan is used at the leader only (NULL elsewhere).
 * leader_status: at the leader, MPI_SUCCESS or an error code found before
 * (bad peer arguments): the build then fails at every member of lc with
 * that error's class and message, without using chan. The groups must be
 * disjoint (MPI_ERR_ARG at both groups otherwise). The result has lc's
 * group as local group, the other group as remote group (ranked as in
 * its lc), a local communicator of its own, lc's error handler, and a
 * context id free at every member of both groups. fn names the MPI
 * function in messages. Returns MPI_SUCCESS or an error code, not
 * raised. */
int tide_intercomm_build(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, int leader_status,
                         const char *fn, struct tide_comm **out);

/* The two-group context agreement on its own: collective over lc, the
 * leader swapping offers over chan with the other group's leader, which
 * runs the same call. member: this process will use the id (reserves
 * it). MPI_SUCCESS or an error code. */
int tide_context_agree_inter(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, bool member,
                             uint32_t *id);

/* One round of a two-group agreement, after this group's offers were
 * combined (acc, at the leader) or that failed (rc): the leader swaps
 * acc with the other group's leader and decides, the decision goes to
 * every member of lc, each applies it to ag. 1 with *id when decided, 0
 * for another round, or an error code. */
struct tide_ctx_agreement;
struct tide_ctx_offer;
int tide_ctx_inter_round(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan,
                         struct tide_ctx_agreement *ag, const struct tide_ctx_offer *acc, int rc, uint32_t *id);

/* The intercommunicator forms of MPI_Comm_dup, MPI_Comm_create and
 * MPI_Comm_split, collective over both groups of c. *out may be NULL
 * (create/split: not a member). Error codes are returned, not raised. */
int tide_intercomm_dup(struct tide_comm *c, struct tide_comm **out);
int tide_intercomm_create_sub(struct tide_comm *c, struct tide_group *g, struct tide_comm **out);
int tide_intercomm_split(struct tide_comm *c, int color, int key, struct tide_comm **out);

/* The leaders swap `mine` (mlen bytes) for the other group's block of
 * rlen bytes (known to both), which reaches every member of c's local
 * group in *theirs (malloc'd). Collective over c's local group. */
int tide_intercomm_swap(struct tide_comm *c, const struct tide_leader_chan *ch, const void *mine, size_t mlen,
                        void **theirs, size_t rlen);

/* The leader channel of an existing intercommunicator c (local rank 0 to
 * remote rank 0 on c's collective context); takes c's next collective
 * sequence number, so every member of both groups must call it. */
void tide_intercomm_chan(struct tide_comm *c, struct tide_leader_chan *ch, struct tide_pt2pt_chan *pc);

#endif
