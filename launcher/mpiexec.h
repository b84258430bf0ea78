/*
 * mpiexec.h: the launcher's state and the interfaces between its parts.
 * mpiexec is the hub of a universe: every tided connects to it; it maps
 * jobs, relays fences and modex requests between daemons, prints output,
 * and decides the exit status.
 */
#ifndef TIDE_MPIEXEC_H
#define TIDE_MPIEXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cmdline.h"
#include "jobdesc.h"
#include "ctltree.h"

struct event;
struct event_base;
struct tide_channel;
struct tide_rbuf;

struct mdaemon {
    int node;
    char host[256];
    pid_t pid;
    struct tide_channel *ch;
    bool hello;
    bool gone;
    bool remote;        /* started by the launch agent, linked over TCP */
    bool linked;        /* said hello (directly or along the tree) */
};

struct mrank {
    pid_t pid;
    bool exited;
    int how, code;
    bool connected, finalized;
    bool failed;    /* recovery mode: it failed and the job went on */
    bool announced; /* recovery mode: its failure event went to the daemons */
};

struct mjob {
    struct tide_job desc;
    struct mrank *ranks;
    int nexited;
    int launch_reports;   /* LAUNCHED messages received */
    bool launch_failed;
    bool start_failed;    /* recovery mode: a rank died before it connected; the job was ended */
    bool ended;           /* every rank has exited */
    struct mdaemon *spawn_daemon; /* a spawned job: who asked, to answer when launched */
    uint32_t spawn_reqid;
    char *launch_error;
    struct mjob *next;
};

/* why the job is being ended early (the first reason wins) */
enum end_reason {
    END_NONE,
    END_ABORT,
    END_SIGNALED_RANK,
    END_FAILED_RANK,
    END_NO_FINALIZE,
    END_TIMEOUT,
    END_USER_SIGNAL,
    END_LAUNCH_FAILED,
    END_DAEMON_LOST,
};

struct mpiexec {
    struct event_base *base;
    struct mpiexec_opts opts;
    int nnodes;
    char **hosts;
    int *slots;
    int *max_slots; /* a hostfile's max_slots per node (0: none), or NULL */
    int *used;
    bool *node_local;   /* node n is this machine: its tided is forked, not started by the agent */
    int alloc_source;   /* enum tide_alloc_source */
    struct mdaemon *daemons;
    struct tide_ctltree tree; /* the daemons of other hosts (routes.c) */
    struct mjob *jobs;
    uint32_t next_jobid;
    char session_dir[4096];
    char tided_path[4096];
    char nspace_base[200];
    int exit_status;
    enum end_reason end_reason;
    bool shutting_down;
    int user_signals;
    struct event *timeout_ev, *stdin_ev, *failsafe_ev;
    struct event *sig_int, *sig_term, *sig_hup, *sig_chld, *sig_usr1, *sig_usr2;
    bool stdin_done;
    /* recovery mode (recovery.c) */
    char **failed_names;  /* "rank 3", "rank 1 of spawned job 2": the job went on after each */
    int nfailed;
    int clean_ends;       /* ranks that ended without failing */
    int first_failure_status;
    bool summary_done;
};

extern struct mpiexec mx;

/* daemons.c */
int daemons_start(char *err, size_t errlen);
/* Run fn once every daemon is linked (at once if all are local). */
void daemons_when_ready(void (*fn)(void));
/* The launch agent's process ended (pid reaped): a daemon it was to start
 * that never linked up is a failed launch. */
void daemons_agent_exited(pid_t pid, int status);
/* A daemon said hello; one of another host counts as linked. */
void daemons_hello(struct mdaemon *d);
/* A daemon of the tree listens for its children at addresses: start them. */
void daemons_tree_ready(struct mdaemon *d, const char *addresses);
/* A daemon is lost (its link closed, or its parent in the tree says so):
 * it and its subtree count as gone. */
void daemon_lost(struct mdaemon *d, const char *why);
/* A daemon of the tree could not be started by its parent (why says how). */
void daemons_start_failed(struct mdaemon *d, const char *why);

/* agent.c */
#include "ctlauth.h"
/* Start the daemons of nodes[0..n-1] (all of other hosts), linking to hub. */
int agent_start(const uint8_t secret[TIDE_CTL_SECRET_LEN], const char *hub, const int *nodes, int n, char *err,
                size_t errlen);
/* srun starts every daemon at once: no tree below mpiexec then. */
bool agent_is_srun(void);
const char *agent_name(void);
void daemons_kill_jobs(int sig);
void daemons_kill_job(uint32_t jobid, int sig);
void daemons_shutdown(void);
void daemons_reap(void);
bool daemons_all_gone(void);
struct mdaemon *daemon_of_node(int node);

/* routes.c */
struct tide_wbuf;
bool daemon_up(const struct mdaemon *d);
/* Send to one daemon, along the tree if it has no link of its own (w is freed). */
int daemon_send(struct mdaemon *d, struct tide_wbuf *w);
/* Send to every daemon that is up (w is freed). */
int daemons_broadcast(struct tide_wbuf *w);

/* hub.c */
void hub_on_message(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg);
void hub_on_close(struct tide_channel *ch, const char *why, void *arg);
struct mjob *mjob_find_nspace(const char *nspace);
struct mjob *mjob_find(uint32_t jobid);
/* Recovery mode: pending fences stop waiting for nodes whose
 * participants have all failed. */
void fences_ranks_failed(void);

/* jobs.c */
struct job_app_spec {
    int np;
    const char *exe;   /* as given: resolved against wdir, path and PATH */
    char **argv;
    char **env;
    const char *wdir;
    const char *path;  /* extra directories to search (spawn's "path" key) */
    const char *hosts; /* "h1,h2": place the ranks on these nodes only (spawn's "host" key); NULL: anywhere */
};
struct job_parent {
    const char *nspace;
    uint32_t rank;
};
int job_build(const struct job_app_spec *specs, int napps, const struct job_parent *parent,
              struct mjob **out, char *err, size_t errlen);
/* The node named host (a name of the allocation, or one meaning this machine); -1 if none. */
int job_node_of_host(const char *host);
/* "core", "socket", ... -> enum tide_bind_policy; -1 if unknown. */
int job_bind_policy(const char *name, int *policy);
int job_build_primary(struct mjob **out, char *err, size_t errlen);
/* Recovery mode for this job (TIDE_JOB_RECOVERY, and TIDE_ENABLE_RECOVERY
 * in its ranks' environment): a rank's failure does not end the run. */
void job_set_recovery(struct mjob *job, bool on);
/* Drop a job that was built but not launched (its slots are freed). */
void job_discard(struct mjob *job);
int job_resolve_exe(const char *name, const char *wdir, const char *search, char *out, size_t outlen,
                    char *err, size_t errlen);
int job_check_wdir(const char *wdir, char *err, size_t errlen);
int job_launch(struct mjob *job);
bool jobs_all_done(void);
void jobs_release_if_done(struct mjob *job);

/* limits.c: 0 if this machine can hold the job (just built, so mx.used
 * counts it); else -1 and a message naming the limit in err. */
int limits_check(const struct mjob *job, char *err, size_t errlen);

/* spawn.c */
void spawn_on_request(struct mdaemon *d, struct tide_rbuf *r);
void spawn_launch_report(struct mjob *job);

/* names.c */
void names_on_publish(struct mdaemon *d, struct tide_rbuf *r);
void names_on_lookup(struct mdaemon *d, struct tide_rbuf *r);
void names_on_unpublish(struct mdaemon *d, struct tide_rbuf *r);
void names_job_ended(const char *nspace);
void names_daemon_lost(struct mdaemon *d);
void names_wake_waiters(void);
/* Requests to the name service still out: true if so, and fn runs once
 * they are answered (or after a few seconds); false if there are none. */
bool names_drain_then(void (*fn)(void));

/* recovery.c: recovery mode, where a rank's failure does not end the run */
/* Does the failure of a rank of job leave the run going? (a recovery
 * job, and the run is not already being ended) */
bool recovery_goes_on(const struct mjob *job);
/* A rank of a recovery job ended abnormally: says so on stderr, records
 * it for the summary and tells every daemon (a PMIx event to every rank). */
void recovery_rank_failed(struct mjob *job, int rank, pid_t pid, int how, int code, bool connected);
/* A rank that ended cleanly (it counts for the exit status). */
void recovery_rank_ended_cleanly(void);
/* Does the loss of daemon d (and its subtree) leave the run going? */
bool recovery_node_loss_goes_on(const struct mdaemon *d);
/* Daemon d and its subtree are lost (their ranks marked failed, not yet
 * announced): one line on stderr, and an event per rank to the others. */
void recovery_nodes_lost(const struct mdaemon *d, const char *why);
/* Once, at the end: the line naming the ranks that failed (if any), and
 * the exit status when no rank ended cleanly. */
void recovery_summary(void);
/* A rank's name in mpiexec's messages: "rank 3" or "rank 3 of spawned job 2". */
void recovery_rank_name(const struct mjob *job, int rank, char *out, size_t len);

/* output.c */
void output_write(struct mjob *job, int rank, int stream, const void *data, size_t len);
void stdin_start(void);
void stdin_stop(void);

/* mpiexec_main.c */
void mpiexec_end_job(enum end_reason why, int status);
void mpiexec_check_done(void);
void mpiexec_finish(void);

#endif
