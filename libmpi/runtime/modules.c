/*
 * modules.c: starting and stopping libmpi's layers in order (modules.h).
 */
#include "runtime/modules.h"
#include "runtime/state.h"
#include "client.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "runtime/info.h"
#include "pt2pt/bsend.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "transport/card.h"
#include "dpm/dpm.h"

#include <stdio.h>
#include <string.h>

int tide_modules_init(char *err, size_t errlen)
{
    if (tide_datatype_init() != 0) {
        snprintf(err, errlen, "cannot set up the predefined datatypes");
        return -1;
    }
    if (tide_op_init() != 0 || tide_info_init() != 0) {
        snprintf(err, errlen, "cannot set up the predefined operations and info objects");
        return -1;
    }
    if (tide_pt2pt_init(err, errlen) != 0)
        return -1;
    tide_dpm_init();
    return 0;
}

int tide_modules_wireup(char *err, size_t errlen)
{
    if (!tide.have_pmix)
        return 0;
    const char *card = tide_card_text();
    char key[32];
    snprintf(key, sizeof key, "tide.card.%u", (unsigned)tide.incarnation);
    if (tide_pmix_put("tide.card", card, strlen(card) + 1) != 0 ||
        (tide.incarnation > 0 && tide_pmix_put(key, card, strlen(card) + 1) != 0) || tide_pmix_commit() != 0) {
        snprintf(err, errlen, "cannot publish this process's business card through PMIx");
        return -1;
    }
    if (tide_pmix_fence(tide.tuning.modex_collect) != 0) {
        snprintf(err, errlen, "the start-up fence with the other ranks failed");
        return -1;
    }
    if (tide_dpm_init_child() != MPI_SUCCESS) {
        snprintf(err, errlen, "this spawned job could not connect to its parents");
        return -1;
    }
    return 0;
}

static bool bsends_done(void *arg)
{
    (void)arg;
    return tide_bsend_pending() == 0;
}

void tide_modules_quiesce(void)
{
    tide_progress_until(bsends_done, NULL);
    tide_pt2pt_quiesce();
}

void tide_modules_finalize(void)
{
    tide_dpm_finalize();
    tide_pt2pt_finalize();
    tide_info_finalize();
    tide_op_finalize();
    tide_datatype_finalize();
}
