/*
 * small_copy.h: copying a few bytes of a length known only at run time
 * without a call to memcpy: two overlapping moves of the next power of
 * two at or below the length, which neither read nor write past either
 * end. The message path copies its small payloads this way (up to 64
 * bytes; longer copies call memcpy).
 */
#ifndef TIDE_SMALL_COPY_H
#define TIDE_SMALL_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline __attribute__((always_inline)) void tide_small_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n >= 16) {
        if (n > 64) {
            memcpy(d, s, n);
        } else if (n > 32) {
            memcpy(d, s, 32);
            memcpy(d + n - 32, s + n - 32, 32);
        } else {
            memcpy(d, s, 16);
            memcpy(d + n - 16, s + n - 16, 16);
        }
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        if (n > 1)
            memcpy(d + n - 2, s + n - 2, 2);
    }
}

#endif
