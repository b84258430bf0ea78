/*
 * fuzz_portname.c: libFuzzer target for the port-name parser
 * (libmpi/dpm/port_name.c). The input is taken as a port name (NUL
 * terminated); what parses must format back to the same text, and hex
 * decoding must accept exactly the strict forms.
 */
/* sources: libmpi/dpm/port_name.c */
#include "libmpi/dpm/port_name.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    struct tide_port p;
    if (tide_port_name_parse(s, &p) == 0) {
        char out[TIDE_PORT_NAME_MAX];
        if (tide_port_name_format(&p, out, sizeof out) != 0)
            abort();
        /* formatting writes lower-case hex: compare after parsing it again */
        struct tide_port q;
        if (tide_port_name_parse(out, &q) != 0 || memcmp(&p, &q, sizeof p) != 0)
            abort();
        if (strlen(s) != strlen(out))
            abort();
    }
    /* strict hex on the raw bytes */
    uint8_t tok[TIDE_PORT_TOKEN_LEN];
    size_t len = strlen(s);
    if (tide_port_unhex(s, len, tok, TIDE_PORT_TOKEN_LEN) == 0) {
        if (len != 2 * TIDE_PORT_TOKEN_LEN)
            abort();
        for (size_t i = 0; i < len; i++)
            if (!strchr("0123456789abcdefABCDEF", s[i]))
                abort();
    }
    free(s);
    return 0;
}
