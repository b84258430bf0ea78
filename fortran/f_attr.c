/*
 * f_attr.c: attributes and keyvals from Fortran (MPI-2.2 6.7, 16.3.7):
 * MPI_Comm/Type/Win_create_keyval and MPI_Keyval_create take Fortran
 * copy and delete subroutines, which have another calling convention
 * than C's (every argument by reference, attribute values as
 * INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for the MPI-1 calls): the
 * C keyval gets C callbacks that call them, with a record of the Fortran
 * procedures and extra state as its extra state. An attribute value set
 * by MPI_COMM/TYPE/WIN_SET_ATTR is stored, as MPI-4.0 19.3.7 has C see it,
 * as the address of an MPI_Aint holding it (a "box", known here); the
 * Fortran gets give a box's value, a value set in C as the address it is,
 * and the predefined attributes by value (MPI_WIN_BASE: the address).
 * The MPI-1 MPI_ATTR_PUT stores the INTEGER itself. Also the predefined
 * callbacks (MPI_COMM_DUP_FN, ...) as Fortran procedures.
 */
#include "f_support.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- boxes: the values set from Fortran ---- */

static pthread_mutex_t box_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Aint **boxes;
static size_t nboxes, box_cap;

/* A new box holding v, NULL if out of memory. */
static MPI_Aint *box_new(MPI_Aint v)
{
    MPI_Aint *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    *b = v;
    pthread_mutex_lock(&box_lock);
    if (nboxes == box_cap) {
        size_t cap = box_cap ? 2 * box_cap : 16;
        MPI_Aint **n = realloc(boxes, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&box_lock);
            free(b);
            return NULL;
        }
        boxes = n;
        box_cap = cap;
    }
    boxes[nboxes++] = b;
    pthread_mutex_unlock(&box_lock);
    return b;
}

/* Is p a box? Then its value in *v (and, with drop, the box freed). */
static int box_find(void *p, MPI_Aint *v, int drop)
{
    int found = 0;
    pthread_mutex_lock(&box_lock);
    for (size_t i = nboxes; i-- > 0;)
        if (boxes[i] == p) {
            *v = *boxes[i];
            if (drop) {
                boxes[i] = boxes[--nboxes];
                free(p);
            }
            found = 1;
            break;
        }
    pthread_mutex_unlock(&box_lock);
    return found;
}

/* The value Fortran gets for a C attribute pointer p (not a predefined
 * attribute): a box's value, or p itself (set in C). */
MPI_Aint tide_f_attr_value(void *p)
{
    MPI_Aint v;
    return box_find(p, &v, 0) ? v : (MPI_Aint)(intptr_t)p;
}

/* Fortran callbacks: copy (OLD, KEYVAL, EXTRA, IN, OUT, FLAG, IERROR) and
 * delete (OBJ, KEYVAL, VALUE, EXTRA, IERROR); the MPI-1 ones with INTEGER
 * values and extra state */
typedef void f_copy_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void f_delete_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
typedef void f_copy1_fn(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void f_delete1_fn(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

struct fkey {
    void (*copy)(void);
    void (*del)(void);
    MPI_Aint extra;
    int mpi1; /* MPI_Keyval_create: INTEGER values and extra state */
    struct fkey *next;
};

/* One copy and one delete trampoline for a handle of a kind: the
 * record comes as the C extra state. */
static int copy_any(MPI_Fint obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    struct fkey *k = extra;
    MPI_Fint kv = keyval, fl = 0, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint e = (MPI_Fint)k->extra, vin = (MPI_Fint)(intptr_t)in, vout = 0;
        ((f_copy1_fn *)k->copy)(&obj, &kv, &e, &vin, &vout, &fl, &ierr);
        if (fl)
            *(void **)out = (void *)(intptr_t)vout;
    } else {
        /* a value set from Fortran comes in a box, and its copy goes in one */
        MPI_Aint vin = 0, vout = 0;
        int boxed = box_find(in, &vin, 0);
        if (!boxed)
            vin = (MPI_Aint)(intptr_t)in;
        ((f_copy_fn *)k->copy)(&obj, &kv, &k->extra, &vin, &vout, &fl, &ierr);
        if (fl && ierr == MPI_SUCCESS) {
            void *o = boxed ? (void *)box_new(vout) : (void *)(intptr_t)vout;
            if (boxed && !o) {
                fl = 0;
                ierr = MPI_ERR_NO_MEM;
            }
            *(void **)out = o;
        }
    }
    *flag = fl != 0;
    return ierr;
}

static int delete_any(MPI_Fint obj, int keyval, void *value, void *extra)
{
    struct fkey *k = extra;
    MPI_Fint kv = keyval, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint e = (MPI_Fint)k->extra, v = (MPI_Fint)(intptr_t)value;
        ((f_delete1_fn *)k->del)(&obj, &kv, &v, &e, &ierr);
    } else {
        MPI_Aint v = 0;
        int boxed = box_find(value, &v, 0);
        if (!boxed)
            v = (MPI_Aint)(intptr_t)value;
        ((f_delete_fn *)k->del)(&obj, &kv, &v, &k->extra, &ierr);
        if (boxed && ierr == MPI_SUCCESS)
            box_find(value, &v, 1);
    }
    return ierr;
}

static int comm_copy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    return copy_any(MPI_Comm_c2f(c), kv, e, in, out, flag);
}
static int comm_delete(MPI_Comm c, int kv, void *v, void *e)
{
    return delete_any(MPI_Comm_c2f(c), kv, v, e);
}
static int type_copy(MPI_Datatype t, int kv, void *e, void *in, void *out, int *flag)
{
    return copy_any(MPI_Type_c2f(t), kv, e, in, out, flag);
}
static int type_delete(MPI_Datatype t, int kv, void *v, void *e)
{
    return delete_any(MPI_Type_c2f(t), kv, v, e);
}
static int win_copy(MPI_Win w, int kv, void *e, void *in, void *out, int *flag)
{
    return copy_any(MPI_Win_c2f(w), kv, e, in, out, flag);
}
static int win_delete(MPI_Win w, int kv, void *v, void *e)
{
    return delete_any(MPI_Win_c2f(w), kv, v, e);
}

/* A record lives as long as the program (a keyval's callbacks may run
 * until its last attribute goes, after the keyval itself is freed); the
 * list keeps every one reachable. */
static struct fkey *records;

static struct fkey *record(void (*copy)(void), void (*del)(void), MPI_Aint extra, int mpi1)
{
    struct fkey *k = malloc(sizeof *k);
    if (k) {
        *k = (struct fkey){copy, del, extra, mpi1, records};
        records = k;
    }
    return k;
}

/* a record whose keyval could not be made (the newest one) */
static void unrecord(struct fkey *k)
{
    if (k && records == k) {
        records = k->next;
        free(k);
    }
}

#define CREATE_KEYVAL(lower, Kind, cname)                                                                 \
    ALIAS2(mpi_##lower##_create_keyval, void (*copy)(void), void (*del)(void), MPI_Fint *keyval,           \
           MPI_Aint *extra, MPI_Fint *ierr)                                                                \
    void mpi_##lower##_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,            \
                                      MPI_Aint *extra, MPI_Fint *ierr)                                     \
    {                                                                                                      \
        struct fkey *k = record(copy, del, *extra, 0);                                                    \
        int kv = MPI_KEYVAL_INVALID;                                                                       \
        int rc = k ? MPI_##Kind##_create_keyval(cname##_copy, cname##_delete, &kv, k) : MPI_ERR_NO_MEM;   \
        if (rc != MPI_SUCCESS)                                                                             \
            unrecord(k);                                                                                   \
        *keyval = kv;                                                                                      \
        if (ierr)                                                                                          \
            *ierr = rc;                                                                                    \
    }
CREATE_KEYVAL(comm, Comm, comm)
CREATE_KEYVAL(type, Type, type)
CREATE_KEYVAL(win, Win, win)

ALIAS2(mpi_keyval_create, void (*copy)(void), void (*del)(void), MPI_Fint *keyval, MPI_Fint *extra,
       MPI_Fint *ierr)
void mpi_keyval_create_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *ierr)
{
    struct fkey *k = record(copy, del, *extra, 1);
    int kv = MPI_KEYVAL_INVALID;
    int rc = k ? MPI_Comm_create_keyval(comm_copy, comm_delete, &kv, k) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS)
        unrecord(k);
    *keyval = kv;
    if (ierr)
        *ierr = rc;
}

/* ---- values ---- */

#define SET_ATTR(lower, Kind, vtype)                                                                      \
    ALIAS2(mpi_##lower, MPI_Fint *obj, MPI_Fint *keyval, vtype *value, MPI_Fint *ierr)                    \
    void mpi_##lower##_(MPI_Fint *obj, MPI_Fint *keyval, vtype *value, MPI_Fint *ierr)                    \
    {                                                                                                      \
        void *b = (void *)(intptr_t)*value;                                                               \
        if (sizeof(vtype) == sizeof(MPI_Aint) && !(b = box_new((MPI_Aint)*value))) {                      \
            if (ierr)                                                                                      \
                *ierr = MPI_ERR_NO_MEM;                                                                    \
            return;                                                                                        \
        }                                                                                                  \
        int rc = MPI_##Kind(MPI_##Kind##_f2c_handle(*obj), *keyval, b);                                   \
        MPI_Aint unused;                                                                                   \
        if (rc != MPI_SUCCESS && sizeof(vtype) == sizeof(MPI_Aint))                                        \
            box_find(b, &unused, 1);                                                                       \
        if (ierr)                                                                                          \
            *ierr = rc;                                                                                    \
    }
#define MPI_Comm_set_attr_f2c_handle MPI_Comm_f2c
#define MPI_Type_set_attr_f2c_handle MPI_Type_f2c
#define MPI_Win_set_attr_f2c_handle MPI_Win_f2c
#define MPI_Attr_put_f2c_handle MPI_Comm_f2c
SET_ATTR(comm_set_attr, Comm_set_attr, MPI_Aint)
SET_ATTR(type_set_attr, Type_set_attr, MPI_Aint)
SET_ATTR(win_set_attr, Win_set_attr, MPI_Aint)
SET_ATTR(attr_put, Attr_put, MPI_Fint)

/* the value of a predefined attribute (C gives its address), -1 if the
 * keyval is not one of those; MPI_WIN_BASE is the address itself */
static int predefined_value(int k, void *p, MPI_Aint *value)
{
    if (k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO || k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
        k == MPI_APPNUM || k == MPI_LASTUSEDCODE || k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR ||
        k == MPI_WIN_MODEL)
        *value = *(int *)p;
    else if (k == MPI_WIN_SIZE)
        *value = *(MPI_Aint *)p;
    else if (k == MPI_WIN_BASE)
        *value = (MPI_Aint)(intptr_t)p;
    else
        return -1;
    return 0;
}

static void get_out(int rc, int keyval, void *p, int c_flag, MPI_Aint *value, MPI_Fint *flag, MPI_Fint *ierr)
{
    *flag = c_flag != 0;
    if (rc == MPI_SUCCESS && c_flag && predefined_value(keyval, p, value) != 0)
        *value = tide_f_attr_value(p);
    if (ierr)
        *ierr = rc;
}

#define GET_ATTR(lower, Kind)                                                                             \
    ALIAS2(mpi_##lower##_get_attr, MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,       \
           MPI_Fint *ierr)                                                                                 \
    void mpi_##lower##_get_attr_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,         \
                                 MPI_Fint *ierr)                                                           \
    {                                                                                                      \
        void *p = NULL;                                                                                    \
        int c_flag = 0;                                                                                    \
        int rc = MPI_##Kind##_get_attr(MPI_##Kind##_f2c(*obj), *keyval, &p, &c_flag);                      \
        get_out(rc, *keyval, p, c_flag, value, flag, ierr);                                                \
    }
GET_ATTR(type, Type)
GET_ATTR(win, Win)

ALIAS2(mpi_attr_get, MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag, MPI_Fint *ierr)
void mpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag, MPI_Fint *ierr)
{
    void *p = NULL;
    int c_flag = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &c_flag);
    MPI_Aint v = 0;
    MPI_Fint e = MPI_SUCCESS;
    get_out(rc, *keyval, p, c_flag, &v, flag, &e);
    if (rc == MPI_SUCCESS && c_flag)
        *value = (MPI_Fint)v;
    if (ierr)
        *ierr = rc;
}

/* ---- the predefined callbacks, as Fortran procedures ---- */

/* copy callbacks: the null one (no copy) and the dup one (the same value) */
#define COPY_FN(name, vtype, etype, dup)                                                                  \
    ALIAS2(name, MPI_Fint *o, MPI_Fint *k, etype *e, vtype *in, vtype *out, MPI_Fint *flag, MPI_Fint *ierr) \
    void name##_(MPI_Fint *o, MPI_Fint *k, etype *e, vtype *in, vtype *out, MPI_Fint *flag, MPI_Fint *ierr) \
    {                                                                                                      \
        (void)o, (void)k, (void)e;                                                                        \
        if (dup)                                                                                           \
            *out = *in;                                                                                    \
        *flag = dup;                                                                                       \
        *ierr = MPI_SUCCESS;                                                                               \
    }
#define NULL_DELETE(name, vtype, etype)                                                                   \
    ALIAS2(name, MPI_Fint *o, MPI_Fint *k, vtype *v, etype *e, MPI_Fint *ierr)                           \
    void name##_(MPI_Fint *o, MPI_Fint *k, vtype *v, etype *e, MPI_Fint *ierr)                           \
    {                                                                                                      \
        (void)o, (void)k, (void)v, (void)e;                                                               \
        *ierr = MPI_SUCCESS;                                                                               \
    }
COPY_FN(mpi_comm_null_copy_fn, MPI_Aint, MPI_Aint, 0)
COPY_FN(mpi_type_null_copy_fn, MPI_Aint, MPI_Aint, 0)
COPY_FN(mpi_win_null_copy_fn, MPI_Aint, MPI_Aint, 0)
COPY_FN(mpi_null_copy_fn, MPI_Fint, MPI_Fint, 0)
COPY_FN(mpi_comm_dup_fn, MPI_Aint, MPI_Aint, 1)
COPY_FN(mpi_type_dup_fn, MPI_Aint, MPI_Aint, 1)
COPY_FN(mpi_win_dup_fn, MPI_Aint, MPI_Aint, 1)
COPY_FN(mpi_dup_fn, MPI_Fint, MPI_Fint, 1)
NULL_DELETE(mpi_comm_null_delete_fn, MPI_Aint, MPI_Aint)
NULL_DELETE(mpi_type_null_delete_fn, MPI_Aint, MPI_Aint)
NULL_DELETE(mpi_win_null_delete_fn, MPI_Aint, MPI_Aint)
NULL_DELETE(mpi_null_delete_fn, MPI_Fint, MPI_Fint)
