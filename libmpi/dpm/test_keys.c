/*
 * test_keys.c: a testing aid (parameter test_print_keys): the keys of a
 * connect/accept, spawn or join printed to stderr in hex, so that tests
 * can look for them in a capture of the network (tests/security,
 * sec.capture.dpm.*). Off by default; it prints secrets.
 */
#include "runtime/api.h"
#include "dpm/dpm.h"
#include "params.h"

#include <stdio.h>

void tide_dpm_test_print_key(const char *what, const uint8_t *key, size_t len)
{
    static int on = -1;
    if (on < 0)
        on = tide_config_int("test_print_keys") == 1;
    if (!on)
        return;
    char hex[2 * 64 + 1];
    size_t n = len > 64 ? 64 : len;
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", key[i]);
    hex[2 * n] = '\0';
    fprintf(stderr, "tide[%u]: test_print_keys: %s %s\n", tide.rank, what, hex);
}
