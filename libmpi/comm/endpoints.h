/*
 * endpoints.h: endpoints communicators (MPIX_Comm_create_endpoints,
 * docs/ENDPOINTS.md), where a process holds several ranks, one handle
 * (struct tide_comm) per rank.
 *
 * Each endpoint has its own context ids, so matching and the queues of
 * point-to-point and collective traffic are per endpoint: a send to rank r
 * goes to r's context (tide_comm_send_ctx), a receive looks only at its
 * endpoint's queues. Endpoint k of a process (k counting that process's
 * ranks in rank order) has an id agreed among the communicator's
 * processes for index k. The handles of one process share a struct
 * tide_ep_set: the context of every rank, and the meeting point where
 * the process's endpoints gather in a collective that builds
 * communicators (one of them agrees the ids for all).
 */
#ifndef TIDE_ENDPOINTS_H
#define TIDE_ENDPOINTS_H

#include <stdbool.h>
#include <stdint.h>

struct tide_comm;

/* One meeting of a process's endpoints (two alternate: an endpoint can
 * reach the next meeting only after every endpoint has left this one). */
struct tide_ep_meeting {
    uint32_t seq;  /* which meeting uses it */
    int arrived;
    bool done;
    int rc;
    void **recs;   /* what each endpoint brought, by local index */
};

struct tide_ep_set {
    int refcount;             /* this process's handles */
    int size;                 /* ranks of the communicator */
    int nlocal;               /* this process's endpoints */
    uint32_t *ctx_of_rank;    /* each rank's point-to-point context id */
    struct tide_ep_meeting meet[2];
};

void tide_ep_set_release(struct tide_ep_set *s);

/* The set of a new communicator of size ranks (remote ranks for an
 * intercommunicator) of which nlocal >= 1 are this process's, rank r
 * receiving on ids[index[r]]. The ids of the indices this process does
 * not use (nlocal up to nids) go back; NULL without memory (then all of
 * them do). Each new handle joins it as endpoint `local`; once they are
 * made, tide_ep_set_made lets a set no handle joined go. */
struct tide_ep_set *tide_ep_set_make(int size, int nlocal, const uint32_t *ids, int nids, const int *index);
/* An empty set of a communicator of size ranks (remote ranks for an
 * intercommunicator) of which nlocal are this process's, for the caller
 * to fill in ctx_of_rank; NULL without memory. */
struct tide_ep_set *tide_ep_set_new(int size, int nlocal);
void tide_ep_set_join(struct tide_ep_set *set, struct tide_comm *nc, int local);
void tide_ep_set_made(struct tide_ep_set *set);

/* The meeting of a process's endpoints: every endpoint of h's process
 * calls this in the same collective with what it brings (rec); the
 * first (local index 0, the one that speaks for the process) runs work
 * over all the recs, by local index, once they are all here; every one
 * returns work's result. A plain communicator meets alone. */
typedef int tide_ep_meeting_work(void **recs, int n, void *arg);
int tide_ep_meet(struct tide_comm *h, void *rec, tide_ep_meeting_work *work, void *arg);

/* A meeting of some of a process's endpoints (nlocal of them, this one
 * being `local`, 0 .. nlocal - 1), named by a key (scope, a, b) the same
 * at each of them: as tide_ep_meet, the first runs work over every one's
 * rec once all are here. */
int tide_ep_meet_keyed(const void *scope, int a, int b, int nlocal, int local, void *rec, tide_ep_meeting_work *work,
                       void *arg);

/* Internal tags of the agreements endpoints communicators run among
 * processes (k-th of the operation with collective sequence seq), below
 * those of comm_create.h. */
int tide_ep_tag(uint32_t seq, int k);

/* Collective over intracommunicator c (plain or endpoints): ranks giving
 * the same color get a communicator of the sum of their counts' ranks,
 * ordered by key, ties by rank in c then by handle; each rank gets
 * `count` handles in out (MPI_COMM_NULL-free; count 0 or color
 * MPI_UNDEFINED: none). serial names the endpoints a rank brings: the
 * identity its handles' ranks have in groups (serial + j for handle j).
 * MPI_SUCCESS or an error code (not raised). */
int tide_ep_build(struct tide_comm *c, int color, int key, int count, int serial, struct tide_comm **out);

/* MPI_Comm_split (and dup: color 0, key 0) of endpoints communicator c:
 * *out the new handle, NULL for MPI_UNDEFINED. */
int tide_ep_split(struct tide_comm *c, int color, int key, struct tide_comm **out);
/* MPI_Comm_create of endpoints communicator c over group g (a subset of
 * its group, of endpoints: from MPI_Comm_group of it and the group
 * algebra). An error code (not raised) or MPI_SUCCESS. */
struct tide_group;
int tide_ep_create(struct tide_comm *c, const struct tide_group *g, const char *fn, struct tide_comm **out);

/* Intercommunicators with endpoints on either side (ep_inter.c). After
 * tide_intercomm_build's leaders swapped and shared the member lists
 * (rp, rn; rserials NULL when the remote group is of processes): the
 * rest of the build, collective over lc. Every endpoint of a process
 * has its own context id, agreed among the processes of both groups. */
struct tide_leader_chan;
struct tide_proc;
int tide_ep_intercomm_finish(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, int rn,
                             struct tide_proc *const *rp, const int *rserials, const char *fn,
                             struct tide_comm **out);
/* MPI_Intercomm_merge of an endpoints intercommunicator c (the groups'
 * order decided: local_first). */
int tide_ep_intercomm_merge(struct tide_comm *c, const struct tide_leader_chan *chan, bool local_first,
                            struct tide_comm **out);
/* MPI_Comm_split of an endpoints intercommunicator c (dup: color 0,
 * key 0), and MPI_Comm_create over g (a group of c's local group): every
 * endpoint of a process gets a context id of its own, agreed among the
 * processes of both groups, so that endpoints of one process may end up
 * in different new communicators. *out NULL where the rank gets none.
 * Collective over both groups; an error code (not raised) or
 * MPI_SUCCESS. */
int tide_ep_intercomm_split(struct tide_comm *c, int color, int key, struct tide_comm **out);
int tide_ep_intercomm_create(struct tide_comm *c, const struct tide_group *g, struct tide_comm **out);

/* MPI_Comm_create_group of endpoints communicator c over g (a group of
 * its endpoints), collective over g's members only (ep_create_group.c):
 * *out NULL for a rank not in g. An error code (not raised) or
 * MPI_SUCCESS. */
int tide_ep_create_group(struct tide_comm *c, const struct tide_group *g, int tag, struct tide_comm **out);

/* A fresh block of n endpoint serials of this process (never 0, which
 * names the process itself). */
int tide_ep_serials(int n);

/* MPI_ERR_COMM (raised on c) naming fn, for what endpoints communicators
 * do not support; 0 if c is not one. */
int tide_ep_refuse(struct tide_comm *c, const char *fn);

#endif
