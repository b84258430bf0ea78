/*
 * fuzz_wire.c: libFuzzer target for the control-frame codec (common/wire.c).
 * The input is a frame: the header is checked with tide_wire_header, and
 * the payload is read by a sequence of gets chosen by the header's type
 * bits (so every getter runs at every offset); what decodes is encoded
 * again and must read back the same.
 */
/* sources: common/wire.c common/argv.c */
#include "wire.h"
#include "argv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < TIDE_WIRE_HEADER)
        return 0;
    uint16_t type = 0;
    uint32_t plen = 0;
    uint16_t ops = (uint16_t)(data[6] | data[7] << 8); /* the type field */
    if (tide_wire_header(data, &type, &plen) == 0 && type != ops)
        abort();
    const uint8_t *payload = data + TIDE_WIRE_HEADER;
    size_t len = size - TIDE_WIRE_HEADER;

    struct tide_rbuf r;
    tide_wire_reader(&r, payload, len);
    struct tide_wbuf w;
    tide_wire_begin(&w, ops);
    /* 16 gets, 3 bits each from (ops | version) cycling */
    uint32_t prog = (uint32_t)ops | (uint32_t)(data[4] | data[5] << 8) << 16;
    for (int i = 0; i < 16 && tide_wire_ok(&r); i++) {
        switch ((prog >> ((i * 3) % 30)) & 7) {
        case 0: tide_wire_put_u8(&w, tide_wire_get_u8(&r)); break;
        case 1: tide_wire_put_u16(&w, tide_wire_get_u16(&r)); break;
        case 2: tide_wire_put_u32(&w, tide_wire_get_u32(&r)); break;
        case 3: tide_wire_put_u64(&w, tide_wire_get_u64(&r)); break;
        case 4: {
            size_t n = 0;
            const void *p = tide_wire_get_bytes(&r, &n);
            if (p)
                tide_wire_put_bytes(&w, p, n);
            break;
        }
        case 5:
        case 6: {
            char *s = tide_wire_get_str(&r);
            if (tide_wire_ok(&r))
                tide_wire_put_str(&w, s);
            free(s);
            break;
        }
        case 7: {
            char **v = tide_wire_get_strv(&r);
            if (v)
                tide_wire_put_strv(&w, v);
            tide_argv_free(v);
            break;
        }
        }
    }
    /* what was read, re-encoded, is the prefix that was consumed */
    if (tide_wire_ok(&r) && tide_wire_finish(&w) == 0) {
        if (w.len - TIDE_WIRE_HEADER != r.pos ||
            memcmp(w.data + TIDE_WIRE_HEADER, payload, r.pos) != 0)
            abort();
    }
    (void)tide_wire_done(&r);
    tide_wire_free(&w);
    return 0;
}
