/*
 * fuzz_spawnreq.c: libFuzzer target for the spawn request decoding of
 * mpiexec (launcher/spawnreq.c, used by launcher/spawn.c): the input is a
 * TIDE_CTL_SPAWN payload as a daemon forwards it. Each decoded "soft" info
 * value is also evaluated as spawn.c does, against several limits, and
 * the "enable_recovery" values are combined as spawn.c does.
 */
/* sources: launcher/spawnreq.c common/wire.c common/argv.c */
#include "launcher/spawnreq.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tide_rbuf r;
    tide_wire_reader(&r, data, size);
    struct spawn_request req;
    char err[1024];
    int rc = spawn_request_decode(&r, &req, err, sizeof err);
    if (rc == 0) {
        if (!req.parent_nspace || req.napps == 0 || req.napps > TIDE_SPAWN_MAX_APPS ||
            req.total <= 0)
            abort();
        int choice = spawn_recovery_choose(&req, err, sizeof err);
        if (choice < -2 || choice > 1)
            abort();
        static const int limits[] = {-1, 0, 1, 7, 1 << 20, 0x7fffffff};
        for (uint32_t a = 0; a < req.napps; a++) {
            if (!req.specs[a].exe || !req.specs[a].argv || req.specs[a].np <= 0)
                abort();
            if (!req.softs[a])
                continue;
            for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
                int k = spawn_soft_choose(req.softs[a], limits[i]);
                if (k < -1 || k > limits[i])
                    abort();
            }
        }
    }
    spawn_request_free(&req);
    /* the input as one soft value too */
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
        int k = spawn_soft_choose(s, 1000);
        if (k < -1 || k > 1000)
            abort();
        free(s);
    }
    return 0;
}
