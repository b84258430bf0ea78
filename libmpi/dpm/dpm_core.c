/*
 * dpm_core.c: start and end of the dynamic-process layer, and dropping
 * the transport state of processes that left.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "dpm/dpm.h"
#include "runtime/proc.h"
#include "transport/transport.h"

#include <stdlib.h>

void tide_dpm_forget(struct tide_proc *p)
{
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->forget)
            tide_transport_list[i]->forget(p);
    p->tx = NULL;
    p->msg_max = 0;
    /* its card too (fetched again should it be met again) */
    free(p->card);
    p->card = NULL;
    p->card_len = 0;
}

void tide_dpm_finalize(void)
{
    tide_dpm_wait_singleton_runs();
    tide_ports_finalize();
}
