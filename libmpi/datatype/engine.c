/*
 * engine.c: building a type's program (engine.h) from its constructor
 * description, at MPI_Type_commit, and the queries answered from the typed
 * program: basic element counts (MPI_Get_elements, MPI_Status_set_elements)
 * and the per-basic-type walk external32 uses.
 *
 * Building is bottom-up with local rewriting: a repetition of a
 * contiguous run whose stride is its length becomes one longer run; a
 * repetition of a run becomes a VECLEAF; a repetition of a vector whose
 * copies tile becomes one longer vector; a sequence of runs becomes a
 * merged list of blocks (a run, a regular VECLEAF or BLOCKS); small
 * sequences and leaves inside a sequence are inlined into it. A type used
 * several times in one build is built once (nodes are shared; they never
 * change once made). All nodes live in the program's arena.
 */
#include "runtime/api.h"
#include "datatype/engine.h"

#include <stdlib.h>
#include <string.h>

/* ---- arena ---- */

struct dt_chunk {
    struct dt_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

static void *arena_alloc(struct tide_dt_program *p, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct dt_chunk *c = p->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = c ? c->cap * 2 : 2048;
        if (cap > (1u << 20))
            cap = 1u << 20;
        if (cap < n)
            cap = n;
        struct dt_chunk *nc = malloc(sizeof *nc + cap);
        if (!nc)
            return NULL;
        nc->used = 0;
        nc->cap = cap;
        if (c && c->cap - c->used > cap - n) {
            /* a big one-off block: keep filling the current chunk afterwards */
            nc->next = c->next;
            c->next = nc;
        } else {
            nc->next = c;
            p->chunks = nc;
        }
        c = nc;
    }
    void *r = c->data + c->used;
    c->used += n;
    return r;
}

void tide_dt_program_free(struct tide_dt_program *p)
{
    if (!p)
        return;
    struct dt_chunk *c = p->chunks;
    while (c) {
        struct dt_chunk *n = c->next;
        free(c);
        c = n;
    }
    free(p);
}

/* ---- build context ---- */

struct memo_ent {
    const struct tide_datatype *dt;
    struct dt_node *n;
};

struct bctx {
    struct tide_dt_program *p;
    bool typed;
    bool oom;
    struct memo_ent *memo;
    size_t memo_cap, memo_n;
};

static struct dt_node *node_new(struct bctx *bc, int kind)
{
    struct dt_node *n = arena_alloc(bc->p, sizeof *n);
    if (!n) {
        bc->oom = true;
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->depth = 1;
    return n;
}

static void *bc_array(struct bctx *bc, size_t n, size_t each)
{
    void *r = n ? arena_alloc(bc->p, n * each) : NULL;
    if (n && !r)
        bc->oom = true;
    return r;
}

static size_t basic_size(int bt)
{
    const struct tide_builtin_info *bi = tide_dt_builtin_info(bt);
    return bi && bi->size ? bi->size : 1;
}

static struct dt_node *mk_contig(struct bctx *bc, size_t len, MPI_Aint off, int bt)
{
    struct dt_node *n = node_new(bc, DT_CONTIG);
    if (!n)
        return NULL;
    n->off = off;
    n->blen = n->size = len;
    n->count = 1;
    n->btype = (uint8_t)bt;
    n->nelem = bc->typed ? (MPI_Count)(len / basic_size(bt)) : 0;
    return n;
}

static struct dt_node *clone_off(struct bctx *bc, const struct dt_node *c, MPI_Aint add)
{
    if (add == 0)
        return (struct dt_node *)c;
    struct dt_node *n = node_new(bc, c->kind);
    if (!n)
        return NULL;
    *n = *c;
    n->off += add;
    return n;
}

static struct dt_node *mk_vecleaf(struct bctx *bc, size_t count, MPI_Aint stride, size_t blen,
                                  MPI_Aint off, int bt)
{
    struct dt_node *n = node_new(bc, DT_VECLEAF);
    if (!n)
        return NULL;
    n->count = count;
    n->stride = stride;
    n->blen = blen;
    n->off = off;
    n->btype = (uint8_t)bt;
    n->size = count * blen;
    n->nelem = bc->typed ? (MPI_Count)(n->size / basic_size(bt)) : 0;
    return n;
}

/* count copies of c, copy i at i*stride */
static struct dt_node *mk_vec(struct bctx *bc, size_t count, MPI_Aint stride, struct dt_node *c)
{
    if (!c || count == 0)
        return NULL;
    if (count == 1)
        return c;
    MPI_Aint tile;
    switch (c->kind) {
    case DT_CONTIG:
        if (stride == (MPI_Aint)c->blen)
            return mk_contig(bc, count * c->blen, c->off, c->btype);
        return mk_vecleaf(bc, count, stride, c->blen, c->off, c->btype);
    case DT_VECLEAF:
        if (!__builtin_mul_overflow((MPI_Aint)c->count, c->stride, &tile) && tile == stride)
            return mk_vecleaf(bc, count * c->count, c->stride, c->blen, c->off, c->btype);
        break;
    case DT_VEC:
        if (!__builtin_mul_overflow((MPI_Aint)c->count, c->stride, &tile) && tile == stride) {
            struct dt_node *n = node_new(bc, DT_VEC);
            if (!n)
                return NULL;
            *n = *c;
            n->count = count * c->count;
            n->size = count * c->size;
            n->nelem = (MPI_Count)count * c->nelem;
            return n;
        }
        break;
    default:
        break;
    }
    struct dt_node *n = node_new(bc, DT_VEC);
    if (!n)
        return NULL;
    n->count = count;
    n->stride = stride;
    n->child = c;
    n->size = count * c->size;
    n->nelem = (MPI_Count)count * c->nelem;
    n->depth = (uint16_t)(c->depth + 1);
    return n;
}

/* ---- sequences ---- */

struct blk {
    MPI_Aint d;
    size_t len;
    int bt;
};

struct item {
    MPI_Aint d;
    struct dt_node *n;
};

struct seqb {
    struct bctx *bc;
    struct blk *b;
    size_t nb, capb;
    struct item *it;
    size_t ni, capi;
};

#define INLINE_MAX 32

static void sb_init(struct seqb *s, struct bctx *bc)
{
    memset(s, 0, sizeof *s);
    s->bc = bc;
}

static void sb_free(struct seqb *s)
{
    free(s->b);
    free(s->it);
}

static void sb_block(struct seqb *s, MPI_Aint d, size_t len, int bt)
{
    if (len == 0)
        return;
    if (s->nb) {
        struct blk *l = &s->b[s->nb - 1];
        if (l->d + (MPI_Aint)l->len == d && (!s->bc->typed || l->bt == bt)) {
            l->len += len;
            return;
        }
    }
    if (s->nb == s->capb) {
        size_t cap = s->capb ? s->capb * 2 : 16;
        struct blk *nb = realloc(s->b, cap * sizeof *nb);
        if (!nb) {
            s->bc->oom = true;
            return;
        }
        s->b = nb;
        s->capb = cap;
    }
    s->b[s->nb++] = (struct blk){d, len, bt};
}

static void sb_item(struct seqb *s, MPI_Aint d, struct dt_node *n)
{
    if (!n)
        return;
    if (s->ni == s->capi) {
        size_t cap = s->capi ? s->capi * 2 : 8;
        struct item *ni = realloc(s->it, cap * sizeof *ni);
        if (!ni) {
            s->bc->oom = true;
            return;
        }
        s->it = ni;
        s->capi = cap;
    }
    s->it[s->ni++] = (struct item){d, n};
}

/* Blocks [from, to) of one basic type (or any, natively) as one node. */
static struct dt_node *blocks_node(struct bctx *bc, const struct blk *b, size_t n)
{
    if (n == 1)
        return mk_contig(bc, b[0].len, b[0].d, b[0].bt);
    bool same = true, regular = true;
    MPI_Aint step = b[1].d - b[0].d;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += b[i].len;
        if (b[i].len != b[0].len)
            same = regular = false;
        if (i > 0 && b[i].d - b[i - 1].d != step)
            regular = false;
    }
    if (regular)
        return mk_vecleaf(bc, n, step, b[0].len, b[0].d, b[0].bt);
    struct dt_node *nd = node_new(bc, DT_BLOCKS);
    if (!nd)
        return NULL;
    nd->count = n;
    nd->size = total;
    nd->btype = (uint8_t)b[0].bt;
    nd->nelem = bc->typed ? (MPI_Count)(total / basic_size(b[0].bt)) : 0;
    nd->disp = bc_array(bc, n, sizeof(MPI_Aint));
    if (!same) {
        nd->len = bc_array(bc, n, sizeof(size_t));
        nd->poff = bc_array(bc, n + 1, sizeof(size_t));
    } else {
        nd->blen = b[0].len;
    }
    if (bc->oom)
        return NULL;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        nd->disp[i] = b[i].d;
        if (!same) {
            nd->len[i] = b[i].len;
            nd->poff[i] = off;
        }
        off += b[i].len;
    }
    if (!same)
        nd->poff[n] = off;
    return nd;
}

static void sb_flush(struct seqb *s)
{
    size_t i = 0;
    while (i < s->nb) {
        size_t j = i + 1;
        if (s->bc->typed)
            while (j < s->nb && s->b[j].bt == s->b[i].bt)
                j++;
        else
            j = s->nb;
        sb_item(s, 0, blocks_node(s->bc, s->b + i, j - i));
        i = j;
    }
    s->nb = 0;
}

/* Add node n at displacement d: leaves and small sequences are inlined. */
static void sb_node(struct seqb *s, MPI_Aint d, struct dt_node *n)
{
    if (!n)
        return;
    MPI_Aint at = d + n->off;
    switch (n->kind) {
    case DT_CONTIG:
        sb_block(s, at, n->blen, n->btype);
        return;
    case DT_VECLEAF:
        if (n->count <= INLINE_MAX) {
            for (size_t k = 0; k < n->count; k++)
                sb_block(s, at + (MPI_Aint)k * n->stride, n->blen, n->btype);
            return;
        }
        break;
    case DT_BLOCKS:
        if (n->count <= INLINE_MAX) {
            for (size_t k = 0; k < n->count; k++)
                sb_block(s, at + n->disp[k], n->len ? n->len[k] : n->blen, n->btype);
            return;
        }
        break;
    case DT_SEQ:
        if (n->count <= INLINE_MAX) {
            for (size_t k = 0; k < n->count; k++)
                sb_node(s, at + n->disp[k], n->kids[k]);
            return;
        }
        break;
    default:
        break;
    }
    sb_flush(s);
    sb_item(s, d, n);
}

static struct dt_node *sb_finish(struct seqb *s)
{
    struct bctx *bc = s->bc;
    sb_flush(s);
    struct dt_node *r = NULL;
    if (bc->oom || s->ni == 0) {
        r = NULL;
    } else if (s->ni == 1) {
        r = clone_off(bc, s->it[0].n, s->it[0].d);
    } else {
        r = node_new(bc, DT_SEQ);
        if (r) {
            r->count = s->ni;
            r->disp = bc_array(bc, s->ni, sizeof(MPI_Aint));
            r->kids = bc_array(bc, s->ni, sizeof(struct dt_node *));
            r->poff = bc_array(bc, s->ni + 1, sizeof(size_t));
            if (!bc->oom) {
                size_t off = 0;
                unsigned depth = 0;
                for (size_t i = 0; i < s->ni; i++) {
                    r->disp[i] = s->it[i].d;
                    r->kids[i] = s->it[i].n;
                    r->poff[i] = off;
                    off += s->it[i].n->size;
                    r->nelem += s->it[i].n->nelem;
                    if (s->it[i].n->depth > depth)
                        depth = s->it[i].n->depth;
                }
                r->poff[s->ni] = off;
                r->size = off;
                r->depth = (uint16_t)(depth + 1);
            } else {
                r = NULL;
            }
        }
    }
    sb_free(s);
    return r;
}

/* ---- building a type ---- */

static struct dt_node *build(struct bctx *bc, struct tide_datatype *dt);

static struct dt_node *build_builtin(struct bctx *bc, const struct tide_datatype *dt)
{
    int idx = (int)(TIDE_HANDLE_INDEX(dt->handle) & 0xff);
    const struct tide_builtin_info *bi = tide_dt_builtin_info(idx);
    if (!bi || dt->size == 0)
        return NULL;
    if (bi->ncomp != 2)
        return mk_contig(bc, bi->size, 0, idx);
    struct seqb s;
    sb_init(&s, bc);
    for (int k = 0; k < 2; k++)
        sb_block(&s, (MPI_Aint)bi->comp_off[k], tide_dt_builtin_info(bi->comp[k])->size, bi->comp[k]);
    return sb_finish(&s);
}

/* bl copies of c (old type of extent ext) at d, added to a sequence */
static void sb_rep(struct seqb *s, MPI_Aint d, size_t bl, MPI_Aint ext, struct dt_node *c)
{
    if (!c || bl == 0)
        return;
    if (c->kind == DT_CONTIG && (bl == 1 || ext == (MPI_Aint)c->blen)) {
        sb_block(s, d + c->off, bl * c->blen, c->btype);
        return;
    }
    sb_node(s, d, mk_vec(s->bc, bl, ext, c));
}

static struct dt_node *build_derived(struct bctx *bc, struct tide_datatype *dt)
{
    struct tide_datatype *o = dt->nd ? dt->olds[0] : NULL;
    switch (dt->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        return build(bc, o);
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
        return build(bc, dt->inner);
    case MPI_COMBINER_CONTIGUOUS:
        return mk_vec(bc, (size_t)tide_dt_arg(dt, 0), o->extent, build(bc, o));
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        MPI_Aint stride = (MPI_Aint)tide_dt_arg(dt, 2);
        if (dt->combiner == MPI_COMBINER_VECTOR)
            stride *= o->extent;
        struct dt_node *c = build(bc, o);
        return mk_vec(bc, (size_t)tide_dt_arg(dt, 0), stride, mk_vec(bc, (size_t)tide_dt_arg(dt, 1), o->extent, c));
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        size_t count = (size_t)tide_dt_arg(dt, 0);
        bool blk = dt->combiner == MPI_COMBINER_INDEXED_BLOCK || dt->combiner == MPI_COMBINER_HINDEXED_BLOCK;
        bool bytes = dt->combiner == MPI_COMBINER_HINDEXED || dt->combiner == MPI_COMBINER_HINDEXED_BLOCK;
        struct dt_node *c = build(bc, o);
        if (!c)
            return NULL;
        struct dt_node *v = blk ? mk_vec(bc, (size_t)tide_dt_arg(dt, 1), o->extent, c) : NULL;
        struct seqb s;
        sb_init(&s, bc);
        for (size_t i = 0; i < count && !bc->oom; i++) {
            MPI_Aint d = (MPI_Aint)tide_dt_arg(dt, blk ? 2 + i : 1 + count + i);
            if (!bytes)
                d *= o->extent;
            if (blk)
                sb_node(&s, d, v);
            else
                sb_rep(&s, d, (size_t)tide_dt_arg(dt, 1 + i), o->extent, c);
        }
        return sb_finish(&s);
    }
    case MPI_COMBINER_STRUCT: {
        size_t count = (size_t)tide_dt_arg(dt, 0);
        struct seqb s;
        sb_init(&s, bc);
        for (size_t i = 0; i < count && !bc->oom; i++) {
            struct tide_datatype *t = dt->olds[i];
            size_t bl = (size_t)tide_dt_arg(dt, 1 + i);
            if (bl == 0 || t->size == 0)
                continue;
            sb_rep(&s, (MPI_Aint)tide_dt_arg(dt, 1 + count + i), bl, t->extent, build(bc, t));
        }
        return sb_finish(&s);
    }
    default:
        return NULL;
    }
}

static struct dt_node *build(struct bctx *bc, struct tide_datatype *dt)
{
    if (bc->oom || dt->size == 0)
        return NULL;
    if (dt->predefined && dt->combiner == MPI_COMBINER_NAMED)
        return build_builtin(bc, dt);
    size_t h = 0;
    if (bc->memo_cap) {
        h = ((uintptr_t)dt >> 4) * 0x9E3779B97F4A7C15ull;
        for (size_t i = h & (bc->memo_cap - 1);; i = (i + 1) & (bc->memo_cap - 1)) {
            if (!bc->memo[i].dt)
                break;
            if (bc->memo[i].dt == dt)
                return bc->memo[i].n;
        }
    }
    struct dt_node *n = build_derived(bc, dt);
    if (bc->oom)
        return NULL;
    if (bc->memo_n * 2 >= bc->memo_cap) {
        size_t cap = bc->memo_cap ? bc->memo_cap * 2 : 16;
        struct memo_ent *m = calloc(cap, sizeof *m);
        if (!m)
            return n; /* just not remembered */
        for (size_t i = 0; i < bc->memo_cap; i++)
            if (bc->memo[i].dt) {
                size_t hh = ((uintptr_t)bc->memo[i].dt >> 4) * 0x9E3779B97F4A7C15ull;
                size_t j = hh & (cap - 1);
                while (m[j].dt)
                    j = (j + 1) & (cap - 1);
                m[j] = bc->memo[i];
            }
        free(bc->memo);
        bc->memo = m;
        bc->memo_cap = cap;
    }
    h = ((uintptr_t)dt >> 4) * 0x9E3779B97F4A7C15ull;
    size_t j = h & (bc->memo_cap - 1);
    while (bc->memo[j].dt)
        j = (j + 1) & (bc->memo_cap - 1);
    bc->memo[j] = (struct memo_ent){dt, n};
    bc->memo_n++;
    return n;
}

struct tide_dt_program *tide_dt_build(struct tide_datatype *dt, bool typed)
{
    struct tide_dt_program *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->typed = typed;
    struct bctx bc = {.p = p, .typed = typed};
    p->root = build(&bc, dt);
    free(bc.memo);
    if (bc.oom) {
        tide_dt_program_free(p);
        return NULL;
    }
    p->depth = p->root ? p->root->depth : 0;
    return p;
}

struct tide_dt_program *tide_dt_typed(struct tide_datatype *dt)
{
    if (!dt->tprog)
        dt->tprog = tide_dt_build(dt, true);
    return dt->tprog;
}

/* ---- typed walks ---- */

static int visit(const struct dt_node *n, uintptr_t base, tide_dt_visit_fn fn, void *arg)
{
    int rc;
    base += (uintptr_t)n->off;
    switch (n->kind) {
    case DT_CONTIG:
        return fn(base, n->blen, n->btype, arg);
    case DT_VECLEAF:
        for (size_t i = 0; i < n->count; i++)
            if ((rc = fn(base + (uintptr_t)((MPI_Aint)i * n->stride), n->blen, n->btype, arg)))
                return rc;
        return 0;
    case DT_BLOCKS:
        for (size_t i = 0; i < n->count; i++)
            if ((rc = fn(base + (uintptr_t)n->disp[i], n->len ? n->len[i] : n->blen, n->btype, arg)))
                return rc;
        return 0;
    case DT_VEC:
        for (size_t i = 0; i < n->count; i++)
            if ((rc = visit(n->child, base + (uintptr_t)((MPI_Aint)i * n->stride), fn, arg)))
                return rc;
        return 0;
    case DT_SEQ:
        for (size_t i = 0; i < n->count; i++)
            if ((rc = visit(n->kids[i], base + (uintptr_t)n->disp[i], fn, arg)))
                return rc;
        return 0;
    default:
        return 0;
    }
}

int tide_dt_visit_typed(struct tide_datatype *dt, size_t count, uintptr_t buf, tide_dt_visit_fn fn,
                        void *arg)
{
    if (dt->size == 0 || count == 0)
        return 0;
    struct tide_dt_program *p = tide_dt_typed(dt);
    if (!p)
        return MPI_ERR_NO_MEM;
    for (size_t e = 0; e < count; e++) {
        int rc = visit(p->root, buf + (uintptr_t)((MPI_Aint)e * dt->extent), fn, arg);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- element counts ---- */

/* basic elements in the first nbytes (< n->size) of n's packed form; -1
 * if nbytes ends inside one */
static MPI_Count count_prefix(const struct dt_node *n, size_t nbytes)
{
    switch (n->kind) {
    case DT_CONTIG:
    case DT_VECLEAF:
    case DT_BLOCKS: {
        size_t bs = basic_size(n->btype);
        return nbytes % bs ? -1 : (MPI_Count)(nbytes / bs);
    }
    case DT_VEC: {
        size_t cs = n->child->size, k = nbytes / cs, r = nbytes % cs;
        MPI_Count sub = r ? count_prefix(n->child, r) : 0;
        return sub < 0 ? -1 : (MPI_Count)k * n->child->nelem + sub;
    }
    case DT_SEQ: {
        MPI_Count total = 0;
        for (size_t i = 0; i < n->count && nbytes; i++) {
            const struct dt_node *k = n->kids[i];
            if (nbytes >= k->size) {
                total += k->nelem;
                nbytes -= k->size;
            } else {
                MPI_Count sub = count_prefix(k, nbytes);
                return sub < 0 ? -1 : total + sub;
            }
        }
        return total;
    }
    default:
        return -1;
    }
}

/* packed bytes of the first e (< n->nelem) basic elements of n */
static size_t bytes_prefix(const struct dt_node *n, MPI_Count e)
{
    switch (n->kind) {
    case DT_CONTIG:
    case DT_VECLEAF:
    case DT_BLOCKS:
        return (size_t)e * basic_size(n->btype);
    case DT_VEC: {
        MPI_Count ce = n->child->nelem, k = e / ce, r = e % ce;
        return (size_t)k * n->child->size + (r ? bytes_prefix(n->child, r) : 0);
    }
    case DT_SEQ: {
        size_t total = 0;
        for (size_t i = 0; i < n->count && e; i++) {
            const struct dt_node *k = n->kids[i];
            if (e >= k->nelem) {
                total += k->size;
                e -= k->nelem;
            } else {
                return total + bytes_prefix(k, e);
            }
        }
        return total;
    }
    default:
        return 0;
    }
}

static bool simple_builtin(const struct tide_datatype *dt)
{
    if (!dt->predefined || dt->combiner != MPI_COMBINER_NAMED)
        return false;
    const struct tide_builtin_info *bi = tide_dt_builtin_info((int)(TIDE_HANDLE_INDEX(dt->handle) & 0xff));
    return bi && bi->ncomp == 0;
}

MPI_Count tide_datatype_elements(const struct tide_datatype *cdt, MPI_Count nbytes)
{
    struct tide_datatype *dt = (struct tide_datatype *)cdt;
    if (nbytes <= 0 || dt->size == 0)
        return 0;
    if (simple_builtin(dt))
        return nbytes % (MPI_Count)dt->size ? MPI_UNDEFINED : nbytes / (MPI_Count)dt->size;
    struct tide_dt_program *p = tide_dt_typed(dt);
    if (!p || !p->root)
        return MPI_UNDEFINED;
    MPI_Count full = nbytes / (MPI_Count)dt->size, rem = nbytes % (MPI_Count)dt->size;
    MPI_Count sub = rem ? count_prefix(p->root, (size_t)rem) : 0;
    if (sub < 0)
        return MPI_UNDEFINED;
    return full * p->root->nelem + sub;
}

MPI_Count tide_datatype_elements_bytes(const struct tide_datatype *cdt, MPI_Count elements)
{
    struct tide_datatype *dt = (struct tide_datatype *)cdt;
    if (elements <= 0)
        return 0;
    if (dt->size == 0)
        return -1;
    if (simple_builtin(dt))
        return elements * (MPI_Count)dt->size;
    struct tide_dt_program *p = tide_dt_typed(dt);
    if (!p || !p->root || p->root->nelem == 0)
        return -1;
    MPI_Count per = p->root->nelem, full = elements / per, r = elements % per;
    return full * (MPI_Count)dt->size + (MPI_Count)(r ? bytes_prefix(p->root, r) : 0);
}

/* ---- pieces ---- */

static size_t node_pieces(const struct dt_node *n)
{
    switch (n->kind) {
    case DT_CONTIG:
        return 1;
    case DT_VECLEAF:
    case DT_BLOCKS:
        return n->count;
    case DT_VEC:
        return n->count * node_pieces(n->child);
    case DT_SEQ: {
        size_t s = 0;
        for (size_t i = 0; i < n->count; i++)
            s += node_pieces(n->kids[i]);
        return s;
    }
    default:
        return 0;
    }
}

size_t tide_dt_count_pieces(const struct tide_dt_program *p)
{
    return p && p->root ? node_pieces(p->root) : 0;
}

size_t tide_datatype_pieces(const struct tide_datatype *dt, size_t count)
{
    if (dt->size == 0 || count == 0)
        return 0;
    if (dt->contig)
        return 1;
    size_t per = dt->npieces;
    if (!per && dt->prog)
        per = tide_dt_count_pieces(dt->prog);
    if (!per)
        per = dt->size; /* unknown: assume the worst */
    return per > SIZE_MAX / count ? SIZE_MAX : per * count;
}
