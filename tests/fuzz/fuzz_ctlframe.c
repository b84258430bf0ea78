/*
 * fuzz_ctlframe.c: libFuzzer target for the control messages that mpiexec
 * and tided decode from each other (common/ctlframe.c, used by
 * launcher/hub.c, daemon/hub.c and daemon/fence.c). The input is a frame
 * (wire header, then payload); the header's type picks the decoder. A
 * message that decodes must hold what its handler relies on and must
 * encode back to exactly the payload.
 */
/* sources: common/ctlframe.c common/wire.c */
#include "ctlframe.h"
#include "ctlmsg.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the payload layout of each type, as in ctlmsg.h */
static void encode(const struct tide_ctl_msg *m, struct tide_wbuf *w)
{
    switch (m->type) {
    case TIDE_CTL_HELLO:
        tide_wire_put_u32(w, m->node);
        tide_wire_put_str(w, m->text);
        tide_wire_put_u32(w, m->pid);
        break;
    case TIDE_CTL_LAUNCHED:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_str(w, m->text);
        break;
    case TIDE_CTL_IO:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_u8(w, m->stream);
        tide_wire_put_bytes(w, m->data, m->len);
        break;
    case TIDE_CTL_STDIN:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_bytes(w, m->data, m->len);
        break;
    case TIDE_CTL_EXIT:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_u32(w, m->pid);
        tide_wire_put_u8(w, m->how);
        tide_wire_put_i32(w, m->code);
        tide_wire_put_u8(w, m->connected);
        tide_wire_put_u8(w, m->finalized);
        break;
    case TIDE_CTL_ABORT:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_str(w, m->text);
        break;
    case TIDE_CTL_KILL:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_i32(w, m->code);
        break;
    case TIDE_CTL_SHUTDOWN: break;
    case TIDE_CTL_FENCE:
        tide_wire_put_str(w, m->text);
        tide_wire_put_u32(w, m->nprocs);
        for (uint32_t i = 0; i < m->nprocs; i++) {
            tide_wire_put_str(w, m->procs[i].nspace);
            tide_wire_put_u32(w, m->procs[i].rank);
        }
        tide_wire_put_u8(w, m->collect);
        tide_wire_put_bytes(w, m->data, m->len);
        tide_wire_put_u32(w, m->ncovered);
        for (uint32_t i = 0; i < m->ncovered; i++)
            tide_wire_put_u32(w, m->covered[i]);
        break;
    case TIDE_CTL_FENCE_RELEASE:
        tide_wire_put_str(w, m->text);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_bytes(w, m->data, m->len);
        break;
    case TIDE_CTL_DMODEX_REQ:
        tide_wire_put_u32(w, m->id);
        tide_wire_put_u32(w, m->node);
        tide_wire_put_str(w, m->text);
        tide_wire_put_u32(w, m->rank);
        break;
    case TIDE_CTL_DMODEX_RESP:
        tide_wire_put_u32(w, m->id);
        tide_wire_put_u32(w, m->node);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_bytes(w, m->data, m->len);
        break;
    case TIDE_CTL_NOTICE:
        tide_wire_put_u32(w, m->jobid);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_str(w, m->text);
        break;
    case TIDE_CTL_SPAWN_RESULT:
        tide_wire_put_u32(w, m->id);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_str(w, m->text);
        tide_wire_put_u32(w, m->count);
        break;
    case TIDE_CTL_JOB_ENDED: tide_wire_put_str(w, m->text); break;
    case TIDE_CTL_EVENT:
        tide_wire_put_u32(w, m->node);
        tide_wire_put_i32(w, m->status);
        tide_wire_put_str(w, m->text);
        tide_wire_put_u32(w, m->rank);
        tide_wire_put_u32(w, m->count);
        tide_wire_put_bytes(w, m->data, m->len);
        break;
    default: abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < TIDE_WIRE_HEADER)
        return 0;
    uint16_t type;
    uint32_t plen;
    if (tide_wire_header(data, &type, &plen) != 0 || plen != size - TIDE_WIRE_HEADER)
        return 0; /* the channel closes the connection */
    const uint8_t *payload = data + TIDE_WIRE_HEADER;
    struct tide_rbuf r;
    tide_wire_reader(&r, payload, plen);
    struct tide_ctl_msg m;
    if (tide_ctl_decode(type, &r, &m) != 0) {
        if (m.text || m.procs || m.covered || m.type != type)
            abort();
        return 0;
    }
    /* what the handlers rely on */
    if (type == TIDE_CTL_IO && m.stream != 1 && m.stream != 2)
        abort();
    if (type == TIDE_CTL_KILL && (m.code <= 0 || m.code >= NSIG))
        abort();
    if ((type == TIDE_CTL_FENCE || type == TIDE_CTL_FENCE_RELEASE || type == TIDE_CTL_DMODEX_REQ ||
         type == TIDE_CTL_JOB_ENDED || type == TIDE_CTL_EVENT) && !m.text)
        abort();
    if (m.len && !m.data)
        abort();
    if (m.data && ((const uint8_t *)m.data < payload ||
                   (const uint8_t *)m.data + m.len > payload + plen))
        abort();
    for (uint32_t i = 0; i < m.nprocs; i++)
        if (m.procs[i].nspace)
            (void)strlen(m.procs[i].nspace);
    struct tide_wbuf w;
    tide_wire_begin(&w, type);
    encode(&m, &w);
    if (tide_wire_finish(&w) == 0 &&
        (w.len != size || memcmp(w.data + TIDE_WIRE_HEADER, payload, plen) != 0))
        abort();
    tide_wire_free(&w);
    tide_ctl_msg_clear(&m);
    return 0;
}
