/*
 * fuzz_tcp_hello.c: libFuzzer target for the rank TCP handshake's
 * decoders (libmpi/transport/tcp_auth.c). The first byte picks the
 * message (challenge, hello, reply); the rest is what a peer sent, fed
 * whole and then byte by byte as a nonblocking socket would deliver it:
 * both ways must agree, a decoded hello must encode back to the same
 * bytes, and its proof must be computable.
 */
/* sources: libmpi/transport/tcp_auth.c */
/* libs: -lcrypto */
#include "libmpi/transport/tcp_auth.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode(int which, const uint8_t *b, size_t n, struct tide_hello *h)
{
    uint8_t nonce[TIDE_NONCE_LEN], mac[TIDE_MAC_LEN];
    bool acc;
    switch (which) {
    case 0:
        return tide_hs_challenge_decode(b, n, nonce);
    case 1:
        return tide_hs_hello_decode(b, n, h);
    default:
        return tide_hs_reply_decode(b, n, &acc, mac);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int which = data[0] % 3;
    const uint8_t *b = data + 1;
    size_t n = size - 1;
    /* a copy of exactly n bytes, so reading past them is caught */
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        return 0;
    memcpy(copy, b, n);
    struct tide_hello h;
    int whole = decode(which, copy, n, &h);
    if (whole > (int)n)
        abort();
    /* as the bytes trickle in: undecided (0) until the verdict, then the same verdict */
    int seen = 0;
    for (size_t k = 0; k <= n; k++) {
        struct tide_hello h2;
        int r = decode(which, copy, k, &h2);
        if (r != 0) {
            if (r != whole && !(whole > 0 && r > 0 && r == whole))
                abort();
            seen = 1;
            break;
        }
    }
    if (whole != 0 && !seen)
        abort();
    if (which == 1 && whole > 0) {
        uint8_t out[TIDE_HS_HELLO_MAX];
        size_t m = tide_hs_hello_encode(&h, out);
        if (m != (size_t)whole || memcmp(out, copy, m) != 0)
            abort();
        uint8_t key[TIDE_KEY_LEN] = {1}, nonce[TIDE_NONCE_LEN] = {2}, mac[TIDE_MAC_LEN];
        tide_hs_hello_mac(key, sizeof key, nonce, &h, mac);
        tide_hs_reply_mac(key, sizeof key, nonce, &h, true, mac);
    }
    free(copy);
    return 0;
}
