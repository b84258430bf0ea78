/*
 * hub.c: mpiexec's side of the control protocol. Handles what each tided
 * reports (launch results, output, exits, aborts), collects fences across
 * daemons and routes direct-modex requests to the daemon holding the data.
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "ctlroute.h"
#include "log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mjob *mjob_find(uint32_t jobid)
{
    for (struct mjob *j = mx.jobs; j; j = j->next)
        if (j->desc.jobid == jobid)
            return j;
    return NULL;
}

struct mjob *mjob_find_nspace(const char *nspace)
{
    for (struct mjob *j = mx.jobs; j; j = j->next)
        if (strcmp(j->desc.nspace, nspace) == 0)
            return j;
    return NULL;
}

static const char *rank_host(struct mjob *job, int rank)
{
    return mx.hosts[job->desc.rank_node[rank]];
}

static void on_launched(struct mdaemon *d, const struct tide_ctl_msg *m)
{
    uint32_t jobid = m->jobid;
    int status = m->status;
    const char *msg = m->text;
    struct mjob *job = mjob_find(jobid);
    if (job)
        job->launch_reports++;
    if (status != 0 && job && (job->desc.flags & TIDE_JOB_SPAWNED)) {
        /* a spawned job that cannot start: its parent gets the error */
        job->launch_failed = true;
        if (!job->launch_error && msg) {
            char text[1024];
            snprintf(text, sizeof text, "%s (on %s)", msg, d->host);
            job->launch_error = strdup(text);
        }
        daemons_kill_job(job->desc.jobid, SIGKILL);
    } else if (status != 0) {
        if (job)
            job->launch_failed = true;
        if (mx.end_reason == END_NONE)
            fprintf(stderr, "mpiexec: %s (on %s)\n", msg ? msg : "launch failed", d->host);
        mpiexec_end_job(END_LAUNCH_FAILED, msg && strstr(msg, "cannot execute") ? 127 : 1);
    }
    if (job) {
        spawn_launch_report(job);
        jobs_release_if_done(job);
    }
}

static void on_io(const struct tide_ctl_msg *m)
{
    struct mjob *job = mjob_find(m->jobid);
    if (!job || m->rank >= (uint32_t)job->desc.nprocs)
        return;
    output_write(job, (int)m->rank, m->stream, m->data, m->len);
}

/* One more rank of job has ended (or counts as ended). */
static void count_exit(struct mjob *job)
{
    job->nexited++;
    if (job->nexited == job->desc.nprocs) {
        job->ended = true;
        names_job_ended(job->desc.nspace);
        for (int k = 0; k < job->desc.nprocs; k++)
            mx.used[job->desc.rank_node[k]]--;
    }
}

static void on_exit_msg(const struct tide_ctl_msg *m)
{
    uint32_t jobid = m->jobid;
    uint32_t rank = m->rank;
    uint32_t pid = m->pid;
    int how = m->how;
    int code = m->code;
    bool connected = m->connected;
    bool finalized = m->finalized;
    struct mjob *job = mjob_find(jobid);
    if (!job || rank >= (uint32_t)job->desc.nprocs)
        return;
    struct mrank *rk = &job->ranks[rank];
    if (rk->exited)
        return;
    rk->exited = true;
    rk->pid = (pid_t)pid;
    rk->how = how;
    rk->code = code;
    rk->connected = connected;
    rk->finalized = finalized;
    count_exit(job);
    if (job->launch_failed && (job->desc.flags & TIDE_JOB_SPAWNED)) {
        jobs_release_if_done(job);
        mpiexec_check_done(); /* a spawn that failed: its parent was told */
        return;
    }
    const char *host = rank_host(job, (int)rank);
    char who[64];
    recovery_rank_name(job, (int)rank, who, sizeof who);
    TIDE_DEBUG(1, "%s (pid %u) ended: how %d code %d%s", who, pid, how, code,
               finalized ? " (finalized)" : "");
    bool failed = how == TIDE_EXIT_SIGNALED || (how == TIDE_EXIT_NORMAL && (code != 0 || (connected && !finalized)));
    if (failed && recovery_goes_on(job)) {
        /* recovery mode: the others are told, the run goes on */
        recovery_rank_failed(job, (int)rank, (pid_t)pid, how, code, connected);
    } else if (how == TIDE_EXIT_SIGNALED) {
        if (mx.end_reason == END_NONE)
            fprintf(stderr, "mpiexec: %s (pid %u) on host %s was killed by signal %d (%s)\n", who, pid,
                    host, code, strsignal(code));
        mpiexec_end_job(END_SIGNALED_RANK, 128 + code);
    } else if (how == TIDE_EXIT_NORMAL && code != 0) {
        if (mx.end_reason == END_NONE)
            fprintf(stderr, "mpiexec: %s (pid %u) on host %s exited with status %d\n", who, pid, host,
                    code);
        mpiexec_end_job(END_FAILED_RANK, code);
    } else if (how == TIDE_EXIT_NORMAL && connected && !finalized) {
        if (mx.end_reason == END_NONE)
            fprintf(stderr,
                    "mpiexec: %s (pid %u) on host %s exited without calling MPI_Finalize\n", who,
                    pid, host);
        mpiexec_end_job(END_NO_FINALIZE, 1);
    } else if (!failed && how == TIDE_EXIT_NORMAL) {
        recovery_rank_ended_cleanly();
    }
    if (jobid == 0 && rank == 0)
        stdin_stop();
    jobs_release_if_done(job);
    mpiexec_check_done();
}

static void on_abort(const struct tide_ctl_msg *m)
{
    uint32_t jobid = m->jobid;
    uint32_t rank = m->rank;
    int status = m->status;
    const char *msg = m->text;
    struct mjob *job = mjob_find(jobid);
    if (!job || rank >= (uint32_t)job->desc.nprocs)
        return;
    if (mx.end_reason == END_NONE)
        fprintf(stderr, "mpiexec: rank %u%s on host %s called MPI_Abort with error code %d%s%s\n",
                rank, jobid ? " of a spawned job" : "", rank_host(job, (int)rank), status,
                msg && *msg ? ": " : "", msg ? msg : "");
    int st = status & 0xff;
    if (st == 0 && status != 0)
        st = 1;
    mpiexec_end_job(END_ABORT, st);
}

/* A PMIx event a rank raised beyond its node: to every daemon (the one
 * it came from skips it), named by where it really came from. */
static void on_event(struct mdaemon *d, const struct tide_ctl_msg *m)
{
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_EVENT);
    tide_wire_put_u32(&w, (uint32_t)d->node);
    tide_wire_put_i32(&w, m->status);
    tide_wire_put_str(&w, m->text);
    tide_wire_put_u32(&w, m->rank);
    tide_wire_put_u32(&w, m->count);
    tide_wire_put_bytes(&w, m->data, m->len);
    TIDE_DEBUG(2, "event %d from %s:%u (node %d) passed to every daemon", m->status, m->text, m->rank, d->node);
    daemons_broadcast(&w);
}

static void on_notice(const struct tide_ctl_msg *m)
{
    if (m->text)
        fprintf(stderr, "mpiexec: %s\n", m->text);
}

/* ---- fences ---- */

struct fence_part {
    char *nspace;
    uint32_t rank; /* or TIDE_RANK_WILDCARD */
};

struct mfence {
    char *sig;
    struct fence_part *parts; /* the participants */
    uint32_t nparts;
    bool *expected;   /* per node */
    bool *contributed;
    bool *sender;     /* per node: its daemon sent us a part (and gets the release) */
    int nexpected, ncontributed;
    uint8_t *data;
    size_t len, cap;
    int status;
    struct mfence *next;
};

static struct mfence *fences;
static void fence_keep_parts(struct mfence *f, const struct tide_ctl_msg *m);

static void fence_append(struct mfence *f, const void *data, size_t n)
{
    if (f->len + n > f->cap) {
        size_t cap = (f->len + n) * 2;
        uint8_t *nd = realloc(f->data, cap);
        if (!nd) {
            f->status = -1;
            return;
        }
        f->data = nd;
        f->cap = cap;
    }
    if (n)
        memcpy(f->data + f->len, data, n);
    f->len += n;
}

static void fence_send_release(const char *sig, int node, int status, const void *data, size_t n)
{
    struct mdaemon *d = daemon_of_node(node);
    if (!daemon_up(d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_FENCE_RELEASE);
    tide_wire_put_str(&w, sig);
    tide_wire_put_i32(&w, status);
    tide_wire_put_bytes(&w, data, n);
    daemon_send(d, &w);
}

static void fence_complete(struct mfence *f)
{
    for (struct mfence **pp = &fences; *pp; pp = &(*pp)->next)
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    /* down the paths the parts came up: each sender passes it on */
    for (int n = 0; n < mx.nnodes; n++)
        if (f->sender[n])
            fence_send_release(f->sig, n, f->status, f->data, f->len);
    free(f->sig);
    for (uint32_t i = 0; i < f->nparts; i++)
        free(f->parts[i].nspace);
    free(f->parts);
    free(f->expected);
    free(f->contributed);
    free(f->sender);
    free(f->data);
    free(f);
}

static void on_fence(struct mdaemon *d, struct tide_ctl_msg *m)
{
    char *sig = m->text;
    m->text = NULL; /* ours now */
    bool *nodes = calloc((size_t)mx.nnodes, sizeof(bool));
    int status = 0;
    for (uint32_t i = 0; i < m->nprocs && nodes; i++) {
        const char *ns = m->procs[i].nspace;
        uint32_t rank = m->procs[i].rank;
        struct mjob *job = ns ? mjob_find_nspace(ns) : NULL;
        if (!job) {
            status = -1;
            continue;
        }
        if (rank == TIDE_RANK_WILDCARD) {
            for (int k = 0; k < job->desc.nprocs; k++)
                nodes[job->desc.rank_node[k]] = true;
        } else if (rank < (uint32_t)job->desc.nprocs) {
            nodes[job->desc.rank_node[rank]] = true;
        } else {
            status = -1;
        }
    }
    /* m->collect: the daemons' blobs say it themselves */
    size_t n = m->len;
    const void *data = m->data;
    if (!nodes) {
        free(sig);
        tide_error("out of memory for a fence from node %d", d->node);
        return;
    }
    if (status != 0) {
        fence_send_release(sig, d->node, -1, NULL, 0);
        free(nodes);
        free(sig);
        return;
    }
    /* the nodes this part covers: the sender's and its subtree's */
    bool covers_ok = m->ncovered > 0;
    for (uint32_t i = 0; i < m->ncovered && covers_ok; i++) {
        uint32_t c = m->covered[i];
        covers_ok = c < (uint32_t)mx.nnodes &&
                    (c == (uint32_t)d->node || tide_ctltree_in_subtree(&mx.tree, d->node, (int)c));
    }
    if (!covers_ok) {
        fence_send_release(sig, d->node, -1, NULL, 0);
        free(nodes);
        free(sig);
        return;
    }
    /* the oldest fence of this set that has none of these nodes yet */
    struct mfence *f = fences;
    while (f && (strcmp(f->sig, sig) != 0 || f->contributed[m->covered[0]]))
        f = f->next;
    if (!f) {
        f = calloc(1, sizeof *f);
        f->sig = sig;
        f->expected = nodes;
        f->contributed = calloc((size_t)mx.nnodes, sizeof(bool));
        f->sender = calloc((size_t)mx.nnodes, sizeof(bool));
        for (int k = 0; k < mx.nnodes; k++)
            f->nexpected += nodes[k];
        struct mfence **tail = &fences;
        while (*tail)
            tail = &(*tail)->next;
        *tail = f;
    } else {
        free(sig);
        free(nodes);
    }
    f->sender[d->node] = true;
    for (uint32_t i = 0; i < m->ncovered; i++) {
        uint32_t c = m->covered[i];
        if (f->contributed[c])
            continue;
        f->contributed[c] = true;
        if (f->expected[c])
            f->ncontributed++;
    }
    fence_append(f, data, n);
    TIDE_DEBUG(3, "fence %s: %d of %d daemons", f->sig, f->ncontributed, f->nexpected);
    if (!f->parts)
        fence_keep_parts(f, m);
    if (f->ncontributed >= f->nexpected)
        fence_complete(f);
    else if (mx.nfailed > 0)
        fences_ranks_failed();
}

/* A daemon that went away can no longer contribute: fail its fences (in
 * recovery mode its ranks failed, and the fence goes on without them, as
 * libpmix's own does when a participant of one node dies). */
static void fences_node_lost(int node, bool recovering)
{
    for (struct mfence *f = fences, *next; f; f = next) {
        next = f->next;
        if (f->expected[node] && !f->contributed[node]) {
            if (!recovering)
                f->status = -1;
            f->expected[node] = false;
            f->nexpected--;
            if (f->ncontributed >= f->nexpected)
                fence_complete(f);
        }
    }
}

/* Recovery mode: does node still owe fence f a part, that is, does it
 * hold a participant that has not failed (and is its daemon up)? */
static bool fence_node_owes(const struct mfence *f, int node)
{
    if (mx.daemons[node].gone)
        return false;
    for (uint32_t i = 0; i < f->nparts; i++) {
        struct mjob *job = mjob_find_nspace(f->parts[i].nspace);
        if (!job)
            continue;
        for (int k = 0; k < job->desc.nprocs; k++)
            if ((f->parts[i].rank == TIDE_RANK_WILDCARD || f->parts[i].rank == (uint32_t)k) &&
                job->desc.rank_node[k] == node && !job->ranks[k].failed)
                return true;
    }
    return false;
}

/* Recovery mode: remember who takes part in f, so the nodes whose
 * participants all failed can be let off (fences_ranks_failed). */
static void fence_keep_parts(struct mfence *f, const struct tide_ctl_msg *m)
{
    f->parts = calloc(m->nprocs ? m->nprocs : 1, sizeof *f->parts);
    if (!f->parts)
        return;
    for (uint32_t i = 0; i < m->nprocs; i++) {
        f->parts[f->nparts].nspace = strdup(m->procs[i].nspace ? m->procs[i].nspace : "");
        f->parts[f->nparts].rank = m->procs[i].rank;
        if (f->parts[f->nparts].nspace)
            f->nparts++;
    }
}

void fences_ranks_failed(void)
{
    for (struct mfence *f = fences, *next; f; f = next) {
        next = f->next;
        if (!f->parts)
            continue;
        for (int n = 0; n < mx.nnodes; n++)
            if (f->expected[n] && !f->contributed[n] && !fence_node_owes(f, n)) {
                TIDE_DEBUG(2, "fence %s goes on without node %d (its participants failed)", f->sig, n);
                f->expected[n] = false;
                f->nexpected--;
            }
        if (f->ncontributed >= f->nexpected)
            fence_complete(f);
    }
}

/* ---- direct modex routing ---- */

static void send_dmodex_error(int to_node, uint32_t id)
{
    struct mdaemon *d = daemon_of_node(to_node);
    if (!daemon_up(d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_DMODEX_RESP);
    tide_wire_put_u32(&w, id);
    tide_wire_put_u32(&w, (uint32_t)to_node);
    tide_wire_put_i32(&w, -1);
    tide_wire_put_bytes(&w, NULL, 0);
    daemon_send(d, &w);
}

static void on_dmodex_req(struct mdaemon *from, const struct tide_ctl_msg *m)
{
    uint32_t id = m->id;
    const char *ns = m->text;
    uint32_t rank = m->rank;
    struct mjob *job = mjob_find_nspace(ns);
    struct mdaemon *to = NULL;
    if (job && rank < (uint32_t)job->desc.nprocs)
        to = daemon_of_node(job->desc.rank_node[rank]);
    if (!daemon_up(to) || to == from) {
        send_dmodex_error(from->node, id);
        return;
    }
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_DMODEX_REQ);
    tide_wire_put_u32(&w, id);
    tide_wire_put_u32(&w, (uint32_t)from->node);
    tide_wire_put_str(&w, ns);
    tide_wire_put_u32(&w, rank);
    daemon_send(to, &w);
}

static void on_dmodex_resp(const struct tide_ctl_msg *m)
{
    uint32_t id = m->id;
    uint32_t to_node = m->node;
    int status = m->status;
    size_t n = m->len;
    const void *data = m->data;
    struct mdaemon *to = daemon_of_node((int)to_node);
    if (!daemon_up(to))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_DMODEX_RESP);
    tide_wire_put_u32(&w, id);
    tide_wire_put_u32(&w, to_node);
    tide_wire_put_i32(&w, status);
    tide_wire_put_bytes(&w, data, n);
    daemon_send(to, &w);
}

/* A message from below d in the tree: checked to come from its subtree,
 * then handled as if that daemon had sent it. */
static void on_route(struct tide_channel *ch, struct mdaemon *d, struct tide_rbuf *r)
{
    struct tide_route rt;
    if (tide_route_decode(r, &rt) != 0 || rt.dst != TIDE_ROUTE_HUB) {
        tide_error("ignoring a malformed routed message from node %d", d->node);
        return;
    }
    struct mdaemon *src = daemon_of_node((int)rt.src);
    if (!src || src == d || src->gone || !tide_ctltree_in_subtree(&mx.tree, d->node, src->node)) {
        tide_error("ignoring a routed message from node %d claiming node %u", d->node, rt.src);
        return;
    }
    struct tide_rbuf inner;
    tide_wire_reader(&inner, rt.payload, rt.len);
    hub_on_message(ch, rt.type, &inner, src);
}

static void on_tree_msg(struct mdaemon *d, uint16_t type, struct tide_rbuf *r)
{
    if (type == TIDE_CTL_TREE_READY) {
        char *addresses = tide_wire_get_str(r);
        if (addresses && tide_wire_done(r))
            daemons_tree_ready(d, addresses);
        free(addresses);
        return;
    }
    uint32_t node = tide_wire_get_u32(r);
    char *why = tide_wire_get_str(r);
    struct mdaemon *lost = daemon_of_node((int)node);
    if (tide_wire_done(r) && lost && tide_ctltree_parent(&mx.tree, lost->node) == d->node && !lost->linked)
        daemons_start_failed(lost, why ? why : "it did not start");
    else if (tide_wire_done(r) && lost && tide_ctltree_parent(&mx.tree, lost->node) == d->node)
        daemon_lost(lost, why ? why : "lost");
    else
        tide_error("ignoring a malformed node-lost report from node %d", d->node);
    free(why);
}

void hub_on_message(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg)
{
    struct mdaemon *d = arg;
    switch (type) {
    case TIDE_CTL_ROUTE: on_route(ch, d, r); return;
    case TIDE_CTL_TREE_READY:
    case TIDE_CTL_NODE_LOST: on_tree_msg(d, type, r); return;
    case TIDE_CTL_SPAWN: spawn_on_request(d, r); return;
    case TIDE_CTL_PUBLISH: names_on_publish(d, r); return;
    case TIDE_CTL_LOOKUP: names_on_lookup(d, r); return;
    case TIDE_CTL_UNPUBLISH: names_on_unpublish(d, r); return;
    case TIDE_CTL_HELLO:
    case TIDE_CTL_LAUNCHED:
    case TIDE_CTL_IO:
    case TIDE_CTL_EXIT:
    case TIDE_CTL_ABORT:
    case TIDE_CTL_FENCE:
    case TIDE_CTL_DMODEX_REQ:
    case TIDE_CTL_DMODEX_RESP:
    case TIDE_CTL_NOTICE:
    case TIDE_CTL_EVENT: break;
    default: tide_error("ignoring unknown message %u from node %d", type, d->node); return;
    }
    struct tide_ctl_msg m;
    if (tide_ctl_decode(type, r, &m) != 0) {
        tide_error("ignoring a malformed control message %u from node %d", type, d->node);
        return;
    }
    switch (type) {
    case TIDE_CTL_HELLO:
        d->hello = true;
        daemons_hello(d);
        TIDE_DEBUG(2, "tided of node %d says hello from %s", d->node, m.text ? m.text : "?");
        break;
    case TIDE_CTL_LAUNCHED: on_launched(d, &m); break;
    case TIDE_CTL_IO: on_io(&m); break;
    case TIDE_CTL_EXIT: on_exit_msg(&m); break;
    case TIDE_CTL_ABORT: on_abort(&m); break;
    case TIDE_CTL_FENCE: on_fence(d, &m); break;
    case TIDE_CTL_DMODEX_REQ: on_dmodex_req(d, &m); break;
    case TIDE_CTL_DMODEX_RESP: on_dmodex_resp(&m); break;
    case TIDE_CTL_NOTICE: on_notice(&m); break;
    case TIDE_CTL_EVENT: on_event(d, &m); break;
    default: break;
    }
    tide_ctl_msg_clear(&m);
}

/* Node n is lost: its ranks can no longer report, count them as ended
 * (in recovery mode, as failed). */
static bool node_lost(struct mdaemon *n, bool recovering)
{
    n->gone = true;
    names_daemon_lost(n);
    fences_node_lost(n->node, recovering);
    bool lost_ranks = false;
    for (struct mjob *j = mx.jobs; j; j = j->next)
        for (int k = 0; k < j->desc.nprocs; k++)
            if (j->desc.rank_node[k] == n->node && !j->ranks[k].exited) {
                j->ranks[k].exited = true;
                lost_ranks = true;
                if (recovering) {
                    j->ranks[k].failed = true;
                    count_exit(j);
                } else {
                    j->nexited++;
                }
            }
    return lost_ranks;
}

void daemon_lost(struct mdaemon *d, const char *why)
{
    if (d->gone)
        return;
    bool recovering = recovery_node_loss_goes_on(d);
    bool lost_ranks = node_lost(d, recovering);
    /* the daemons below it in the tree went with its link */
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *m = &mx.daemons[n];
        if (m != d && !m->gone && tide_ctltree_in_subtree(&mx.tree, d->node, n))
            lost_ranks |= node_lost(m, recovering);
    }
    if (recovering) {
        /* recovery mode: the ranks that were there count as failed, the
         * others are told, the run goes on with the remaining nodes */
        recovery_nodes_lost(d, why);
        for (struct mjob *j = mx.jobs, *next; j; j = next) {
            next = j->next;
            jobs_release_if_done(j);
        }
    } else if (lost_ranks || !mx.shutting_down) {
        if (!mx.shutting_down && mx.end_reason == END_NONE)
            fprintf(stderr, "mpiexec: lost contact with tided on node %d (%s): %s\n", d->node,
                    d->host, why);
        mpiexec_end_job(END_DAEMON_LOST, 1);
    }
    mpiexec_check_done();
}

void hub_on_close(struct tide_channel *ch, const char *why, void *arg)
{
    struct mdaemon *d = arg;
    tide_channel_free(ch);
    d->ch = NULL;
    daemon_lost(d, why);
}
