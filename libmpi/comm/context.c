/*
 * context.c: this process's bitmap of context ids in use.
 */
#include "comm/context.h"

#include <string.h>

static uint64_t used[TIDE_CONTEXT_MASK_WORDS];

void tide_context_reserve(uint32_t id)
{
    uint32_t i = id / 2;
    if (i < TIDE_CONTEXT_MAX / 2)
        used[i / 64] |= 1ull << (i % 64);
}

void tide_context_release(uint32_t id)
{
    uint32_t i = id / 2;
    if (i < TIDE_CONTEXT_MAX / 2 && id != TIDE_CONTEXT_WORLD && id != TIDE_CONTEXT_SELF)
        used[i / 64] &= ~(1ull << (i % 64));
}

int tide_context_is_free(uint32_t id)
{
    uint32_t i = id / 2;
    return i < TIDE_CONTEXT_MAX / 2 && !(used[i / 64] & (1ull << (i % 64)));
}

void tide_context_free_mask(uint64_t *mask, int words)
{
    for (int w = 0; w < words && w < (int)TIDE_CONTEXT_MASK_WORDS; w++)
        mask[w] = ~used[w];
}

uint32_t tide_context_lowest(const uint64_t *mask, int words)
{
    for (int w = 0; w < words && w < (int)TIDE_CONTEXT_MASK_WORDS; w++)
        if (mask[w])
            return (uint32_t)(w * 64 + __builtin_ctzll(mask[w])) * 2;
    return UINT32_MAX;
}
