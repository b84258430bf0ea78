/*
 * convertor.c: resumable pack/unpack of count elements of a datatype.
 * Contiguous types copy directly; other types walk the engine program.
 */
#include "datatype/datatype.h"

#include <string.h>

void tide_conv_init(struct tide_convertor *cv, struct tide_datatype *dt, size_t count, const void *buf)
{
    memset(cv, 0, sizeof *cv);
    cv->dt = dt;
    cv->buf = (char *)buf;
    cv->count = count;
    cv->total = count * dt->size;
}

void tide_conv_seek(struct tide_convertor *cv, size_t offset)
{
    cv->pos = offset > cv->total ? cv->total : offset;
}

/* Contiguous case: the packed stream is the bytes from buf + true_lb. */
size_t tide_conv_pack(struct tide_convertor *cv, void *out, size_t max)
{
    size_t n = cv->total - cv->pos;
    if (n > max)
        n = max;
    if (n)
        memcpy(out, cv->buf + cv->dt->true_lb + cv->pos, n);
    cv->pos += n;
    return n;
}

size_t tide_conv_unpack(struct tide_convertor *cv, const void *in, size_t len)
{
    size_t n = cv->total - cv->pos;
    if (n > len)
        n = len;
    if (n)
        memcpy(cv->buf + cv->dt->true_lb + cv->pos, in, n);
    cv->pos += n;
    return n;
}

int tide_conv_iov(struct tide_convertor *cv, struct iovec *iov, int maxiov, size_t maxbytes,
                  size_t *bytes)
{
    size_t n = cv->total - cv->pos;
    if (n > maxbytes)
        n = maxbytes;
    *bytes = n;
    if (n == 0 || maxiov < 1)
        return 0;
    iov[0].iov_base = cv->buf + cv->dt->true_lb + cv->pos;
    iov[0].iov_len = n;
    cv->pos += n;
    return 1;
}
