/*
 * join.c: MPI_Comm_join: two processes holding the ends of a connected
 * socket become an intercommunicator. Over the socket each sends its
 * name, business card, free context-id mask and a fresh X25519 public
 * key; both derive the two LINK keys from the agreement (join_kex.h), so
 * the keys themselves never cross the socket (the socket the application
 * made is what vouches for the other end: of another universe, it
 * authenticates to us with its LINK key, tcp_auth.h). Both then pick the
 * same context id and talk through the ordinary transports.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "comm/group.h"
#include "dpm/dpm.h"
#include "dpm/join_kex.h"
#include "fdutil.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "transport/peer_keys.h"
#include "wire.h"

#include <openssl/crypto.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JOIN_MAGIC 0x324e494au /* "JIN2": with a public key, no LINK key */
#define JOIN_WORDS 16

static int read_timed(int fd, void *buf, size_t n, int timeout_ms)
{
    size_t got = 0;
    while (got < n) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, timeout_ms);
        if (r <= 0)
            return -1;
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Comm_join";
    if (!intercomm)
        return TIDE_ERR(MPI_ERR_ARG, "%s: intercomm must not be NULL", fn);
    if (fd < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: invalid socket %d (argument fd)", fn, fd);
    uint64_t mask[JOIN_WORDS];
    tide_context_free_mask(mask, JOIN_WORDS);
    struct tide_wbuf w;
    tide_wire_begin(&w, 1);
    tide_wire_put_u32(&w, JOIN_MAGIC);
    tide_wire_put_str(&w, tide.nspace);
    tide_wire_put_u32(&w, tide.rank);
    tide_wire_put_str(&w, tide_card_text());
    tide_wire_put_bytes(&w, mask, sizeof mask);
    uint8_t mypub[TIDE_JOIN_PUB_LEN];
    struct tide_join_kex *kex = tide_join_kex_new(mypub);
    if (!kex) {
        tide_wire_free(&w);
        return TIDE_ERR(MPI_ERR_OTHER, "%s: cannot make a key pair (OpenSSL)", fn);
    }
    tide_wire_put_bytes(&w, mypub, sizeof mypub);
    tide_wire_finish(&w);
    int wrc = tide_write_all(fd, w.data, w.len);
    tide_wire_free(&w);
    if (wrc != 0) {
        tide_join_kex_free(kex);
        return TIDE_ERR(MPI_ERR_OTHER, "%s: cannot write to the socket (argument fd)", fn);
    }
    uint8_t hdr[TIDE_WIRE_HEADER];
    int timeout = 60000;
    uint16_t type;
    uint32_t len;
    if (read_timed(fd, hdr, sizeof hdr, timeout) != 0 || tide_wire_header(hdr, &type, &len) != 0 || type != 1 ||
        len > 8192) {
        tide_join_kex_free(kex);
        return TIDE_ERR(MPI_ERR_OTHER, "%s: the other end did not answer with a join message", fn);
    }
    uint8_t *body = malloc(len ? len : 1);
    if (!body || read_timed(fd, body, len, timeout) != 0) {
        free(body);
        tide_join_kex_free(kex);
        return TIDE_ERR(MPI_ERR_OTHER, "%s: the join message was cut short", fn);
    }
    struct tide_rbuf r;
    tide_wire_reader(&r, body, len);
    uint32_t magic = tide_wire_get_u32(&r);
    char *ns = tide_wire_get_str(&r);
    uint32_t rank = tide_wire_get_u32(&r);
    char *card = tide_wire_get_str(&r);
    size_t ml;
    const void *pm = tide_wire_get_bytes(&r, &ml);
    size_t pl = 0;
    const void *theirpub = tide_wire_get_bytes(&r, &pl);
    int rc = MPI_SUCCESS;
    if (magic != JOIN_MAGIC || !ns || !card || ml != sizeof mask || !theirpub || pl != TIDE_JOIN_PUB_LEN ||
        !tide_wire_done(&r))
        rc = tide_err(MPI_ERR_OTHER, "%s: malformed join message (is the other end a Tide of this version?)", fn);
    struct tide_proc *peer = rc ? NULL : tide_proc_get(ns, rank);
    if (!rc && (!peer || peer == tide.me))
        rc = tide_err(MPI_ERR_OTHER, "%s: the other end is this same process", fn);
    uint8_t mykey[TIDE_KEY_LEN], theirkey[TIDE_KEY_LEN];
    if (!rc && tide_join_kex_keys(kex, mypub, tide.nspace, tide.rank, theirpub, ns, rank, mykey, theirkey) != 0)
        rc = tide_err(MPI_ERR_OTHER, "%s: the key agreement with the other end failed (its public key is unusable)",
                      fn);
    tide_join_kex_free(kex);
    uint32_t ctx = UINT32_MAX;
    if (!rc) {
        uint64_t both[JOIN_WORDS];
        memcpy(both, pm, sizeof both);
        for (int i = 0; i < JOIN_WORDS; i++)
            both[i] &= mask[i];
        ctx = tide_context_lowest(both, JOIN_WORDS);
        if (ctx == UINT32_MAX)
            rc = tide_err(MPI_ERR_OTHER, "%s: no context id is free on both sides", fn);
    }
    if (!rc) {
        tide_dpm_set_card(peer, card);
        tide_dpm_test_print_key("join link key (ours)", mykey, TIDE_KEY_LEN);
        tide_dpm_test_print_key("join link key (theirs)", theirkey, TIDE_KEY_LEN);
        tide_peer_keys_set_link(peer, mykey, theirkey); /* not for our universe */
        struct tide_group *rg = tide_group_new(1, &peer);
        tide_context_reserve(ctx);
        struct tide_comm *ic = rg ? tide_comm_create(tide_comm_self->group, rg, ctx, MPI_COMM_NULL) : NULL;
        tide_group_release(rg);
        if (!ic) {
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        } else {
            tide_comm_retain(tide_comm_self);
            ic->local_comm = tide_comm_self;
            *intercomm = ic->handle;
        }
    }
    OPENSSL_cleanse(mykey, sizeof mykey);
    OPENSSL_cleanse(theirkey, sizeof theirkey);
    free(ns);
    free(card);
    free(body);
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_join)
