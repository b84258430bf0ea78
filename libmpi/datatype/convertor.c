/*
 * convertor.c: resumable pack/unpack of count elements of a datatype, and
 * the contiguous pieces of a typed buffer as iovecs.
 *
 * Contiguous types copy directly. Other types walk the engine program
 * (engine.h) with a stack of frames: the top frame repeats the type's
 * root `count` times at its extent (fused with the root when the root is
 * a run or a vector whose copies tile), inner frames are VEC and SEQ
 * nodes, the innermost a leaf (VECLEAF or BLOCKS; CONTIG is a VECLEAF of
 * one block). A leaf moves as many whole blocks as fit with one tight
 * loop, specialised for the common block sizes, so a vector of doubles
 * packs at memcpy speed per block.
 *
 * Any byte offset of the packed stream can be reached directly (seek:
 * divisions down VEC frames, binary searches in SEQ and BLOCKS); where a
 * call stopped is also kept in the convertor so the next call resumes
 * there without searching.
 */
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <stdlib.h>
#include <string.h>

#define DT_INLINE static inline __attribute__((always_inline))

enum { OP_PACK, OP_UNPACK, OP_IOV };

struct frame {
    const struct dt_node *n;     /* SEQ, BLOCKS: the node (arrays) */
    const struct dt_node *child; /* VEC: the repeated node */
    uintptr_t base;              /* address of the node (its off included) */
    size_t i, count;
    MPI_Aint stride;
    size_t blen;
    int kind;
};

#define STACK_FRAMES 24
#define SAVED_FRAMES ((int)(sizeof ((struct tide_convertor *)0)->loop / sizeof(size_t)))

void tide_conv_init(struct tide_convertor *cv, struct tide_datatype *dt, size_t count, const void *buf)
{
    cv->dt = dt;
    cv->buf = (char *)buf;
    cv->count = count;
    cv->total = count * dt->size;
    cv->pos = 0;
    cv->elem = SIZE_MAX;
    cv->elem_off = 0;
    cv->pc = 0;
    if (!dt->contig && cv->total && tide_datatype_prepare(dt) != 0)
        cv->total = 0; /* out of memory: nothing can move */
}

void tide_conv_seek(struct tide_convertor *cv, size_t offset)
{
    cv->pos = offset > cv->total ? cv->total : offset;
}

/* ---- copying ---- */

/* memcpy for n bytes where n is often small: up to 64 bytes with
 * overlapping fixed-size moves, no call */
DT_INLINE void xcopy(char *d, const char *s, size_t n)
{
    if (n > 16 && n <= 64) {
        char a[16], b[16];
        if (n > 32) {
            char c[16], e[16];
            memcpy(a, s, 16);
            memcpy(b, s + 16, 16);
            memcpy(c, s + n - 32, 16);
            memcpy(e, s + n - 16, 16);
            memcpy(d, a, 16);
            memcpy(d + 16, b, 16);
            memcpy(d + n - 32, c, 16);
            memcpy(d + n - 16, e, 16);
        } else {
            memcpy(a, s, 16);
            memcpy(b, s + n - 16, 16);
            memcpy(d, a, 16);
            memcpy(d + n - 16, b, 16);
        }
        return;
    }
    if (n <= 16) {
        if (n >= 8) {
            uint64_t a, b;
            memcpy(&a, s, 8);
            memcpy(&b, s + n - 8, 8);
            memcpy(d, &a, 8);
            memcpy(d + n - 8, &b, 8);
        } else if (n >= 4) {
            uint32_t a, b;
            memcpy(&a, s, 4);
            memcpy(&b, s + n - 4, 4);
            memcpy(d, &a, 4);
            memcpy(d + n - 4, &b, 4);
        } else {
            for (size_t k = 0; k < n; k++)
                d[k] = s[k];
        }
        return;
    }
    memcpy(d, s, n);
}

#define PTR(a) ((char *)(a))

/* nb blocks of bl bytes, block k at a + k*st, to/from the stream at s */
DT_INLINE void strided(const int op, char *s, uintptr_t a, size_t nb, MPI_Aint st, size_t bl)
{
#define STRIDED(SZ)                                                        \
    case SZ:                                                               \
        if (op == OP_PACK)                                                 \
            for (size_t k = 0; k < nb; k++, s += SZ, a += (uintptr_t)st)   \
                memcpy(s, PTR(a), SZ);                                     \
        else                                                               \
            for (size_t k = 0; k < nb; k++, s += SZ, a += (uintptr_t)st)   \
                memcpy(PTR(a), s, SZ);                                     \
        return;
    switch (bl) {
        STRIDED(1)
        STRIDED(2)
        STRIDED(4)
        STRIDED(8)
        STRIDED(12)
        STRIDED(16)
        STRIDED(24)
        STRIDED(32)
    default:
        break;
    }
#undef STRIDED
    if (op == OP_PACK)
        for (size_t k = 0; k < nb; k++, s += bl, a += (uintptr_t)st)
            xcopy(s, PTR(a), bl);
    else
        for (size_t k = 0; k < nb; k++, s += bl, a += (uintptr_t)st)
            xcopy(PTR(a), s, bl);
}

/* nb blocks of bl bytes, block k at base + disp[k] */
DT_INLINE void indexed(const int op, char *s, uintptr_t base, const MPI_Aint *disp, size_t nb, size_t bl)
{
#define INDEXED(SZ)                                                        \
    case SZ:                                                               \
        if (op == OP_PACK)                                                 \
            for (size_t k = 0; k < nb; k++, s += SZ)                       \
                memcpy(s, PTR(base + (uintptr_t)disp[k]), SZ);             \
        else                                                               \
            for (size_t k = 0; k < nb; k++, s += SZ)                       \
                memcpy(PTR(base + (uintptr_t)disp[k]), s, SZ);             \
        return;
    switch (bl) {
        INDEXED(1)
        INDEXED(2)
        INDEXED(4)
        INDEXED(8)
        INDEXED(16)
    default:
        break;
    }
#undef INDEXED
    if (op == OP_PACK)
        for (size_t k = 0; k < nb; k++, s += bl)
            xcopy(s, PTR(base + (uintptr_t)disp[k]), bl);
    else
        for (size_t k = 0; k < nb; k++, s += bl)
            xcopy(PTR(base + (uintptr_t)disp[k]), s, bl);
}

/* ---- the walk ---- */

struct wstate {
    char *s;       /* stream position (pack: output, unpack: input) */
    size_t left;   /* bytes still to move in this call */
    struct iovec *iov;
    int niov, maxiov;
};

/* Move one piece of n <= left bytes at address a. false if the iovec
 * array is full (nothing moved). */
DT_INLINE bool piece(const int op, struct wstate *w, uintptr_t a, size_t n)
{
    if (op == OP_IOV) {
        if (w->niov > 0) {
            struct iovec *l = &w->iov[w->niov - 1];
            if ((uintptr_t)l->iov_base + l->iov_len == a) {
                l->iov_len += n;
                w->left -= n;
                return true;
            }
        }
        if (w->niov == w->maxiov)
            return false;
        w->iov[w->niov].iov_base = PTR(a);
        w->iov[w->niov].iov_len = n;
        w->niov++;
        w->left -= n;
        return true;
    }
    if (op == OP_PACK)
        xcopy(w->s, PTR(a), n);
    else
        xcopy(PTR(a), w->s, n);
    w->s += n;
    w->left -= n;
    return true;
}

static size_t upper_index(const size_t *poff, size_t n, size_t off)
{
    /* the i with poff[i] <= off < poff[i+1] */
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (poff[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A VECLEAF leaf from block f->i, *part bytes into it. Returns true when
 * the leaf is finished; false when the call must stop (f->i, *part say
 * where). */
DT_INLINE bool leaf_vec(const int op, struct wstate *w, struct frame *f, size_t *part)
{
    size_t i = f->i, cnt = f->count, bl = f->blen;
    MPI_Aint st = f->stride;
    uintptr_t a = f->base + (uintptr_t)((MPI_Aint)i * st);
    if (*part) {
        size_t n = bl - *part;
        if (n > w->left)
            n = w->left;
        if (!piece(op, w, a + *part, n))
            return false;
        if (*part + n < bl) {
            *part += n;
            return false;
        }
        *part = 0;
        i++;
        a += (uintptr_t)st;
    }
    if (op != OP_IOV) {
        size_t nb = w->left / bl;
        if (nb > cnt - i)
            nb = cnt - i;
        if (nb) {
            strided(op, w->s, a, nb, st, bl);
            w->s += nb * bl;
            w->left -= nb * bl;
            i += nb;
            a += (uintptr_t)((MPI_Aint)nb * st);
        }
    } else {
        while (i < cnt && w->left >= bl) {
            if (!piece(op, w, a, bl)) {
                f->i = i;
                return false;
            }
            i++;
            a += (uintptr_t)st;
        }
    }
    f->i = i;
    if (i < cnt) {
        size_t n = w->left; /* < bl */
        if (n && piece(op, w, a, n))
            *part = n;
        return false;
    }
    return true;
}

/* A BLOCKS leaf, as leaf_vec. */
DT_INLINE bool leaf_blocks(const int op, struct wstate *w, struct frame *f, size_t *part)
{
    const struct dt_node *n = f->n;
    const MPI_Aint *disp = n->disp;
    const size_t *len = n->len;
    size_t i = f->i, cnt = f->count, fb = n->blen;
    uintptr_t base = f->base;
    if (*part) {
        size_t bl = len ? len[i] : fb, m = bl - *part;
        if (m > w->left)
            m = w->left;
        if (!piece(op, w, base + (uintptr_t)disp[i] + *part, m))
            return false;
        if (*part + m < bl) {
            *part += m;
            return false;
        }
        *part = 0;
        i++;
    }
    if (!len && op != OP_IOV) {
        size_t nb = w->left / fb;
        if (nb > cnt - i)
            nb = cnt - i;
        if (nb) {
            indexed(op, w->s, base, disp + i, nb, fb);
            w->s += nb * fb;
            w->left -= nb * fb;
            i += nb;
        }
    } else if (op != OP_IOV) {
        /* blocks [i, j) fit whole: poff[j] - poff[i] <= left */
        const size_t *poff = n->poff;
        size_t j = cnt;
        if (poff[cnt] - poff[i] > w->left)
            j = upper_index(poff, cnt, poff[i] + w->left);
        char *st = w->s;
        if (op == OP_PACK)
            for (size_t k = i; k < j; k++) {
                xcopy(st, PTR(base + (uintptr_t)disp[k]), len[k]);
                st += len[k];
            }
        else
            for (size_t k = i; k < j; k++) {
                xcopy(PTR(base + (uintptr_t)disp[k]), st, len[k]);
                st += len[k];
            }
        w->left -= (size_t)(st - w->s);
        w->s = st;
        i = j;
    } else {
        for (; i < cnt; i++) {
            size_t bl = len ? len[i] : fb;
            if (bl > w->left)
                break;
            if (!piece(op, w, base + (uintptr_t)disp[i], bl)) {
                f->i = i;
                return false;
            }
        }
    }
    f->i = i;
    if (i < cnt) {
        size_t m = w->left;
        if (m && piece(op, w, base + (uintptr_t)disp[i], m))
            *part = m;
        return false;
    }
    return true;
}

/* Frame for node c placed at address a (c->off not yet added). */
DT_INLINE void push(struct frame *g, const struct dt_node *c, uintptr_t a)
{
    g->n = c;
    g->base = a + (uintptr_t)c->off;
    g->i = 0;
    g->count = c->count;
    g->stride = c->stride;
    g->blen = c->blen;
    g->child = c->child;
    g->kind = c->kind == DT_CONTIG ? DT_VECLEAF : c->kind;
}

/* Push the child at f->i of inner frame f into g. */
DT_INLINE void push_child(const struct frame *f, struct frame *g)
{
    if (f->kind == DT_VEC)
        push(g, f->child, f->base + (uintptr_t)((MPI_Aint)f->i * f->stride));
    else
        push(g, f->n->kids[f->i], f->base + (uintptr_t)f->n->disp[f->i]);
}

/* The top frame: count copies of the root at the extent. */
static void top_frame(const struct tide_convertor *cv, struct frame *f)
{
    const struct tide_datatype *dt = cv->dt;
    const struct dt_node *r = dt->prog->root;
    uintptr_t b = (uintptr_t)cv->buf;
    MPI_Aint ext = dt->extent, tile;
    bool tiles = (r->kind == DT_VECLEAF || r->kind == DT_VEC) &&
                 !__builtin_mul_overflow((MPI_Aint)r->count, r->stride, &tile) && tile == ext;
    f->n = r;
    f->i = 0;
    f->child = NULL;
    if (r->kind == DT_CONTIG) {
        f->kind = DT_VECLEAF;
        f->count = cv->count;
        f->stride = ext;
        f->blen = r->blen;
        f->base = b + (uintptr_t)r->off;
    } else if (tiles) {
        f->kind = r->kind;
        f->count = cv->count * r->count;
        f->stride = r->stride;
        f->blen = r->blen;
        f->child = r->child;
        f->base = b + (uintptr_t)r->off;
    } else {
        f->kind = DT_VEC;
        f->count = cv->count;
        f->stride = ext;
        f->blen = 0;
        f->child = r;
        f->base = b;
    }
}

/* Frames for packed offset off (< total); returns the leaf's depth. */
static int seek(const struct tide_convertor *cv, struct frame *st, size_t off, size_t *part)
{
    int d = 0;
    top_frame(cv, &st[0]);
    if (off == 0) { /* the start: first child everywhere, no searching */
        while (st[d].kind == DT_VEC || st[d].kind == DT_SEQ) {
            push_child(&st[d], &st[d + 1]);
            d++;
        }
        *part = 0;
        return d;
    }
    for (;;) {
        struct frame *f = &st[d];
        switch (f->kind) {
        case DT_VECLEAF:
            f->i = off / f->blen;
            *part = off % f->blen;
            return d;
        case DT_BLOCKS:
            if (f->n->len) {
                f->i = upper_index(f->n->poff, f->count, off);
                *part = off - f->n->poff[f->i];
            } else {
                f->i = off / f->blen;
                *part = off % f->blen;
            }
            return d;
        case DT_VEC: {
            size_t cs = f->child->size;
            f->i = off / cs;
            off %= cs;
            break;
        }
        default: /* DT_SEQ */
            f->i = upper_index(f->n->poff, f->count, off);
            off -= f->n->poff[f->i];
            break;
        }
        push_child(f, &st[d + 1]);
        d++;
    }
}

/* Rebuild the frames saved by the previous call. */
static int restore(const struct tide_convertor *cv, struct frame *st, size_t *part)
{
    int depth = (int)cv->pc;
    top_frame(cv, &st[0]);
    st[0].i = cv->loop[0];
    for (int d = 1; d < depth; d++) {
        push_child(&st[d - 1], &st[d]);
        st[d].i = cv->loop[d];
    }
    *part = cv->elem_off;
    return depth - 1;
}

DT_INLINE size_t walk(const int op, struct tide_convertor *cv, char *s, size_t max, struct iovec *iov,
                      int maxiov, int *niov)
{
    size_t rem = cv->total - cv->pos;
    if (max > rem)
        max = rem;
    if (niov)
        *niov = 0;
    if (max == 0 || (op == OP_IOV && maxiov < 1))
        return 0;
    struct wstate w = {s, max, iov, 0, maxiov};
    struct frame local[STACK_FRAMES], *st = local;
    int need = cv->dt->prog->depth + 1;
    if (need > STACK_FRAMES) {
        st = malloc((size_t)need * sizeof *st);
        if (!st)
            return 0;
    }
    size_t part = 0;
    int d = cv->elem == cv->pos && cv->pc ? restore(cv, st, &part) : seek(cv, st, cv->pos, &part);
    bool finished = false;
    for (;;) {
        struct frame *f = &st[d];
        bool done = f->kind == DT_BLOCKS ? leaf_blocks(op, &w, f, &part) : leaf_vec(op, &w, f, &part);
        if (!done)
            break;
        part = 0;
        for (;;) {
            if (d == 0) {
                finished = true;
                break;
            }
            d--;
            if (++st[d].i < st[d].count)
                break;
        }
        if (finished)
            break;
        while (st[d].kind == DT_VEC || st[d].kind == DT_SEQ) {
            push_child(&st[d], &st[d + 1]);
            d++;
        }
        if (w.left == 0)
            break;
    }
    size_t moved = max - w.left;
    cv->pos += moved;
    if (!finished && d < SAVED_FRAMES) {
        for (int k = 0; k <= d; k++)
            cv->loop[k] = st[k].i;
        cv->pc = (uint32_t)(d + 1);
        cv->elem_off = part;
        cv->elem = cv->pos;
    } else {
        cv->elem = SIZE_MAX;
        cv->pc = 0;
    }
    if (st != local)
        free(st);
    if (niov)
        *niov = w.niov;
    return moved;
}

size_t tide_conv_pack(struct tide_convertor *cv, void *out, size_t max)
{
    if (cv->dt->contig) {
        size_t n = cv->total - cv->pos;
        if (n > max)
            n = max;
        if (n)
            memcpy(out, PTR((uintptr_t)cv->buf + (uintptr_t)cv->dt->true_lb + cv->pos), n);
        cv->pos += n;
        return n;
    }
    return walk(OP_PACK, cv, out, max, NULL, 0, NULL);
}

size_t tide_conv_unpack(struct tide_convertor *cv, const void *in, size_t len)
{
    if (cv->dt->contig) {
        size_t n = cv->total - cv->pos;
        if (n > len)
            n = len;
        if (n)
            memcpy(PTR((uintptr_t)cv->buf + (uintptr_t)cv->dt->true_lb + cv->pos), in, n);
        cv->pos += n;
        return n;
    }
    return walk(OP_UNPACK, cv, (char *)in, len, NULL, 0, NULL);
}

int tide_conv_iov(struct tide_convertor *cv, struct iovec *iov, int maxiov, size_t maxbytes,
                  size_t *bytes)
{
    if (cv->dt->contig) {
        size_t n = cv->total - cv->pos;
        if (n > maxbytes)
            n = maxbytes;
        *bytes = n;
        if (n == 0 || maxiov < 1) {
            *bytes = 0;
            return 0;
        }
        iov[0].iov_base = PTR((uintptr_t)cv->buf + (uintptr_t)cv->dt->true_lb + cv->pos);
        iov[0].iov_len = n;
        cv->pos += n;
        return 1;
    }
    int n = 0;
    *bytes = walk(OP_IOV, cv, NULL, maxbytes, iov, maxiov, &n);
    return n;
}

int tide_datatype_foreach(struct tide_datatype *dt, size_t count, const void *buf,
                          int (*fn)(void *addr, size_t len, void *arg), void *arg)
{
    struct tide_convertor cv;
    struct iovec iov[64];
    size_t bytes;
    tide_conv_init(&cv, dt, count, buf);
    for (;;) {
        int n = tide_conv_iov(&cv, iov, 64, SIZE_MAX, &bytes);
        if (n == 0)
            return 0;
        for (int k = 0; k < n; k++) {
            int rc = fn(iov[k].iov_base, iov[k].iov_len, arg);
            if (rc)
                return rc;
        }
    }
}
