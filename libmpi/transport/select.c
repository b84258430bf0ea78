/*
 * select.c: the transports in use (in the order TIDE_TRANSPORTS lists
 * them), this process's business card, and choosing a transport for each
 * peer the first time we talk to it.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "transport/transport.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern struct tide_transport tide_shm_transport;
extern struct tide_transport tide_tcp_transport;
int tide_shm_init(char *err, size_t errlen);
int tide_tcp_init(char *err, size_t errlen);

struct tide_transport *tide_transport_list[4];
int tide_ntransports;

int tide_transports_init(char *err, size_t errlen)
{
    tide_card_reset();
    char num[32];
    tide_card_add("host", tide.hostname);
    snprintf(num, sizeof num, "%d", (int)getpid());
    tide_card_add("pid", num);
    tide_ntransports = 0;
    char list[sizeof tide.tuning.transports];
    snprintf(list, sizeof list, "%s", tide.tuning.transports);
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "shm") == 0 && tide.size > 0) {
            if (tide_shm_init(err, errlen) == 0)
                tide_transport_list[tide_ntransports++] = &tide_shm_transport;
        } else if (strcmp(t, "tcp") == 0) {
            if (tide_tcp_init(err, errlen) == 0)
                tide_transport_list[tide_ntransports++] = &tide_tcp_transport;
            else
                return -1;
        } else if (strcmp(t, "self") != 0) {
            snprintf(err, errlen, "unknown transport '%s' in TIDE_TRANSPORTS (known: self, shm, tcp)", t);
            return -1;
        }
    }
    return 0;
}

const char *tide_transports_names(void)
{
    /* before MPI_Init: what this library has */
    static char names[64];
    if (tide_ntransports == 0)
        return "self, shm, tcp";
    size_t len = 0;
    names[0] = '\0';
    for (int i = 0; i < tide_ntransports && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", tide_transport_list[i]->name);
    return names;
}

void tide_transports_finalize(void)
{
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->finalize)
            tide_transport_list[i]->finalize();
    tide_ntransports = 0;
}

struct tide_transport *tide_transport_for(struct tide_proc *p)
{
    if (p->tx)
        return p->tx;
    struct tide_card card;
    if (tide_card_of(p, &card) != 0)
        return NULL;
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->reachable(p, &card)) {
            p->tx = tide_transport_list[i];
            return p->tx;
        }
    return NULL;
}

bool tide_transport_can_wake(struct tide_proc *p)
{
    struct tide_transport *t = tide_transport_for(p);
    return t && t->wake;
}

void tide_transport_wake(struct tide_proc *p)
{
    if (p->tx && p->tx->wake)
        p->tx->wake(p);
}

int tide_transports_progress(void)
{
    int n = 0;
    for (int i = 0; i < tide_ntransports; i++)
        n += tide_transport_list[i]->progress();
    return n;
}

int tide_transports_progress_quick(void)
{
    int n = 0;
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->progress_quick)
            n += tide_transport_list[i]->progress_quick();
    return n;
}

int tide_transports_progress_shared(void)
{
    int n = 0;
    bool exclusive = false;
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->progress_shared)
            n += tide_transport_list[i]->progress_shared(&exclusive);
    return exclusive ? -1 : n;
}

bool tide_transports_shared_only(void)
{
    for (int i = 0; i < tide_ntransports; i++) {
        struct tide_transport *t = tide_transport_list[i];
        if (!t->progress_shared && (!t->active || t->active()))
            return false;
    }
    return true;
}

void tide_transports_idle(void)
{
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->idle)
            tide_transport_list[i]->idle();
}

bool tide_transports_output_pending(void)
{
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->output_pending && tide_transport_list[i]->output_pending())
            return true;
    return false;
}
