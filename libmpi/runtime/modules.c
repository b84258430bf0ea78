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
#include "transport/tcp_auth.h"
#include "dpm/dpm.h"
#include "rma/win.h"
#include "io/io.h"
#include "ft/ft.h"
#include "runtime/errors.h"

#include <stdio.h>
#include <stdlib.h>
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
    tide_rma_init();
    tide_ft_init();
    return 0;
}

/* The universe secret from which every rank key is derived
 * (tcp_auth.h): rank 0 of the first job makes it, a spawned job's rank 0
 * takes its parents' rank 0's, and each puts it into PMIx for the rest of
 * its job (and its children) to fetch after the start-up fence. PMIx data
 * is visible only to processes of this runtime, never to another mpiexec's
 * jobs, which meet this one through ports only. */
#define SECRET_KEY "tide.usecret"

static int fetch_secret(const char *nspace, uint32_t rank)
{
    void *data = NULL;
    size_t len = 0;
    if (tide_pmix_get(nspace, rank, SECRET_KEY, &data, &len, tide.tuning.pmix_timeout) != 0)
        return -1;
    int rc = -1;
    if (len == TIDE_SECRET_LEN) {
        tide_auth_set_secret(data);
        rc = 0;
    }
    free(data);
    return rc;
}

static int secret_before_fence(void)
{
    if (!tide_auth_have_secret() && tide.rank == 0) {
        if (tide.spawned) {
            if (fetch_secret(tide.parent_nspace, 0) != 0)
                return -1;
        } else {
            uint8_t s[TIDE_SECRET_LEN];
            tide_auth_random(s, sizeof s);
            tide_auth_set_secret(s);
        }
    }
    return 0;
}

static int secret_put(void)
{
    if (tide.rank != 0)
        return 0;
    /* the secret is kept by the authentication code only; this copy goes
     * to PMIx and is wiped */
    uint8_t s[TIDE_SECRET_LEN];
    if (tide_auth_copy_secret(s) != 0)
        return -1;
    int rc = tide_pmix_put(SECRET_KEY, s, sizeof s);
    memset(s, 0, sizeof s);
    return rc;
}

int tide_modules_wireup(char *err, size_t errlen)
{
    if (!tide.have_pmix) {
        if (!tide_auth_have_secret()) { /* a singleton: a universe of its own */
            uint8_t s[TIDE_SECRET_LEN];
            tide_auth_random(s, sizeof s);
            tide_auth_set_secret(s);
        }
        return 0;
    }
    if (secret_before_fence() != 0 || secret_put() != 0) {
        snprintf(err, errlen, "cannot obtain or publish the job's secret through PMIx");
        return -1;
    }
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
    if (!tide_auth_have_secret() && fetch_secret(tide.spawned ? tide.parent_nspace : tide.nspace, 0) != 0) {
        snprintf(err, errlen, "cannot fetch the job's secret through PMIx");
        return -1;
    }
    int rc = tide_dpm_init_child();
    if (rc != MPI_SUCCESS) {
        char why[MPI_MAX_ERROR_STRING] = "";
        int wl;
        if (tide_error_message(rc, why, &wl) != 0)
            why[0] = '\0';
        snprintf(err, errlen, "this spawned job could not connect to its parents%s%s", why[0] ? ": " : "", why);
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
    tide_rma_finalize();
    tide_io_finalize();
    tide_dpm_finalize();
    tide_pt2pt_finalize();
    tide_ft_finalize();
    tide_info_finalize();
    tide_op_finalize();
    tide_datatype_finalize();
}
