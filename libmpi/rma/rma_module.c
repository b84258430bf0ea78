/*
 * rma_module.c: start and stop of the one-sided part of libmpi: the
 * window attributes' hook, and windows the program did not free before
 * MPI_Finalize.
 */
#include "rma/win.h"

#include "runtime/attr.h"

int tide_rma_init(void)
{
    tide_win_predefined_attr = tide_win_predefined;
    return 0;
}

void tide_rma_finalize(void)
{
    tide_rma_thread_stop();
    while (tide_rma_windows) {
        struct tide_win *w = tide_rma_windows;
        w->freeing = true;
        tide_win_destroy(w); /* unlinks it */
    }
}
