/*
 * ctlframe.c: decoders of the control messages between mpiexec and tided
 * (see ctlframe.h for what each accepts).
 */
#include "ctlframe.h"
#include "ctlmsg.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

void tide_ctl_msg_clear(struct tide_ctl_msg *m)
{
    free(m->text);
    for (uint32_t i = 0; m->procs && i < m->nprocs; i++)
        free(m->procs[i].nspace);
    free(m->procs);
    free(m->covered);
    memset(m, 0, sizeof *m);
}

static int decode_fence(struct tide_rbuf *r, struct tide_ctl_msg *m)
{
    m->text = tide_wire_get_str(r);
    uint32_t n = tide_wire_get_u32(r);
    /* each participant takes at least 8 bytes */
    if (!m->text || !tide_wire_ok(r) || n > TIDE_CTL_MAX_FENCE_PROCS || (size_t)n * 8 > r->len - r->pos)
        return -1;
    m->procs = calloc(n ? n : 1, sizeof *m->procs);
    if (!m->procs)
        return -1;
    m->nprocs = n;
    for (uint32_t i = 0; i < n; i++) {
        m->procs[i].nspace = tide_wire_get_str(r);
        m->procs[i].rank = tide_wire_get_u32(r);
        if (!tide_wire_ok(r)) /* an absent nspace: a participant nobody knows */
            return -1;
    }
    m->collect = tide_wire_get_u8(r);
    m->data = tide_wire_get_bytes(r, &m->len);
    uint32_t nc = tide_wire_get_u32(r);
    if (!tide_wire_ok(r) || nc == 0 || nc > TIDE_CTL_MAX_FENCE_NODES || (size_t)nc * 4 > r->len - r->pos)
        return -1;
    m->covered = calloc(nc, sizeof *m->covered);
    if (!m->covered)
        return -1;
    m->ncovered = nc;
    for (uint32_t i = 0; i < nc; i++)
        m->covered[i] = tide_wire_get_u32(r);
    return 0;
}

int tide_ctl_decode(uint16_t type, struct tide_rbuf *r, struct tide_ctl_msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    int need_text = 0;
    switch (type) {
    case TIDE_CTL_HELLO:
        m->node = tide_wire_get_u32(r);
        m->text = tide_wire_get_str(r);
        m->pid = tide_wire_get_u32(r);
        break;
    case TIDE_CTL_LAUNCHED:
        m->jobid = tide_wire_get_u32(r);
        m->status = tide_wire_get_i32(r);
        m->text = tide_wire_get_str(r);
        break;
    case TIDE_CTL_IO:
        m->jobid = tide_wire_get_u32(r);
        m->rank = tide_wire_get_u32(r);
        m->stream = tide_wire_get_u8(r);
        m->data = tide_wire_get_bytes(r, &m->len);
        if (tide_wire_ok(r) && m->stream != 1 && m->stream != 2)
            goto bad;
        break;
    case TIDE_CTL_STDIN:
        m->jobid = tide_wire_get_u32(r);
        m->rank = tide_wire_get_u32(r);
        m->data = tide_wire_get_bytes(r, &m->len);
        break;
    case TIDE_CTL_EXIT:
        m->jobid = tide_wire_get_u32(r);
        m->rank = tide_wire_get_u32(r);
        m->pid = tide_wire_get_u32(r);
        m->how = tide_wire_get_u8(r);
        m->code = tide_wire_get_i32(r);
        m->connected = tide_wire_get_u8(r); /* nonzero: true */
        m->finalized = tide_wire_get_u8(r);
        break;
    case TIDE_CTL_ABORT:
        m->jobid = tide_wire_get_u32(r);
        m->rank = tide_wire_get_u32(r);
        m->status = tide_wire_get_i32(r);
        m->text = tide_wire_get_str(r);
        break;
    case TIDE_CTL_KILL:
        m->jobid = tide_wire_get_u32(r);
        m->code = tide_wire_get_i32(r);
        if (tide_wire_ok(r) && (m->code <= 0 || m->code >= NSIG))
            goto bad;
        break;
    case TIDE_CTL_SHUTDOWN:
        break;
    case TIDE_CTL_FENCE:
        if (decode_fence(r, m) != 0)
            goto bad;
        break;
    case TIDE_CTL_FENCE_RELEASE:
        m->text = tide_wire_get_str(r);
        m->status = tide_wire_get_i32(r);
        m->data = tide_wire_get_bytes(r, &m->len);
        need_text = 1;
        break;
    case TIDE_CTL_DMODEX_REQ:
        m->id = tide_wire_get_u32(r);
        m->node = tide_wire_get_u32(r);
        m->text = tide_wire_get_str(r);
        m->rank = tide_wire_get_u32(r);
        need_text = 1;
        break;
    case TIDE_CTL_DMODEX_RESP:
        m->id = tide_wire_get_u32(r);
        m->node = tide_wire_get_u32(r);
        m->status = tide_wire_get_i32(r);
        m->data = tide_wire_get_bytes(r, &m->len);
        break;
    case TIDE_CTL_EVENT:
        m->node = tide_wire_get_u32(r);
        m->status = tide_wire_get_i32(r);
        m->text = tide_wire_get_str(r);
        m->rank = tide_wire_get_u32(r);
        m->count = tide_wire_get_u32(r);
        m->data = tide_wire_get_bytes(r, &m->len);
        need_text = 1;
        break;
    case TIDE_CTL_NOTICE:
        m->jobid = tide_wire_get_u32(r);
        m->rank = tide_wire_get_u32(r);
        m->text = tide_wire_get_str(r);
        break;
    case TIDE_CTL_SPAWN_RESULT:
        m->id = tide_wire_get_u32(r);
        m->status = tide_wire_get_i32(r);
        m->text = tide_wire_get_str(r);
        m->count = tide_wire_get_u32(r);
        break;
    case TIDE_CTL_JOB_ENDED:
        m->text = tide_wire_get_str(r);
        need_text = 1;
        break;
    default:
        goto bad;
    }
    if (!tide_wire_done(r) || (need_text && !m->text))
        goto bad;
    return 0;
bad:
    tide_ctl_msg_clear(m);
    m->type = type;
    return -1;
}
