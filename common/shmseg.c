/*
 * shmseg.c: the layout of a shared-memory receive segment (see shmseg.h).
 */
#include "shmseg.h"

void tide_shm_layout(uint32_t local_size, uint64_t ring_param, struct tide_shm_layout *out)
{
    uint64_t ring = ring_param;
    /* many local ranks: smaller rings, so the space they can fill stays sane */
    if (local_size > 64 && ring > 65536)
        ring = 65536;
    if (ring < 16384)
        ring = 16384;
    if (ring > (512ull << 20))
        ring = 512ull << 20; /* the rings' limit (TIDE_RING_MAX_SIZE) */
    uint64_t pow2 = 1;
    while (pow2 < ring)
        pow2 <<= 1;
    uint64_t slots = (uint64_t)local_size + 64;
    if (slots < TIDE_SHM_MIN_SLOTS)
        slots = TIDE_SHM_MIN_SLOTS;
    if (slots > TIDE_SHM_MAX_SLOTS)
        slots = TIDE_SHM_MAX_SLOTS;
    out->nslots = (uint32_t)slots;
    out->ring_size = pow2;
    out->area_size = TIDE_SHM_AREA_CTRL + pow2;
    out->len = TIDE_SHM_SEG_HEADER + slots * out->area_size;
}

uint64_t tide_shm_node_bytes(uint32_t nlocal, const struct tide_shm_layout *l)
{
    if (nlocal < 2)
        return nlocal ? TIDE_SHM_SEG_HEADER : 0;
    uint64_t senders = nlocal - 1;
    if (senders > l->nslots)
        senders = l->nslots;
    return (uint64_t)nlocal * (TIDE_SHM_SEG_HEADER + senders * l->area_size);
}
