/*
 * ctlframe.h: decoding of the control messages between mpiexec and tided
 * (ctlmsg.h) into plain structs, so the handlers in launcher/hub.c,
 * daemon/hub.c and daemon/fence.c only act on validated values. The job
 * description (TIDE_CTL_LAUNCH) has its own decoder in jobdesc.c and the
 * spawn request (TIDE_CTL_SPAWN) in launcher/spawnreq.c.
 *
 * Strings are heap copies (tide_ctl_msg_clear frees them); byte fields
 * point into the payload and live as long as it does. A decoder accepts
 * exactly the layout of ctlmsg.h: a short payload, trailing bytes, a
 * missing required string or a value out of its range is an error.
 */
#ifndef TIDE_CTLFRAME_H
#define TIDE_CTLFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* The most participants one fence message may name. */
#define TIDE_CTL_MAX_FENCE_PROCS (1u << 20)
/* The most nodes one fence contribution may cover. */
#define TIDE_CTL_MAX_FENCE_NODES (1u << 24)

struct tide_ctl_proc {
    char *nspace;
    uint32_t rank; /* or TIDE_RANK_WILDCARD */
};

struct tide_ctl_msg {
    uint16_t type;
    uint32_t jobid, rank, node, pid, id;
    int32_t status;   /* LAUNCHED, ABORT, FENCE_RELEASE, DMODEX_RESP, SPAWN_RESULT; EVENT: its code */
    int32_t code;     /* EXIT: exit code or signal; KILL: signal */
    uint8_t stream;   /* IO: 1 stdout, 2 stderr */
    uint8_t how;      /* EXIT: tide_exit_how */
    uint8_t connected, finalized, collect;
    uint32_t count;   /* SPAWN_RESULT: processes started; EVENT: its range */
    char *text;       /* HELLO host, LAUNCHED/ABORT/NOTICE message, FENCE(_RELEASE)
                         signature, DMODEX_REQ nspace, SPAWN_RESULT nspace or message,
                         EVENT source nspace */
    const void *data; /* IO, STDIN, FENCE, FENCE_RELEASE, DMODEX_RESP, EVENT */
    size_t len;
    struct tide_ctl_proc *procs; /* FENCE participants */
    uint32_t nprocs;
    uint32_t *covered;           /* FENCE: the nodes whose contributions it holds */
    uint32_t ncovered;
};

/* Decode one payload of the given type into m (zeroed first). 0, or -1
 * when the payload is malformed or the type is not one decoded here
 * (m then holds nothing to free). */
int tide_ctl_decode(uint16_t type, struct tide_rbuf *r, struct tide_ctl_msg *m);
void tide_ctl_msg_clear(struct tide_ctl_msg *m);

#endif
