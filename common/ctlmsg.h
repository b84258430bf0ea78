/*
 * ctlmsg.h: the control protocol between mpiexec (the hub) and each tided.
 *
 * Every message is a wire.h frame. The payload layout of each type is
 * written next to it; encoders and decoders live with their users, the job
 * description (the largest) in jobdesc.c.
 */
#ifndef TIDE_CTLMSG_H
#define TIDE_CTLMSG_H

enum tide_ctl_type {
    /* tided -> mpiexec: u32 node, str hostname, u32 pid */
    TIDE_CTL_HELLO = 1,
    /* mpiexec -> tided: a job description (jobdesc.c) */
    TIDE_CTL_LAUNCH = 2,
    /* tided -> mpiexec: u32 jobid, i32 status (0 ok, else errno-like),
     * str message (why launch failed, may be absent) */
    TIDE_CTL_LAUNCHED = 3,
    /* tided -> mpiexec: u32 jobid, u32 rank, u8 stream (1 out, 2 err), bytes */
    TIDE_CTL_IO = 4,
    /* mpiexec -> tided: u32 jobid, u32 rank, bytes (empty: end of input) */
    TIDE_CTL_STDIN = 5,
    /* tided -> mpiexec: u32 jobid, u32 rank, u32 pid, u8 how (tide_exit_how),
     * i32 code (exit code or signal number), u8 connected, u8 finalized */
    TIDE_CTL_EXIT = 6,
    /* tided -> mpiexec: u32 jobid, u32 rank, i32 status, str message */
    TIDE_CTL_ABORT = 7,
    /* mpiexec -> tided: u32 jobid (0xffffffff: every job), i32 signal */
    TIDE_CTL_KILL = 8,
    /* mpiexec -> tided: nothing. tided ends its ranks, cleans up and exits. */
    TIDE_CTL_SHUTDOWN = 9,
    /* tided -> its parent (a daemon of the tree, or mpiexec): str
     * signature, u32 nparticipants, then each (str nspace, u32 rank), u8
     * collect, bytes data, u32 ncovered, ncovered u32 nodes: the
     * contributions of those nodes (the sender's and its subtree's),
     * gathered up the tree */
    TIDE_CTL_FENCE = 10,
    /* mpiexec -> tided -> its children that contributed: str signature,
     * i32 status, bytes data (every node's contribution) */
    TIDE_CTL_FENCE_RELEASE = 11,
    /* tided -> mpiexec -> tided hosting the proc: u32 reqid, u32 from_node,
     * str nspace, u32 rank */
    TIDE_CTL_DMODEX_REQ = 12,
    /* tided -> mpiexec -> requesting tided: u32 reqid, u32 to_node, i32 status, bytes */
    TIDE_CTL_DMODEX_RESP = 13,
    /* tided -> mpiexec: u32 jobid, u32 rank, str message (a log line to print) */
    TIDE_CTL_NOTICE = 14,
    /* tided -> mpiexec: u32 reqid, str parent nspace, u32 parent rank,
     * u32 napps, then per app: str cmd, strv argv, strv env, str wdir
     * (absent: inherit), u32 maxprocs, str host, str path, str soft,
     * str recovery (the enable_recovery info key; absent: mpiexec's) */
    TIDE_CTL_SPAWN = 15,
    /* mpiexec -> tided: u32 reqid, i32 status (0 ok), str nspace or message,
     * u32 nprocs started */
    TIDE_CTL_SPAWN_RESULT = 16,
    /* tided -> mpiexec: u32 reqid, str nspace, u32 rank, u32 n, then n
     * (str service, str port) */
    TIDE_CTL_PUBLISH = 17,
    /* tided -> mpiexec: u32 reqid, str nspace, u32 rank, u32 wait, u32 n, n str services */
    TIDE_CTL_LOOKUP = 18,
    /* tided -> mpiexec: u32 reqid, str nspace, u32 rank, u32 n, n str services */
    TIDE_CTL_UNPUBLISH = 19,
    /* mpiexec -> tided: u32 reqid, i32 status (tide_name_status), u32 n, then n
     * (str service, str port, str publisher nspace, u32 publisher rank) */
    TIDE_CTL_NAME_RESULT = 20,
    /* mpiexec -> tided: str nspace; a job has ended everywhere and its state
     * may be released */
    TIDE_CTL_JOB_ENDED = 21,
    /* along the daemon tree (ctltree.h), either way: u32 dst (a node,
     * TIDE_ROUTE_HUB for mpiexec, TIDE_ROUTE_ALL for every daemon), u32 src
     * (the node it comes from, TIDE_ROUTE_HUB from mpiexec), u16 type, bytes
     * payload: a message of any other type for dst (ctlroute.c) */
    TIDE_CTL_ROUTE = 22,
    /* tided -> mpiexec: str addresses; this daemon listens for its
     * children in the tree, which mpiexec may now start */
    TIDE_CTL_TREE_READY = 23,
    /* tided -> mpiexec: u32 node, str why; a child of this daemon in the
     * tree was lost (and its subtree with it) */
    TIDE_CTL_NODE_LOST = 24,
    /* tided -> mpiexec -> every daemon: u32 node it comes from (mpiexec
     * sets it), i32 code, str source nspace, u32 source rank, u32 range,
     * bytes info (packed by PMIx: size_t n, n pmix_info_t).
     * Also mpiexec -> every daemon, raised by the runtime itself: node
     * TIDE_EVENT_FROM_RUNTIME (no daemon's, so every daemon delivers it),
     * code TIDE_EVENT_PROC_FAILED, source the failed rank, range
     * TIDE_EVENT_RANGE_GLOBAL, bytes info = i32 exit code (wire.h
     * encoding, 128 + signal for a signal); each daemon makes the PMIx
     * info (PMIX_EVENT_AFFECTED_PROC, PMIX_EXIT_CODE) itself. */
    TIDE_CTL_EVENT = 25,
    TIDE_CTL_TYPE_MAX
};

enum tide_exit_how {
    TIDE_EXIT_NORMAL = 0,     /* code = exit status */
    TIDE_EXIT_SIGNALED = 1,   /* code = signal number */
    TIDE_EXIT_EXEC_FAILED = 2 /* code = errno of the failed exec/chdir */
};

enum tide_name_status {
    TIDE_NAME_OK = 0,
    TIDE_NAME_NOT_FOUND = 1,
    TIDE_NAME_DUPLICATE = 2,
    TIDE_NAME_NOT_OWNER = 3,
    TIDE_NAME_BAD = 4,        /* malformed or too long */
    TIDE_NAME_UNREACHABLE = 5 /* the name service cannot be reached */
};

#define TIDE_ALL_JOBS 0xffffffffu
#define TIDE_ROUTE_ALL 0xffffffffu
#define TIDE_ROUTE_HUB 0xfffffffeu
/* An EVENT raised by the runtime (recovery mode: a rank failed), and the
 * PMIx values it carries, for code that does not include pmix headers
 * (daemon/events.c checks them against pmix_common.h). */
#define TIDE_EVENT_FROM_RUNTIME 0xfffffffeu
#define TIDE_EVENT_PROC_FAILED (-200)  /* PMIX_ERR_PROC_TERM_WO_SYNC */
#define TIDE_EVENT_RANGE_GLOBAL 5u     /* PMIX_RANGE_GLOBAL */
/* PMIX_RANK_WILDCARD, for code that does not include pmix headers */
#define TIDE_RANK_WILDCARD 0xfffffffeu

#endif
