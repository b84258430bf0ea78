/*
 * tided.h: the state of one tided (a node daemon) and the interfaces
 * between its parts. Everything here runs on the main libevent loop; PMIx
 * upcalls reach it only through the task queue (pmix-glue/taskq.h).
 */
#ifndef TIDE_TIDED_H
#define TIDE_TIDED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmix.h>
#include <pmix_server.h>

#include "bind_policy.h"
#include "jobdesc.h"

struct event;
struct event_base;
struct evbuffer;
struct tide_channel;
struct tide_rbuf;

/* One output stream (stdout or stderr) of a local rank. */
struct dstream {
    int fd;
    struct event *ev;
    char *buf; /* bytes of an unfinished line */
    size_t len, cap;
    struct event *flush_timer;
};

/* A rank of a job that runs on this node. */
struct dproc {
    struct djob *job;
    int rank;
    int local_rank;
    int bind_slot; /* index among the live ranks of every job on this node (binding.c) */
    pid_t pid;
    pmix_proc_t pproc;
    struct dstream out, err;
    int stdin_fd; /* write end of rank's stdin pipe, -1 if none */
    int fin_fd;   /* read end of the pipe the rank writes 'F' to in MPI_Finalize */
    struct evbuffer *stdin_pending;
    struct event *stdin_ev;
    bool stdin_eof;
    bool registered;
    bool connected;
    bool finalized;
    bool exited;
};

/* A job with ranks on this node (or a namespace registered for reference). */
struct djob {
    struct tide_job desc;
    int nlocal;
    int bind_nslots;     /* binding slots of the node in use with this job's ranks */
    struct dproc *procs; /* nlocal entries */
    int nexited;
    bool registered;
    bool killing;
    struct event *kill_timer;
    struct event *held_kill;  /* a signal held back from ranks not yet connected (launch.c) */
    int held_sig;
    long long held_since_ms;
    struct event *launch_ev; /* starts the next batch of ranks */
    int launch_next;         /* index of the next local rank to start */
    bool launching;          /* ranks are still being started */
    bool launch_stop;        /* the job was killed: start no more */
    unsigned char *failed;   /* recovery mode: per rank, reported failed (NULL: none yet) */
    bool local_released;     /* tided_job_release_local was done */
    struct djob *next;
};

struct tided {
    struct event_base *base;
    struct tide_channel *hub;
    int node;
    char hostname[256];
    char session_dir[4096];
    char universe_dir[4000]; /* mpiexec's session directory (ours is inside) */
    char pmix_dir[4200];
    bool hub_lost;
    bool made_universe_dir; /* we made the session directory (another host than mpiexec's) */
    struct djob *jobs;
    bool shutting_down;
    int kill_grace_ms;
    struct event *sigchld_ev, *sigterm_ev, *sigint_ev, *sighup_ev;
};

extern struct tided tided;

/* jobtable.c */
struct djob *djob_find(const char *nspace);
struct djob *djob_find_id(uint32_t jobid);
struct dproc *dproc_find(const char *nspace, int rank);
struct dproc *dproc_find_pid(pid_t pid);
void djob_add(struct djob *job);
void djob_remove(struct djob *job);

/* launch.c */
/* Starts the job's local ranks a batch per event-loop turn (so signals
 * and kill requests are handled during a long launch). Returns -1 with
 * err if the job cannot start at all; otherwise 0, and the outcome is
 * given to hub_launch_done once every rank started or the launch ended. */
int tided_launch(struct djob *job, char *err, size_t errlen);
void tided_kill_job(struct djob *job, int sig);
void tided_kill_all(int sig);
void tided_job_release(struct djob *job);
/* What the job's local ranks held here (pipes, PMIx registrations, its
 * private directory), released once they have all ended; the job stays
 * in the table (recovery mode: it runs on elsewhere, and fences that
 * pass through this daemon are planned from its description). */
void tided_job_release_local(struct djob *job);

/* binding.c: binding ranks to cpus (policy arithmetic in bind_policy.c) */
struct rank_binding {
    struct bind_target target; /* obj BIND_OBJ_NONE: not bound */
    void *set;                 /* hwloc_bitmap_t of the cpus, NULL if not bound */
    void *mask;                /* the same as a cpu_set_t of masksize bytes */
    size_t masksize;
    int ncpus;
};
/* Gives the job's local ranks their binding slots (and warns once when an
 * explicit policy makes them share cpus). Called before the first fork. */
void binding_plan_job(struct djob *job);
/* In the daemon before fork: the rank's cpus. -1 if out of memory. */
int binding_prepare(struct djob *job, struct dproc *p, struct rank_binding *b);
/* In the child after fork: applies it (sched_setaffinity only). */
void binding_apply(const struct rank_binding *b);
/* In the daemon after fork: the report notice if the job asked for it. */
void binding_report(struct djob *job, struct dproc *p, const struct rank_binding *b);
void binding_release(struct rank_binding *b);

/* iof.c */
void iof_start(struct dproc *p, int out_fd, int err_fd, int in_fd);
/* A pseudo-terminal for a rank's stdout: fds[0] the daemon's (master)
 * side, fds[1] the rank's, both close-on-exec. 0, or -1 (none to be had:
 * the caller uses a pipe). */
int iof_open_pty(int fds[2]);
void iof_drain(struct dproc *p);
void iof_stdin(struct dproc *p, const void *data, size_t len);
void iof_close(struct dproc *p);

/* reaper.c */
void reaper_start(void);
void reaper_collect(void);

/* hub.c: the control channel to mpiexec (crypt: its keys when it crosses
 * the network, ctlcrypt.h; NULL for the local socketpair) */
struct tide_ctlcrypt;
void hub_connect_fd(int fd, struct tide_ctlcrypt *crypt);

/* boot.c: joining a job from another host */
#include "ctlauth.h"
/* *tree: the tree line of the boot data (malloc), or NULL */
int boot_read_stdin(uint8_t secret[TIDE_CTL_SECRET_LEN], char **tree, char *err, size_t errlen);
/* From the boot data: the launch agent, and the host name of a node. */
const char *boot_agent(void);
const char *boot_host(int node);
/* The authenticated link to mpiexec or our parent: its fd, and its keys in *crypt. */
int boot_connect(const char *addresses, const uint8_t secret[TIDE_CTL_SECRET_LEN], struct tide_ctlcrypt **crypt,
                 char *err, size_t errlen);
void hub_send_exit(struct dproc *p, int how, int code);
void hub_send_abort(struct dproc *p, int status, const char *msg);
void hub_send_io(struct dproc *p, int stream, const void *data, size_t len);
void hub_send_notice(struct djob *job, int rank, const char *msg);
/* Report the end of a job's launch (rc 0: every local rank started);
 * ranks that never started count as exited. */
void hub_launch_done(struct djob *job, int rc, const char *err);

/* hub.c: handle one message from mpiexec (after any ROUTE envelope) */
void hub_handle(uint16_t type, struct tide_rbuf *r);
/* relay.c: the tree of daemons */
struct tide_wbuf;
/* Join the tree described by tree_text ("radix:n0,n1,...", NULL: not in
 * a tree); the secret authenticates our children. 0 or -1 with err. */
int relay_init(const char *tree_text, const uint8_t secret[TIDE_CTL_SECRET_LEN], char *err, size_t errlen);
/* Once linked to our parent: listen for our children, say TREE_READY. */
void relay_start(void);
/* Send w (freed) to mpiexec, through our parent if it is a daemon. */
int hub_send(struct tide_wbuf *w);
/* A ROUTE message from our parent: for us, for a node below us, or for all. */
void relay_from_parent(struct tide_rbuf *r);
/* Our children in the tree: their number, the one whose subtree holds
 * node (-1: none, or node is us), and sending to one (w is freed). */
int relay_nkids(void);
int relay_kid_toward(int node);
int relay_send_kid(int kid, struct tide_wbuf *w);
int relay_kid_node(int kid);
bool relay_kid_linked(int kid);
/* The child will not link (its agent ended): its link is refused from now. */
void relay_kid_gone(int kid);
/* The child's link was lost (or it never came): its subtree is gone. */
bool relay_kid_lost(int kid);
/* tree_launch.c: starting our children through the launch agent */
struct tide_ctltree;
void tree_launch_kids(const char *addresses, const uint8_t secret[TIDE_CTL_SECRET_LEN],
                      const struct tide_ctltree *tree);
/* A child process ended: was it one of our agents? (reported if its
 * daemon never linked) */
bool tree_launch_reaped(pid_t pid, int status);
void tree_launch_stop(void);
/* Is any child still linked? (a daemon shutting down waits for them) */
bool relay_kids_linked(void);
/* Close every child's link (they shut down); write what is queued first. */
void relay_drop_kids(void);
void relay_flush(void);
void relay_fini(void);
/* pmix_host.c: the PMIx server module */
int pmix_host_init(char *err, size_t errlen);
void pmix_host_fini(void);

/* fence.c: fence and direct modex across daemons */
struct fence_req;
void fence_submit(const pmix_proc_t *procs, size_t nprocs, bool collect, char *data, size_t ndata,
                  pmix_modex_cbfunc_t cbfunc, void *cbdata);
struct tide_ctl_msg;
void fence_release(const struct tide_ctl_msg *m);
/* The gathered part of child kid (relay.c), and the loss of a child. */
void fence_from_kid(int kid, const struct tide_ctl_msg *m);
void fence_kid_lost(int kid);
/* Recovery mode: a rank was reported failed (events.c); fences no longer
 * wait for it. */
void fence_rank_failed(const char *nspace, int rank);
void dmodex_submit(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc, void *cbdata);
void dmodex_serve(const struct tide_ctl_msg *m);
void dmodex_answer(const struct tide_ctl_msg *m);
void fence_fail_all(void);

/* events.c: PMIx events across nodes */
pmix_status_t events_notify_upcall(pmix_status_t code, const pmix_proc_t *source, pmix_data_range_t range,
                                   pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);
void events_deliver(const struct tide_ctl_msg *m);
/* dpm_host.c: spawn and names, relayed to mpiexec */
void dpm_host_register(pmix_server_module_t *m);
void dpm_spawn_result(const struct tide_ctl_msg *m);
void dpm_name_result(struct tide_rbuf *r);
void dpm_fail_all(void);

/* tided_main.c */
void tided_shutdown(int status);
void tided_maybe_exit(void);

#endif
