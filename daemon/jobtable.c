/*
 * jobtable.c: the jobs this daemon serves and lookups of their ranks.
 * Jobs are few (a job and its spawned children); a list is enough.
 */
#include "tided.h"

#include <string.h>

struct djob *djob_find(const char *nspace)
{
    for (struct djob *j = tided.jobs; j; j = j->next)
        if (strcmp(j->desc.nspace, nspace) == 0)
            return j;
    return NULL;
}

struct djob *djob_find_id(uint32_t jobid)
{
    for (struct djob *j = tided.jobs; j; j = j->next)
        if (j->desc.jobid == jobid)
            return j;
    return NULL;
}

struct dproc *dproc_find(const char *nspace, int rank)
{
    struct djob *j = djob_find(nspace);
    if (!j)
        return NULL;
    for (int i = 0; i < j->nlocal; i++)
        if (j->procs[i].rank == rank)
            return &j->procs[i];
    return NULL;
}

struct dproc *dproc_find_pid(pid_t pid)
{
    for (struct djob *j = tided.jobs; j; j = j->next)
        for (int i = 0; i < j->nlocal; i++)
            if (j->procs[i].pid == pid && !j->procs[i].exited)
                return &j->procs[i];
    return NULL;
}

void djob_add(struct djob *job)
{
    job->next = tided.jobs;
    tided.jobs = job;
}

void djob_remove(struct djob *job)
{
    for (struct djob **pp = &tided.jobs; *pp; pp = &(*pp)->next)
        if (*pp == job) {
            *pp = job->next;
            return;
        }
}
