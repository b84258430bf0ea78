/*
 * server_nspace.c: builds the register_nspace info array from a job
 * description.
 */
#include "server_nspace.h"
#include "argv.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tide_nspace_local_rank(const struct tide_job *job, int rank)
{
    int lr = 0;
    for (int r = 0; r < rank; r++)
        if (job->rank_node[r] == job->rank_node[rank])
            lr++;
    return lr;
}

static char *ranks_on_node(const struct tide_job *job, int node, int *count)
{
    size_t cap = 16, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    *count = 0;
    for (int r = 0; r < job->nprocs; r++) {
        if (job->rank_node[r] != node)
            continue;
        char tmp[16];
        int n = snprintf(tmp, sizeof tmp, "%s%d", *count ? "," : "", r);
        if (len + (size_t)n + 1 > cap) {
            cap = (len + (size_t)n + 1) * 2;
            char *ns = realloc(s, cap);
            if (!ns) {
                free(s);
                return NULL;
            }
            s = ns;
        }
        memcpy(s + len, tmp, (size_t)n + 1);
        len += (size_t)n;
        (*count)++;
    }
    return s;
}

static int lowest_rank_on(const struct tide_job *job, int node)
{
    for (int r = 0; r < job->nprocs; r++)
        if (job->rank_node[r] == node)
            return r;
    return 0;
}

/* Append the converted list as one info element with the given key. */
static void add_array(void *outer, const char *key, void *inner)
{
    pmix_data_array_t darray;
    memset(&darray, 0, sizeof darray);
    PMIx_Info_list_convert(inner, &darray);
    PMIx_Info_list_add(outer, key, &darray, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_DESTRUCT(&darray);
    PMIx_Info_list_release(inner);
}

int tide_nspace_info(const struct tide_job *job, int node, pmix_info_t **info, size_t *ninfo,
                     int *nlocal)
{
    void *list = PMIx_Info_list_start();
    uint32_t u32;
    pmix_rank_t rk;
    bool yes = true;

    u32 = (uint32_t)job->universe_size;
    PMIx_Info_list_add(list, PMIX_UNIV_SIZE, &u32, PMIX_UINT32);
    u32 = (uint32_t)job->nprocs;
    PMIx_Info_list_add(list, PMIX_JOB_SIZE, &u32, PMIX_UINT32);
    u32 = (uint32_t)(job->universe_size > job->nprocs ? job->universe_size : job->nprocs);
    PMIx_Info_list_add(list, PMIX_MAX_PROCS, &u32, PMIX_UINT32);
    PMIx_Info_list_add(list, PMIX_JOBID, job->nspace, PMIX_STRING);
    /* the node and proc maps list only the nodes this job uses */
    int used_nodes = 0;
    char **used_hosts = NULL;
    for (int n = 0; n < job->nnodes; n++) {
        int c;
        char *s = ranks_on_node(job, n, &c);
        free(s);
        if (c > 0) {
            used_nodes++;
            tide_argv_append(&used_hosts, job->hosts[n]);
        }
    }
    u32 = (uint32_t)used_nodes;
    PMIx_Info_list_add(list, PMIX_NUM_NODES, &u32, PMIX_UINT32);
    u32 = (uint32_t)job->napps;
    PMIx_Info_list_add(list, PMIX_JOB_NUM_APPS, &u32, PMIX_UINT32);
    rk = 0;
    PMIx_Info_list_add(list, PMIX_NPROC_OFFSET, &rk, PMIX_PROC_RANK);

    /* node and proc maps */
    char *nodelist = tide_argv_join(used_hosts, ',');
    tide_argv_free(used_hosts);
    char *regex = NULL;
    if (PMIx_generate_regex(nodelist, &regex) == PMIX_SUCCESS && regex) {
        PMIx_Info_list_add(list, PMIX_NODE_MAP, regex, PMIX_REGEX);
        free(regex);
    }
    PMIx_Info_list_add(list, PMIX_NODE_LIST, nodelist, PMIX_STRING);
    free(nodelist);
    char **per_node = NULL;
    for (int n = 0; n < job->nnodes; n++) {
        int c;
        char *s = ranks_on_node(job, n, &c);
        if (c > 0)
            tide_argv_append(&per_node, s ? s : "");
        free(s);
    }
    char *ppn_in = tide_argv_join(per_node, ';');
    tide_argv_free(per_node);
    char *ppn = NULL;
    if (PMIx_generate_ppn(ppn_in, &ppn) == PMIX_SUCCESS && ppn) {
        PMIx_Info_list_add(list, PMIX_PROC_MAP, ppn, PMIX_REGEX);
        free(ppn);
    }
    free(ppn_in);

    if (job->parent_nspace) {
        pmix_proc_t parent;
        PMIX_PROC_LOAD(&parent, job->parent_nspace, (pmix_rank_t)job->parent_rank);
        PMIx_Info_list_add(list, PMIX_PARENT_ID, &parent, PMIX_PROC);
        PMIx_Info_list_add(list, PMIX_SPAWNED, &yes, PMIX_BOOL);
    }

    /* app level */
    for (int a = 0; a < job->napps; a++) {
        void *app = PMIx_Info_list_start();
        u32 = (uint32_t)a;
        PMIx_Info_list_add(app, PMIX_APPNUM, &u32, PMIX_UINT32);
        u32 = (uint32_t)job->apps[a].np;
        PMIx_Info_list_add(app, PMIX_APP_SIZE, &u32, PMIX_UINT32);
        rk = (pmix_rank_t)job->apps[a].first_rank;
        PMIx_Info_list_add(app, PMIX_APPLDR, &rk, PMIX_PROC_RANK);
        if (job->apps[a].wdir)
            PMIx_Info_list_add(app, PMIX_WDIR, job->apps[a].wdir, PMIX_STRING);
        add_array(list, PMIX_APP_INFO_ARRAY, app);
    }
    u32 = 0;
    PMIx_Info_list_add(list, PMIX_APPNUM, &u32, PMIX_UINT32);

    /* node level: every node, so remote lookups of hostnames work */
    int local_count = 0;
    for (int n = 0; n < job->nnodes; n++) {
        void *nd = PMIx_Info_list_start();
        PMIx_Info_list_add(nd, PMIX_HOSTNAME, job->hosts[n], PMIX_STRING);
        u32 = (uint32_t)n;
        PMIx_Info_list_add(nd, PMIX_NODEID, &u32, PMIX_UINT32);
        int c = 0;
        char *peers = ranks_on_node(job, n, &c);
        if (c == 0 && n != node) {
            free(peers);
            PMIx_Info_list_release(nd);
            continue;
        }
        u32 = (uint32_t)c;
        PMIx_Info_list_add(nd, PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
        PMIx_Info_list_add(nd, PMIX_NODE_SIZE, &u32, PMIX_UINT32);
        if (c > 0)
            PMIx_Info_list_add(nd, PMIX_LOCAL_PEERS, peers, PMIX_STRING);
        rk = (pmix_rank_t)lowest_rank_on(job, n);
        PMIx_Info_list_add(nd, PMIX_LOCALLDR, &rk, PMIX_PROC_RANK);
        bool over = c > job->node_slots[n];
        PMIx_Info_list_add(nd, PMIX_NODE_OVERSUBSCRIBED, &over, PMIX_BOOL);
        if (n == node)
            local_count = c;
        free(peers);
        add_array(list, PMIX_NODE_INFO_ARRAY, nd);
    }

    /* proc level */
    int *local_rank = calloc((size_t)job->nnodes, sizeof(int));
    for (int r = 0; r < job->nprocs; r++) {
        void *pd = PMIx_Info_list_start();
        int nd = job->rank_node[r];
        int a = tide_job_app_of(job, r);
        rk = (pmix_rank_t)r;
        PMIx_Info_list_add(pd, PMIX_RANK, &rk, PMIX_PROC_RANK);
        uint16_t lr = (uint16_t)(local_rank ? local_rank[nd]++ : 0);
        PMIx_Info_list_add(pd, PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIx_Info_list_add(pd, PMIX_NODE_RANK, &lr, PMIX_UINT16);
        u32 = (uint32_t)a;
        PMIx_Info_list_add(pd, PMIX_APPNUM, &u32, PMIX_UINT32);
        PMIx_Info_list_add(pd, PMIX_HOSTNAME, job->hosts[nd], PMIX_STRING);
        u32 = (uint32_t)nd;
        PMIx_Info_list_add(pd, PMIX_NODEID, &u32, PMIX_UINT32);
        PMIx_Info_list_add(pd, PMIX_GLOBAL_RANK, &rk, PMIX_PROC_RANK);
        rk = (pmix_rank_t)(r - job->apps[a].first_rank);
        PMIx_Info_list_add(pd, PMIX_APP_RANK, &rk, PMIX_PROC_RANK);
        add_array(list, PMIX_PROC_DATA, pd);
    }
    free(local_rank);

    pmix_data_array_t all;
    memset(&all, 0, sizeof all);
    pmix_status_t rc = PMIx_Info_list_convert(list, &all);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS)
        return -1;
    /* hand over the converted array itself */
    *info = (pmix_info_t *)all.array;
    *ninfo = all.size;
    *nlocal = local_count;
    return 0;
}
