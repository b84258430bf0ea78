/*
 * mpit_basic.c: the tool information interface (MPI_T). Before MPI_Init
 * and after MPI_Finalize, counted initialisation; every control
 * variable, performance variable and category described, found again by
 * name and read; enumerations; write errors; the lifecycle of sessions
 * and handles; every invalid index, name, handle and session with its
 * error class. With "tide EAGER [NINT [multiple]]" as arguments also
 * what only Tide has: tide_shm_eager_limit reads EAGER (set by the test
 * through the environment or --param), tide_verbose can be written only
 * while the runtime is up, and the message counters count the messages
 * rank 0 sends rank 1 (of NINT ints, 100 by default) while started, stop
 * counting when stopped, and reset; "multiple" initializes with
 * MPI_THREAD_MULTIPLE. Without arguments it also runs with MPICH.
 */
#include "testutil.h"

#define EXPECT(call, want)                                                                   \
    do {                                                                                     \
        int got_ = (call);                                                                   \
        CHECK(got_ == (want), "%s returned %d, expected %d (%s)", #call, got_, want, #want); \
    } while (0)

/* MPICH 4.0.2 (against which this test is checked) crashes on any
 * performance variable index while it has none */
#ifdef MPICH_VERSION
#define INDEX_CHECKABLE(n) ((n) > 0)
#else
#define INDEX_CHECKABLE(n) 1
#endif

/* where outputs not looked at go (MPI-3.1 allows NULL for strings only) */
static int di;
static MPI_Datatype ddt;
static MPI_T_enum de;

static int type_size(MPI_Datatype dt)
{
    if (dt == MPI_INT || dt == MPI_UNSIGNED)
        return (int)sizeof(int);
    if (dt == MPI_UNSIGNED_LONG || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT || dt == MPI_DOUBLE)
        return 8;
    CHECK(dt == MPI_CHAR, "a control or performance variable of an unexpected datatype");
    return 1;
}

static void check_enum(MPI_T_enum e)
{
    int num = -1;
    char name[256];
    int len = sizeof name;
    EXPECT(MPI_T_enum_get_info(e, &num, name, &len), MPI_SUCCESS);
    CHECK(num >= 1 && len == (int)strlen(name) + 1, "enum %s: %d items, length %d", name, num, len);
    for (int i = 0; i < num; i++) {
        int value;
        char item[256];
        int ilen = sizeof item;
        EXPECT(MPI_T_enum_get_item(e, i, &value, item, &ilen), MPI_SUCCESS);
        CHECK(ilen == (int)strlen(item) + 1, "enum %s item %d", name, i);
    }
    int value;
    char item[16];
    int ilen = sizeof item;
    EXPECT(MPI_T_enum_get_item(e, num, &value, item, &ilen), MPI_T_ERR_INVALID_ITEM);
    EXPECT(MPI_T_enum_get_item(e, -1, &value, item, &ilen), MPI_T_ERR_INVALID_ITEM);
}

/* Every control variable: described, found by name, read; the value of
 * `want` (if not NULL) is returned in *found. */
static void check_cvars(const char *want, unsigned long *found)
{
    int n = -1;
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "cvar count %d", n);
    char (*names)[256] = calloc((size_t)n + 1, 256);
    for (int i = 0; i < n; i++) {
        int nlen = 256, dlen = 0, verbosity, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum e;
        EXPECT(MPI_T_cvar_get_info(i, names[i], &nlen, &verbosity, &dt, &e, NULL, &dlen, &bind, &scope),
               MPI_SUCCESS);
        CHECK(nlen == (int)strlen(names[i]) + 1 && dlen >= 1, "cvar %d: name length %d, description %d", i, nlen,
              dlen);
        char *desc = malloc((size_t)dlen);
        int dlen2 = dlen;
        EXPECT(MPI_T_cvar_get_info(i, NULL, NULL, &di, &ddt, &de, desc, &dlen2, &di, &di), MPI_SUCCESS);
        CHECK(dlen2 == dlen && (int)strlen(desc) + 1 == dlen, "cvar %s: description", names[i]);
        free(desc);
        CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL, "verbosity %d",
              verbosity);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ, "scope %d", scope);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(names[i], names[j]) != 0, "two cvars named %s", names[i]);
        int idx = -1;
        EXPECT(MPI_T_cvar_get_index(names[i], &idx), MPI_SUCCESS);
        CHECK(idx == i, "cvar %s: index %d, expected %d", names[i], idx, i);
        if (e != MPI_T_ENUM_NULL)
            check_enum(e);
        if (bind != MPI_T_BIND_NO_OBJECT)
            continue; /* bound to an object: would need one */
        MPI_T_cvar_handle h;
        int count = -1;
        EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
        CHECK(count >= 1, "cvar %s: count %d", names[i], count);
        char *buf = calloc((size_t)count, (size_t)type_size(dt));
        EXPECT(MPI_T_cvar_read(h, buf), MPI_SUCCESS);
        if (dt == MPI_CHAR)
            CHECK(memchr(buf, 0, (size_t)count) != NULL, "cvar %s: unterminated string", names[i]);
        if (want && strcmp(names[i], want) == 0) {
            CHECK(dt == MPI_UNSIGNED_LONG && count == 1, "cvar %s: type", want);
            *found = *(unsigned long *)buf;
        }
        if (scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_READONLY)
            EXPECT(MPI_T_cvar_write(h, buf), MPI_T_ERR_CVAR_SET_NEVER);
        free(buf);
        EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar handle not set to null");
    }
    /* invalid indices, names, handles */
    char name[64];
    int len = sizeof name;
    EXPECT(MPI_T_cvar_get_info(n, name, &len, &di, &ddt, &de, NULL, NULL, &di, &di), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_info(-1, name, &len, &di, &ddt, &de, NULL, NULL, &di, &di), MPI_T_ERR_INVALID_INDEX);
    int idx, count;
    EXPECT(MPI_T_cvar_get_index("no_such_control_variable", &idx), MPI_T_ERR_INVALID_NAME);
    MPI_T_cvar_handle h;
    EXPECT(MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_handle_alloc(-1, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    h = MPI_T_CVAR_HANDLE_NULL;
    EXPECT(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
    free(names);
}

static void check_pvars(void)
{
    int n = -1;
    EXPECT(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "pvar count %d", n);
    char (*names)[256] = calloc((size_t)n + 1, 256);
    int *classes = calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++) {
        int nlen = 256, dlen = 0, verbosity, bind, readonly, continuous, atomic;
        MPI_Datatype dt;
        MPI_T_enum e;
        EXPECT(MPI_T_pvar_get_info(i, names[i], &nlen, &verbosity, &classes[i], &dt, &e, NULL, &dlen, &bind,
                                   &readonly, &continuous, &atomic),
               MPI_SUCCESS);
        CHECK(nlen == (int)strlen(names[i]) + 1, "pvar %d: name length %d", i, nlen);
        CHECK(classes[i] >= MPI_T_PVAR_CLASS_STATE && classes[i] <= MPI_T_PVAR_CLASS_GENERIC, "class %d",
              classes[i]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(names[i], names[j]) != 0 || classes[i] != classes[j], "two pvars named %s", names[i]);
        int idx = -1;
        EXPECT(MPI_T_pvar_get_index(names[i], classes[i], &idx), MPI_SUCCESS);
        CHECK(idx == i, "pvar %s: index %d, expected %d", names[i], idx, i);
        if (e != MPI_T_ENUM_NULL)
            check_enum(e);
    }
    char name[64];
    int len = sizeof name, idx, count;
    if (INDEX_CHECKABLE(n))
        EXPECT(MPI_T_pvar_get_info(n, name, &len, &di, &di, &ddt, &de, NULL, NULL, &di, &di, &di, &di),
               MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_get_index("no_such_performance_variable", MPI_T_PVAR_CLASS_COUNTER, &idx),
           MPI_T_ERR_INVALID_NAME);
    /* sessions and handles, whatever the variables */
    MPI_T_pvar_session s1, s2;
    EXPECT(MPI_T_pvar_session_create(&s1), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_session_create(&s2), MPI_SUCCESS);
    MPI_T_pvar_handle h;
    if (INDEX_CHECKABLE(n))
        EXPECT(MPI_T_pvar_handle_alloc(s1, n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &h, &count), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_start(s1, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_stop(s1, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    unsigned long long v[16];
    EXPECT(MPI_T_pvar_read(s1, MPI_T_PVAR_HANDLE_NULL, v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_reset(s1, MPI_T_PVAR_HANDLE_NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_handle_free(s1, &(MPI_T_pvar_handle){MPI_T_PVAR_HANDLE_NULL}), MPI_T_ERR_INVALID_HANDLE);
    for (int i = 0; i < n; i++) {
        int bind;
        EXPECT(MPI_T_pvar_get_info(i, NULL, NULL, &di, &di, &ddt, &de, NULL, NULL, &bind, &di, &di, &di),
               MPI_SUCCESS);
        if (bind != MPI_T_BIND_NO_OBJECT)
            continue;
        EXPECT(MPI_T_pvar_handle_alloc(s1, i, NULL, &h, &count), MPI_SUCCESS);
        /* a handle of s1 is not one of s2 */
        EXPECT(MPI_T_pvar_start(s2, h), MPI_T_ERR_INVALID_HANDLE);
        EXPECT(MPI_T_pvar_handle_free(s2, &h), MPI_T_ERR_INVALID_HANDLE);
        EXPECT(MPI_T_pvar_handle_free(s1, &h), MPI_SUCCESS);
        CHECK(h == MPI_T_PVAR_HANDLE_NULL, "pvar handle not set to null");
        break;
    }
    EXPECT(MPI_T_pvar_session_free(&s2), MPI_SUCCESS);
    CHECK(s2 == MPI_T_PVAR_SESSION_NULL, "session not set to null");
    EXPECT(MPI_T_pvar_session_free(&s2), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_session_free(&s1), MPI_SUCCESS);
    free(names);
    free(classes);
}

static void check_categories(void)
{
    int n = -1, ncvar, npvar;
    EXPECT(MPI_T_category_get_num(&n), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&ncvar), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_get_num(&npvar), MPI_SUCCESS);
    char (*names)[256] = calloc((size_t)n + 1, 256);
    for (int i = 0; i < n; i++) {
        int nlen = 256, dlen = 0, nc, np, ns;
        EXPECT(MPI_T_category_get_info(i, names[i], &nlen, NULL, &dlen, &nc, &np, &ns), MPI_SUCCESS);
        CHECK(nlen == (int)strlen(names[i]) + 1, "category %d name", i);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(names[i], names[j]) != 0, "two categories named %s", names[i]);
        int idx = -1;
        EXPECT(MPI_T_category_get_index(names[i], &idx), MPI_SUCCESS);
        CHECK(idx == i, "category %s: index %d", names[i], idx);
        int *ix = malloc(sizeof(int) * (size_t)(nc + np + ns + 1));
        EXPECT(MPI_T_category_get_cvars(i, nc, ix), MPI_SUCCESS);
        for (int k = 0; k < nc; k++)
            CHECK(ix[k] >= 0 && ix[k] < ncvar, "category %s: cvar %d", names[i], ix[k]);
        EXPECT(MPI_T_category_get_pvars(i, np, ix), MPI_SUCCESS);
        for (int k = 0; k < np; k++)
            CHECK(ix[k] >= 0 && ix[k] < npvar, "category %s: pvar %d", names[i], ix[k]);
        EXPECT(MPI_T_category_get_categories(i, ns, ix), MPI_SUCCESS);
        for (int k = 0; k < ns; k++)
            CHECK(ix[k] >= 0 && ix[k] < n && ix[k] != i, "category %s: subcategory %d", names[i], ix[k]);
        free(ix);
    }
    int ix[1];
    char name[64];
    int len = sizeof name, idx;
    EXPECT(MPI_T_category_get_info(n, name, &len, NULL, NULL, &di, &di, &di), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_cvars(n, 1, ix), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_pvars(-1, 1, ix), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_categories(n, 1, ix), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_index("no_such_category", &idx), MPI_T_ERR_INVALID_NAME);
    int st1, st2;
    EXPECT(MPI_T_category_changed(&st1), MPI_SUCCESS);
    EXPECT(MPI_T_category_changed(&st2), MPI_SUCCESS);
    CHECK(st1 == st2, "category stamp changed from %d to %d", st1, st2);
    free(names);
}

static int index_in(int (*get)(int, int, int *), int cat, int want)
{
    int ix[64];
    EXPECT(get(cat, 64, ix), MPI_SUCCESS);
    int nc, np, ns;
    EXPECT(MPI_T_category_get_info(cat, NULL, NULL, NULL, NULL, &nc, &np, &ns), MPI_SUCCESS);
    int n = get == MPI_T_category_get_cvars ? nc : get == MPI_T_category_get_pvars ? np : ns;
    for (int i = 0; i < n && i < 64; i++)
        if (ix[i] == want)
            return 1;
    return 0;
}

/* tide_verbose: written while the runtime is up, not before or after */
static void check_tide_verbose(int up)
{
    int idx, count, scope, v0, v;
    MPI_T_cvar_handle h;
    EXPECT(MPI_T_cvar_get_index("tide_verbose", &idx), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_info(idx, NULL, NULL, &di, &ddt, &de, NULL, NULL, &di, &scope), MPI_SUCCESS);
    CHECK(scope == MPI_T_SCOPE_LOCAL, "tide_verbose: scope %d", scope);
    EXPECT(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_read(h, &v0), MPI_SUCCESS);
    v = v0 + 3;
    if (!up) {
        EXPECT(MPI_T_cvar_write(h, &v), MPI_T_ERR_CVAR_SET_NOT_NOW);
    } else {
        EXPECT(MPI_T_cvar_write(h, &v), MPI_SUCCESS);
        EXPECT(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
        CHECK(v == v0 + 3, "tide_verbose: %d after writing %d", v, v0 + 3);
        EXPECT(MPI_T_cvar_write(h, &v0), MPI_SUCCESS);
        EXPECT(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
        CHECK(v == v0, "tide_verbose: %d after writing %d", v, v0);
    }
    EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_write(h, &v), MPI_T_ERR_INVALID_HANDLE);
}

/* Tide's own: categories, the message counters. */
static void check_tide_pvars(int rank, int size, int nint)
{
    int cat, sub, var;
    EXPECT(MPI_T_category_get_index("transport", &cat), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_index("tide_shm_eager_limit", &var), MPI_SUCCESS);
    CHECK(index_in(MPI_T_category_get_cvars, cat, var), "tide_shm_eager_limit not in transport");
    EXPECT(MPI_T_category_get_index("tide", &cat), MPI_SUCCESS);
    EXPECT(MPI_T_category_get_index("pt2pt", &sub), MPI_SUCCESS);
    CHECK(index_in(MPI_T_category_get_categories, cat, sub), "pt2pt not in tide");
    EXPECT(MPI_T_pvar_get_index("tide_msgs_sent", MPI_T_PVAR_CLASS_COUNTER, &var), MPI_SUCCESS);
    CHECK(index_in(MPI_T_category_get_pvars, sub, var), "tide_msgs_sent not in pt2pt");
    EXPECT(MPI_T_pvar_get_index("tide_msgs_sent", MPI_T_PVAR_CLASS_LEVEL, &var), MPI_T_ERR_INVALID_NAME);

    const char *names[5] = {"tide_msgs_sent", "tide_bytes_sent", "tide_msgs_received", "tide_bytes_received",
                            "tide_msgs_sent_total"};
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[5];
    EXPECT(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    for (int i = 0; i < 5; i++) {
        int idx, count, readonly, continuous;
        MPI_Datatype dt;
        EXPECT(MPI_T_pvar_get_index(names[i], MPI_T_PVAR_CLASS_COUNTER, &idx), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_get_info(idx, NULL, NULL, &di, &di, &dt, &de, NULL, NULL, &di, &readonly, &continuous, &di),
               MPI_SUCCESS);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG && readonly == (i == 4) && continuous == (i == 4), "%s: info", names[i]);
        EXPECT(MPI_T_pvar_handle_alloc(s, idx, NULL, &h[i], &count), MPI_SUCCESS);
        CHECK(count == 1, "%s: count %d", names[i], count);
    }
    unsigned long long v[5], total0;
    for (int i = 0; i < 4; i++) {
        EXPECT(MPI_T_pvar_read(s, h[i], &v[i]), MPI_SUCCESS);
        CHECK(v[i] == 0, "%s: %llu before it started", names[i], v[i]);
    }
    EXPECT(MPI_T_pvar_read(s, h[4], &total0), MPI_SUCCESS);
    /* the continuous, read-only one */
    EXPECT(MPI_T_pvar_start(s, h[4]), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_stop(s, h[4]), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_write(s, h[4], &v[0]), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_reset(s, h[4]), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_readreset(s, h[4], &v[0]), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, v), MPI_T_ERR_INVALID_HANDLE);

    /* rank 0 sends rank 1 ten messages of 100 ints while counting */
    enum { NMSG = 10 };
    const int NINT = nint;
    int *buf = calloc((size_t)nint, sizeof(int));
    EXPECT(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    if (rank == 0 && size > 1)
        for (int k = 0; k < NMSG; k++)
            CHECK_OK(MPI_Send(buf, NINT, MPI_INT, 1, 5, MPI_COMM_WORLD));
    else if (rank == 1)
        for (int k = 0; k < NMSG; k++)
            CHECK_OK(MPI_Recv(buf, NINT, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    unsigned long long want[4] = {0, 0, 0, 0};
    if (rank == 0 && size > 1) {
        want[0] = NMSG;
        want[1] = NMSG * (unsigned long long)NINT * sizeof(int);
    } else if (rank == 1) {
        want[2] = NMSG;
        want[3] = NMSG * (unsigned long long)NINT * sizeof(int);
    }
    for (int i = 0; i < 4; i++) {
        EXPECT(MPI_T_pvar_read(s, h[i], &v[i]), MPI_SUCCESS);
        CHECK(v[i] == want[i], "%s: %llu, expected %llu", names[i], v[i], want[i]);
    }
    /* stopped: what else is sent is not counted; the total goes on */
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    unsigned long long total1;
    EXPECT(MPI_T_pvar_read(s, h[4], &total1), MPI_SUCCESS);
    CHECK(total1 >= total0 + want[0], "total %llu after %llu", total1, total0);
    for (int i = 0; i < 4; i++) {
        unsigned long long x;
        EXPECT(MPI_T_pvar_read(s, h[i], &x), MPI_SUCCESS);
        CHECK(x == want[i], "%s: %llu while stopped, expected %llu", names[i], x, want[i]);
    }
    /* readreset, reset, write */
    unsigned long long x = 99;
    EXPECT(MPI_T_pvar_readreset(s, h[0], &x), MPI_SUCCESS);
    CHECK(x == want[0], "readreset gave %llu", x);
    EXPECT(MPI_T_pvar_read(s, h[0], &x), MPI_SUCCESS);
    CHECK(x == 0, "after readreset %llu", x);
    unsigned long long w = 42;
    EXPECT(MPI_T_pvar_write(s, h[1], &w), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(s, h[1], &x), MPI_SUCCESS);
    CHECK(x == 42, "after write %llu", x);
    EXPECT(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = 0; i < 4; i++) {
        EXPECT(MPI_T_pvar_read(s, h[i], &x), MPI_SUCCESS);
        CHECK(x == 0, "%s: %llu after reset", names[i], x);
    }
    /* a started handle counts from the value it was written */
    EXPECT(MPI_T_pvar_write(s, h[0], &w), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_start(s, h[0]), MPI_SUCCESS);
    if (rank == 0 && size > 1)
        CHECK_OK(MPI_Send(buf, 1, MPI_INT, 1, 6, MPI_COMM_WORLD));
    else if (rank == 1)
        CHECK_OK(MPI_Recv(buf, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(MPI_T_pvar_stop(s, h[0]), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(s, h[0], &x), MPI_SUCCESS);
    CHECK(x == 42u + (rank == 0 && size > 1 ? 1u : 0u), "written then started: %llu", x);
    /* freeing the session frees its handles */
    EXPECT(MPI_T_pvar_handle_free(s, &h[0]), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(s, h[0], &x), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    free(buf);
}

int main(int argc, char **argv)
{
    int tide = argc > 2 && strcmp(argv[1], "tide") == 0;
    unsigned long eager = tide ? strtoul(argv[2], NULL, 10) : 0;
    int n, provided = -1;

    /* before MPI_Init, counted */
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
    EXPECT(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided), MPI_SUCCESS);
    unsigned long found = 0;
    check_cvars(tide ? "tide_shm_eager_limit" : NULL, &found);
    if (tide)
        CHECK(found == eager, "tide_shm_eager_limit before MPI_Init: %lu, expected %lu", found, eager);
    if (tide)
        check_tide_verbose(0);
    check_pvars();
    check_categories();

    /* a fourth argument "multiple": the library under MPI_THREAD_MULTIPLE */
    if (argc > 4 && strcmp(argv[4], "multiple") == 0) {
        CHECK_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
        CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    found = 0;
    check_cvars(tide ? "tide_shm_eager_limit" : NULL, &found);
    if (tide)
        CHECK(found == eager, "tide_shm_eager_limit: %lu, expected %lu", found, eager);
    check_pvars();
    check_categories();
    if (tide)
        check_tide_verbose(1);
    if (tide)
        check_tide_pvars(rank, size, argc > 3 ? atoi(argv[3]) : 100);

    /* the classes are error classes of their own */
    const int classes[] = {MPI_T_ERR_MEMORY, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_CANNOT_INIT,
                           MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_ITEM, MPI_T_ERR_INVALID_HANDLE,
                           MPI_T_ERR_OUT_OF_HANDLES, MPI_T_ERR_OUT_OF_SESSIONS, MPI_T_ERR_INVALID_SESSION,
                           MPI_T_ERR_CVAR_SET_NOT_NOW, MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_PVAR_NO_STARTSTOP,
                           MPI_T_ERR_PVAR_NO_WRITE, MPI_T_ERR_PVAR_NO_ATOMIC, MPI_T_ERR_INVALID_NAME,
                           MPI_T_ERR_INVALID};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        CHECK(classes[i] > 0 && classes[i] <= MPI_ERR_LASTCODE, "class %d", classes[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(classes[i] != classes[j], "classes %zu and %zu are equal", i, j);
        int c = -1, len = 0;
        char s[MPI_MAX_ERROR_STRING];
        CHECK_OK(MPI_Error_class(classes[i], &c));
        CHECK(c == classes[i], "class of %d is %d", classes[i], c);
        CHECK_OK(MPI_Error_string(classes[i], s, &len));
        CHECK(len > 0, "no string for class %d", classes[i]);
        if (tide)
            CHECK(strncmp(s, "MPI_T_ERR_", 10) == 0, "class %d: '%s'", classes[i], s);
    }
    int version, subversion;
    CHECK_OK(MPI_Get_version(&version, &subversion));
    CHECK(version * 10 + subversion >= 31, "MPI %d.%d", version, subversion);
    MPI_Finalize();

    /* after MPI_Finalize: still usable until the last MPI_T_finalize */
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    if (tide) {
        check_cvars("tide_shm_eager_limit", &found);
        CHECK(found == eager, "tide_shm_eager_limit after MPI_Finalize: %lu, expected %lu", found, eager);
    }
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_pvar_session_create(&(MPI_T_pvar_session){MPI_T_PVAR_SESSION_NULL}), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    /* and again (MPICH 4.0.2 crashes here) */
#ifndef MPICH_VERSION
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_category_get_num(&n), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
#endif
    if (rank == 0)
        printf("mpit_basic: ok\n");
    return 0;
}
