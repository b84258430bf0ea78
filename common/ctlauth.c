/*
 * ctlauth.c: the HMAC challenge that authenticates control links (see
 * ctlauth.h for the exchange), and the daemon's blocking side of it.
 */
#include "ctlauth.h"
#include "ctlcrypt.h"
#include "hex.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

static const char magic[8] = {'T', 'I', 'D', 'E', 'C', 'T', 'L', '1'};

int tide_ctlauth_random(uint8_t *buf, size_t n)
{
    return RAND_bytes(buf, (int)n) == 1 ? 0 : -1;
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void mac(const uint8_t secret[TIDE_CTL_SECRET_LEN], const char *label, const uint8_t *nonce_l,
                const uint8_t *nonce_d, uint32_t node, uint8_t out[TIDE_CTLAUTH_MAC])
{
    uint8_t msg[32 + 2 * TIDE_CTLAUTH_NONCE + 4];
    size_t ll = strlen(label);
    memcpy(msg, label, ll);
    memcpy(msg + ll, nonce_l, TIDE_CTLAUTH_NONCE);
    memcpy(msg + ll + TIDE_CTLAUTH_NONCE, nonce_d, TIDE_CTLAUTH_NONCE);
    put_u32le(msg + ll + 2 * TIDE_CTLAUTH_NONCE, node);
    unsigned int len = TIDE_CTLAUTH_MAC;
    HMAC(EVP_sha256(), secret, TIDE_CTL_SECRET_LEN, msg, ll + 2 * TIDE_CTLAUTH_NONCE + 4, out, &len);
}

int tide_ctlauth_challenge(uint8_t out[TIDE_CTLAUTH_CHALLENGE_LEN], uint8_t nonce_l[TIDE_CTLAUTH_NONCE])
{
    if (tide_ctlauth_random(nonce_l, TIDE_CTLAUTH_NONCE) != 0)
        return -1;
    memcpy(out, magic, sizeof magic);
    memcpy(out + sizeof magic, nonce_l, TIDE_CTLAUTH_NONCE);
    return 0;
}

int tide_ctlauth_check_answer(const uint8_t secret[TIDE_CTL_SECRET_LEN],
                              const uint8_t nonce_l[TIDE_CTLAUTH_NONCE],
                              const uint8_t answer[TIDE_CTLAUTH_ANSWER_LEN], uint32_t *node,
                              uint8_t proof[TIDE_CTLAUTH_PROOF_LEN])
{
    if (memcmp(answer, magic, sizeof magic) != 0)
        return -1;
    const uint8_t *nonce_d = answer + sizeof magic;
    uint32_t n = get_u32le(nonce_d + TIDE_CTLAUTH_NONCE);
    uint8_t want[TIDE_CTLAUTH_MAC];
    mac(secret, "tide-ctl daemon", nonce_l, nonce_d, n, want);
    if (CRYPTO_memcmp(want, nonce_d + TIDE_CTLAUTH_NONCE + 4, TIDE_CTLAUTH_MAC) != 0)
        return -1;
    *node = n;
    mac(secret, "tide-ctl listener", nonce_l, nonce_d, n, proof);
    return 0;
}

struct tide_ctlcrypt *tide_ctlauth_keys(const uint8_t secret[TIDE_CTL_SECRET_LEN],
                                        const uint8_t nonce_l[TIDE_CTLAUTH_NONCE],
                                        const uint8_t nonce_d[TIDE_CTLAUTH_NONCE], uint32_t node, bool listener)
{
    uint8_t transcript[2 * TIDE_CTLAUTH_NONCE + 4];
    memcpy(transcript, nonce_l, TIDE_CTLAUTH_NONCE);
    memcpy(transcript + TIDE_CTLAUTH_NONCE, nonce_d, TIDE_CTLAUTH_NONCE);
    put_u32le(transcript + 2 * TIDE_CTLAUTH_NONCE, node);
    /* the daemon, which answers the challenge, is the initiator */
    return tide_ctlcrypt_new(secret, TIDE_CTL_SECRET_LEN, transcript, sizeof transcript, "control link",
                             listener ? TIDE_CRYPT_RESPONDER : TIDE_CRYPT_INITIATOR);
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Move exactly len bytes in or out of fd before the deadline. */
static int xfer(int fd, uint8_t *buf, size_t len, bool writing, long deadline)
{
    size_t done = 0;
    while (done < len) {
        long left = deadline - now_ms();
        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        struct pollfd p = {.fd = fd, .events = writing ? POLLOUT : POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = ETIMEDOUT;
            return -1;
        }
        ssize_t n = writing ? write(fd, buf + done, len - done) : read(fd, buf + done, len - done);
        if (n == 0) {
            errno = ECONNRESET;
            return -1;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

int tide_ctlauth_connect(int fd, const uint8_t secret[TIDE_CTL_SECRET_LEN], uint32_t node, int timeout_ms,
                         struct tide_ctlcrypt **crypt, char *err, size_t errlen)
{
    *crypt = NULL;
    long deadline = now_ms() + timeout_ms;
    uint8_t chal[TIDE_CTLAUTH_CHALLENGE_LEN];
    if (xfer(fd, chal, sizeof chal, false, deadline) != 0) {
        snprintf(err, errlen, "no challenge from mpiexec: %s", strerror(errno));
        return -1;
    }
    if (memcmp(chal, magic, sizeof magic) != 0) {
        snprintf(err, errlen, "the peer is not a Tide control listener");
        return -1;
    }
    const uint8_t *nonce_l = chal + sizeof magic;
    uint8_t ans[TIDE_CTLAUTH_ANSWER_LEN];
    memcpy(ans, magic, sizeof magic);
    uint8_t *nonce_d = ans + sizeof magic;
    if (tide_ctlauth_random(nonce_d, TIDE_CTLAUTH_NONCE) != 0) {
        snprintf(err, errlen, "no random bytes for a nonce");
        return -1;
    }
    put_u32le(nonce_d + TIDE_CTLAUTH_NONCE, node);
    mac(secret, "tide-ctl daemon", nonce_l, nonce_d, node, nonce_d + TIDE_CTLAUTH_NONCE + 4);
    if (xfer(fd, ans, sizeof ans, true, deadline) != 0) {
        snprintf(err, errlen, "cannot answer the challenge: %s", strerror(errno));
        return -1;
    }
    uint8_t proof[TIDE_CTLAUTH_PROOF_LEN], want[TIDE_CTLAUTH_MAC];
    if (xfer(fd, proof, sizeof proof, false, deadline) != 0) {
        snprintf(err, errlen, "mpiexec refused the link (wrong secret or node?): %s", strerror(errno));
        return -1;
    }
    mac(secret, "tide-ctl listener", nonce_l, nonce_d, node, want);
    if (CRYPTO_memcmp(want, proof, sizeof want) != 0) {
        snprintf(err, errlen, "the listener does not hold the job's secret");
        return -1;
    }
    *crypt = tide_ctlauth_keys(secret, nonce_l, nonce_d, node, false);
    if (!*crypt) {
        snprintf(err, errlen, "cannot derive the link's keys");
        return -1;
    }
    return 0;
}

void tide_ctlauth_hex(const uint8_t secret[TIDE_CTL_SECRET_LEN], char out[2 * TIDE_CTL_SECRET_LEN + 1])
{
    tide_hex(secret, TIDE_CTL_SECRET_LEN, out);
}

int tide_ctlauth_unhex(const char *hex, uint8_t secret[TIDE_CTL_SECRET_LEN])
{
    return tide_unhex(hex, secret, TIDE_CTL_SECRET_LEN) == TIDE_CTL_SECRET_LEN ? 0 : -1;
}
