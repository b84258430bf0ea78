/*
 * testutil.h: helpers for Tide's MPI test programs. CHECK(cond, fmt, ...)
 * prints what differed (with the rank and line) and ends the job with a
 * nonzero status; tests exit 0 when everything held.
 */
#ifndef TIDE_TESTUTIL_H
#define TIDE_TESTUTIL_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tu_rank(void)
{
    int init = 0, fin = 0, r = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", tu_rank(),     \
                    __FILE__, __LINE__, #cond);                                   \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                \
            fflush(stderr);                                                       \
            int init_ = 0, fin_ = 0;                                              \
            MPI_Initialized(&init_);                                              \
            MPI_Finalized(&fin_);                                                 \
            if (init_ && !fin_)                                                   \
                MPI_Abort(MPI_COMM_WORLD, 3);                                     \
            exit(3);                                                              \
        }                                                                         \
    } while (0)

/* Expect call to fail with the given error class (needs MPI_ERRORS_RETURN). */
#define CHECK_ERR(call, cls)                                                      \
    do {                                                                          \
        int rc_ = (call);                                                         \
        int c_ = -1;                                                              \
        if (rc_ != MPI_SUCCESS)                                                   \
            MPI_Error_class(rc_, &c_);                                            \
        CHECK(c_ == (cls), "%s returned class %d, expected %d (%s)", #call, c_,   \
              (cls), #cls);                                                       \
    } while (0)

#define CHECK_OK(call)                                                            \
    do {                                                                          \
        int rc_ = (call);                                                         \
        if (rc_ != MPI_SUCCESS) {                                                 \
            char s_[MPI_MAX_ERROR_STRING];                                        \
            int l_ = 0;                                                           \
            MPI_Error_string(rc_, s_, &l_);                                       \
            CHECK(rc_ == MPI_SUCCESS, "%s failed: %s", #call, s_);                \
        }                                                                         \
    } while (0)

/* Tide's per-communicator collective tuning hint (other implementations
 * ignore it): force algorithms, as "op=alg,...". */
static inline void tu_set_coll_hint(MPI_Comm c, const char *text)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "tide_coll_tuning", text);
    CHECK_OK(MPI_Comm_set_info(c, info));
    MPI_Info_free(&info);
}

#endif
