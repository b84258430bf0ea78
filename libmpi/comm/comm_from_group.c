/*
 * comm_from_group.c: groups and communicators of the sessions model
 * (MPI-4.0 sections 7.3.2, 7.4.2 and 7.6.2): MPI_Group_from_session_pset,
 * MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups.
 *
 * A communicator made from a group has no parent communicator whose
 * members take part: only the group's members call. They agree on a
 * context id as MPI_Comm_create_group's members do (context.c, the
 * offers reduced among the members alone), over the runtime's internal
 * communicator of the whole job, which exists whenever a session or the
 * world model holds the runtime (runtime.h). The messages of one creation
 * carry a tag made from a hash of its string tag, in a tag range of their
 * own, so concurrent creations with different string tags over
 * overlapping groups do not mix. The groups must therefore be made of
 * processes of this job (those of the process sets); processes of other
 * jobs (spawned, connected) are refused with MPI_ERR_GROUP.
 */
#include "runtime/api.h"
#include "comm/endpoints.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/proc.h"
#include "runtime/session.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/group.h"
#include "comm/intercomm.h"

#include <stdlib.h>
#include <string.h>

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Group_from_session_pset";
    struct tide_session *s = tide_session_get(session);
    if (!s)
        return TIDE_ERR(MPI_ERR_SESSION, "%s: invalid session%s (argument session)", fn,
                        session == MPI_SESSION_NULL ? " MPI_SESSION_NULL" : "");
    if (!pset_name)
        return tide_raise_session(s, tide_err(MPI_ERR_ARG, "%s: pset_name must not be NULL", fn));
    if (!newgroup)
        return tide_raise_session(s, tide_err(MPI_ERR_ARG, "%s: newgroup must not be NULL", fn));
    int k = tide_pset_index(pset_name);
    if (k < 0)
        return tide_raise_session(s, tide_err(MPI_ERR_ARG, "%s: no process set \"%.128s\" (argument pset_name; %s or %s)",
                                              fn, pset_name, TIDE_PSET_WORLD, TIDE_PSET_SELF));
    const struct tide_group *from = (k == 0 ? tide_comm_world : tide_comm_self)->group;
    struct tide_group *g = tide_group_new(from->size, from->procs);
    if (!g)
        return tide_raise_session(s, tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    MPI_Group h = tide_group_handle(g);
    if (h == MPI_GROUP_NULL) {
        tide_group_release(g);
        return tide_raise_session(s, tide_err(MPI_ERR_NO_MEM, "%s: no handle left for a new group", fn));
    }
    *newgroup = h;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_from_session_pset)

/* FNV-1a of a string tag, with a salt for the different uses of one tag */
static uint32_t tag_hash(const char *stringtag, uint32_t salt)
{
    uint32_t h = 2166136261u ^ salt;
    for (const char *c = stringtag; *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    return h;
}

/* Raise on the error handler the caller passed (errors of these calls
 * have no communicator yet). */
static int raise_on(MPI_Errhandler eh, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!tide_errhandler_get(eh))
        return tide_raise(code);
    return tide_errhandler_invoke(eh, TIDE_EH_COMM, MPI_COMM_NULL, "a new communicator", code);
}

/* The arguments every form checks: the runtime is up, the error handler
 * is one for communicators, info valid, the string tag given. */
static int check_common(const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, const char *fn)
{
    if (!tide_comm_world)
        return tide_err(MPI_ERR_OTHER, "%s: neither MPI_Init nor MPI_Session_init has been called", fn);
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e || (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_COMM))
        return tide_err(MPI_ERR_ARG, "%s: invalid error handler for a communicator (argument errhandler)", fn);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return tide_err(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!stringtag)
        return tide_err(MPI_ERR_ARG, "%s: stringtag must not be NULL", fn);
    if (strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
        return tide_err(MPI_ERR_ARG, "%s: stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1 (%d) (argument stringtag)",
                        fn, MPI_MAX_STRINGTAG_LEN - 1);
    return MPI_SUCCESS;
}

/* The ranks in the job's communicator of g's members, or an error. */
static int job_ranks(const struct tide_group *g, int **ranks, const char *what, const char *fn)
{
    int *r = malloc((size_t)(g->size ? g->size : 1) * sizeof *r);
    if (!r)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < g->size; i++) {
        r[i] = tide_group_rank_of(tide_comm_world->group, g->procs[i]);
        if (r[i] == MPI_UNDEFINED) {
            free(r);
            return tide_err(MPI_ERR_GROUP,
                            "%s: process %d of %s (%s:%u) is not of this job; only processes of the process sets "
                            "can form a communicator without a parent",
                            fn, i, what, g->procs[i]->nspace, g->procs[i]->rank);
        }
    }
    *ranks = r;
    return MPI_SUCCESS;
}

/* The communicator over g (this process a member) for the creation
 * named by stringtag and salt. */
static int create_over(struct tide_group *g, const char *stringtag, uint32_t salt, const char *fn,
                       struct tide_comm **out)
{
    int *ranks;
    int rc = job_ranks(g, &ranks, "the group", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    uint32_t id;
    rc = tide_context_agree_sub(tide_comm_world, g->size, g->rank, ranks,
                                tide_tag_from_group(tag_hash(stringtag, salt)), &id);
    free(ranks);
    if (rc != MPI_SUCCESS)
        return rc;
    *out = tide_comm_derive(NULL, g, NULL, id, NULL);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
}

/* What the caller asked of the new communicator: hints and handler. */
static int finish(struct tide_comm *nc, MPI_Info info, MPI_Errhandler errhandler, const char *fn)
{
    struct tide_info *hints = tide_info_get(info);
    if (hints && hints->nkeys > 0 && tide_info_dup_internal(hints, &nc->info) != MPI_SUCCESS) {
        tide_comm_release(nc);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for the hints", fn);
    }
    tide_errhandler_retain(errhandler);
    tide_errhandler_release(nc->errhandler);
    nc->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_create_from_group";
    int rc = check_common(stringtag, info, errhandler, fn);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    struct tide_group *g = tide_group_get(group);
    if (!g)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: invalid group%s (argument group)", fn,
                                             group == MPI_GROUP_NULL ? " MPI_GROUP_NULL" : ""));
    if (!newcomm)
        return raise_on(errhandler, tide_err(MPI_ERR_ARG, "%s: newcomm must not be NULL", fn));
    if (g->ep)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: a group of endpoints (argument group; make "
                                                            "communicators of endpoints from one: see docs/ENDPOINTS.md)",
                                             fn));
    if (g->size == 0) { /* MPI_GROUP_EMPTY: nothing to make */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    if (g->rank == MPI_UNDEFINED)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP,
                                             "%s: this process is not in the group (argument group; only its "
                                             "members call)",
                                             fn));
    struct tide_comm *nc;
    rc = create_over(g, stringtag, 0, fn, &nc);
    if (rc == MPI_SUCCESS)
        rc = finish(nc, info, errhandler, fn);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_create_from_group)

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Intercomm_create_from_groups";
    int rc = check_common(stringtag, info, errhandler, fn);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    struct tide_group *lg = tide_group_get(local_group), *rg = tide_group_get(remote_group);
    if (!lg || lg->size == 0)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: invalid or empty group (argument local_group)", fn));
    if (!rg || rg->size == 0)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: invalid or empty group (argument remote_group)", fn));
    if (lg->ep || rg->ep)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: a group of endpoints (argument %s; see "
                                                            "docs/ENDPOINTS.md)",
                                             fn, lg->ep ? "local_group" : "remote_group"));
    if (lg->rank == MPI_UNDEFINED)
        return raise_on(errhandler, tide_err(MPI_ERR_GROUP, "%s: this process is not in local_group (argument "
                                                            "local_group)",
                                             fn));
    if (local_leader < 0 || local_leader >= lg->size)
        return raise_on(errhandler, tide_err(MPI_ERR_RANK, "%s: invalid rank %d (argument local_leader; the local "
                                                           "group has %d processes)",
                                             fn, local_leader, lg->size));
    if (remote_leader < 0 || remote_leader >= rg->size)
        return raise_on(errhandler, tide_err(MPI_ERR_RANK, "%s: invalid rank %d (argument remote_leader; the remote "
                                                           "group has %d processes)",
                                             fn, remote_leader, rg->size));
    if (!newintercomm)
        return raise_on(errhandler, tide_err(MPI_ERR_ARG, "%s: newintercomm must not be NULL", fn));
    int *rranks = NULL;
    rc = job_ranks(rg, &rranks, "the remote group", fn);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    int leader_world = rranks[remote_leader];
    free(rranks);
    /* the local group's own communicator (the two groups are disjoint,
     * so both can use the same tag), then the leaders meet over the
     * job's communicator */
    struct tide_comm *lc, *ic = NULL;
    rc = create_over(lg, stringtag, 1, fn, &lc);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    if (lc->rank == local_leader)
        tide_leader_chan_pt2pt(&ch, &pc, tide_comm_world, leader_world, tide_comm_world->context_id + 1,
                               tide_tag_from_group(tag_hash(stringtag, 2)));
    rc = tide_intercomm_build(lc, local_leader, lc->rank == local_leader ? &ch : NULL, MPI_SUCCESS, fn, &ic);
    tide_comm_release(lc);
    if (rc == MPI_SUCCESS)
        rc = finish(ic, info, errhandler, fn);
    if (rc != MPI_SUCCESS)
        return raise_on(errhandler, rc);
    *newintercomm = ic->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Intercomm_create_from_groups)
