/*
 * modules.c: starting and stopping libmpi's layers in order (modules.h).
 */
#include "runtime/modules.h"
#include "runtime/state.h"
#include "client.h"
#include "datatype/datatype.h"

#include <stdio.h>
#include <string.h>

int tide_modules_init(char *err, size_t errlen)
{
    if (tide_datatype_init() != 0) {
        snprintf(err, errlen, "cannot set up the predefined datatypes");
        return -1;
    }
    return 0;
}

int tide_modules_wireup(char *err, size_t errlen)
{
    if (!tide.have_pmix)
        return 0;
    char card[512];
    int n = snprintf(card, sizeof card, "host=%s", tide.hostname);
    if (tide_pmix_put("tide.card", card, (size_t)n + 1) != 0 || tide_pmix_commit() != 0) {
        snprintf(err, errlen, "cannot publish this process's business card through PMIx");
        return -1;
    }
    if (tide_pmix_fence(tide.tuning.modex_collect) != 0) {
        snprintf(err, errlen, "the start-up fence with the other ranks failed");
        return -1;
    }
    return 0;
}

void tide_modules_quiesce(void) {}

void tide_modules_finalize(void)
{
    tide_datatype_finalize();
}
