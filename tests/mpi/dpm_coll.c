/*
 * dpm_coll.c: collectives on the intercommunicators that dynamic process
 * management creates (MPI-2.2 5.2.2 on the communicators of chapter 10):
 * barrier, bcast (small and rendezvous-sized, root in either group),
 * allreduce, allgather, alltoall, reduce, gather, scatter, a nonblocking
 * allreduce, then MPI_Intercomm_merge and an allreduce and an alltoallv
 * on the merged communicator. The "low" group is the parent or the accepting side.
 *
 * Usage: dpm_coll spawn N           spawn N children of this program
 *        dpm_coll ports              the world's two halves accept/connect
 *        dpm_coll server FILE        accept once; the port goes to FILE
 *        dpm_coll client FILE        connect to the port read from FILE
 * Prints "dpm_coll: ok (L+R)" on rank 0 of each side when all held.
 */
#include "testutil.h"

#define BIG 200000 /* doubles in the large bcast: well past eager limits */

static int side, lrank, lsize, rsize;

static int id(int s, int r)
{
    return s * 100 + r;
}

/* the root argument for a collective rooted at rank ROOT of side RSIDE */
static int root_arg(int rside, int root)
{
    if (rside != side)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void bcast_check(MPI_Comm ic, int rside, int root, int count)
{
    double *b = malloc(sizeof(double) * (size_t)count);
    CHECK(b, "malloc");
    int mine = side == rside && lrank == root;
    for (int i = 0; i < count; i++)
        b[i] = mine ? i * 0.5 + rside : -1.0;
    CHECK_OK(MPI_Bcast(b, count, MPI_DOUBLE, root_arg(rside, root), ic));
    if (side != rside)
        for (int i = 0; i < count; i++)
            CHECK(b[i] == i * 0.5 + rside, "bcast from side %d: [%d] = %g", rside, i, b[i]);
    free(b);
}

static void battery(MPI_Comm ic)
{
    int flag;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(flag, "not an intercommunicator");
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    int other = 1 - side;

    CHECK_OK(MPI_Barrier(ic));

    bcast_check(ic, 0, 0, 7);
    bcast_check(ic, 1, rsize > 0 && side == 0 ? rsize - 1 : lsize - 1, BIG);

    /* allreduce: each group receives the sum over the other group */
    int in[5], out[5];
    for (int i = 0; i < 5; i++)
        in[i] = id(side, lrank) + i;
    CHECK_OK(MPI_Allreduce(in, out, 5, MPI_INT, MPI_SUM, ic));
    for (int i = 0; i < 5; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += id(other, r) + i;
        CHECK(out[i] == want, "allreduce [%d] = %d, want %d", i, out[i], want);
    }

    /* allgather: the other group's ids in its rank order */
    int me = id(side, lrank);
    int *all = malloc(sizeof(int) * (size_t)rsize);
    CHECK(all, "malloc");
    CHECK_OK(MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, ic));
    for (int r = 0; r < rsize; r++)
        CHECK(all[r] == id(other, r), "allgather [%d] = %d", r, all[r]);

    /* alltoall: to remote j goes me*1000 + j */
    int *sb = malloc(sizeof(int) * (size_t)rsize), *rb = malloc(sizeof(int) * (size_t)rsize);
    CHECK(sb && rb, "malloc");
    for (int j = 0; j < rsize; j++)
        sb[j] = me * 1000 + j;
    CHECK_OK(MPI_Alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, ic));
    for (int j = 0; j < rsize; j++)
        CHECK(rb[j] == id(other, j) * 1000 + lrank, "alltoall from %d = %d", j, rb[j]);

    /* reduce to rank 0 of side 1: the sum of side 0's ids */
    int red = -1;
    CHECK_OK(MPI_Reduce(&me, &red, 1, MPI_INT, MPI_SUM, root_arg(1, 0), ic));
    if (side == 1 && lrank == 0) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += id(0, r);
        CHECK(red == want, "reduce = %d, want %d", red, want);
    }

    /* gather to rank 0 of side 0: side 1's ids */
    for (int r = 0; r < rsize; r++)
        all[r] = -1;
    CHECK_OK(MPI_Gather(&me, 1, MPI_INT, all, 1, MPI_INT, root_arg(0, 0), ic));
    if (side == 0 && lrank == 0)
        for (int r = 0; r < rsize; r++)
            CHECK(all[r] == id(1, r), "gather [%d] = %d", r, all[r]);

    /* scatter from rank 0 of side 1 to side 0 */
    for (int j = 0; j < rsize; j++)
        sb[j] = 5000 + j;
    int got = -1;
    CHECK_OK(MPI_Scatter(sb, 1, MPI_INT, &got, 1, MPI_INT, root_arg(1, 0), ic));
    if (side == 0)
        CHECK(got == 5000 + lrank, "scatter gave %d", got);

    /* nonblocking allreduce, completed with MPI_Wait */
    MPI_Request rq;
    int mx = -1;
    CHECK_OK(MPI_Iallreduce(&me, &mx, 1, MPI_INT, MPI_MAX, ic, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(mx == id(other, rsize - 1), "iallreduce max = %d", mx);

    /* merge: the low group (side 0) first */
    MPI_Comm m;
    CHECK_OK(MPI_Intercomm_merge(ic, side, &m));
    int mr, ms;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    CHECK(ms == lsize + rsize, "merged size %d", ms);
    int lo = side == 0 ? lsize : rsize;
    CHECK(mr == (side == 0 ? lrank : lo + lrank), "merged rank %d", mr);
    int s = me, tot = 0;
    CHECK_OK(MPI_Allreduce(&s, &tot, 1, MPI_INT, MPI_SUM, m));
    int want = 0;
    for (int r = 0; r < lsize; r++)
        want += id(side, r);
    for (int r = 0; r < rsize; r++)
        want += id(other, r);
    CHECK(tot == want, "merged allreduce %d, want %d", tot, want);
    /* an alltoallv on the merged communicator, whose ranks come from two
     * jobs: blocks from one int to more than a slot of the collectives'
     * shared region holds (on one node, read from the other job's
     * memory) */
    int *vc = malloc(sizeof(int) * (size_t)ms), *vd = malloc(sizeof(int) * (size_t)ms);
    int *wc = malloc(sizeof(int) * (size_t)ms), *wd = malloc(sizeof(int) * (size_t)ms);
    int vs = 0, ws = 0;
    for (int q = 0; q < ms; q++) {
        vc[q] = (mr + q) % 3 * 3000 + 1;
        vd[q] = vs;
        vs += vc[q];
        wc[q] = (q + mr) % 3 * 3000 + 1;
        wd[q] = ws;
        ws += wc[q];
    }
    int *vb = malloc(sizeof(int) * (size_t)vs), *wb = malloc(sizeof(int) * (size_t)ws);
    for (int q = 0; q < ms; q++)
        for (int i = 0; i < vc[q]; i++)
            vb[vd[q] + i] = mr * 100000 + q * 1000 + i % 1000;
    CHECK_OK(MPI_Alltoallv(vb, vc, vd, MPI_INT, wb, wc, wd, MPI_INT, m));
    for (int q = 0; q < ms; q++)
        for (int i = 0; i < wc[q]; i++)
            CHECK(wb[wd[q] + i] == q * 100000 + mr * 1000 + i % 1000, "merged alltoallv: block from %d, element %d",
                  q, i);
    free(vc);
    free(vd);
    free(wc);
    free(wd);
    free(vb);
    free(wb);
    CHECK_OK(MPI_Comm_free(&m));

    free(all);
    free(sb);
    free(rb);
    if (lrank == 0)
        printf("dpm_coll: ok (%d+%d)\n", lsize, rsize);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm parent, ic;
    MPI_Comm_get_parent(&parent);
    CHECK(argc >= 2, "usage: dpm_coll spawn N | ports | server FILE | client FILE");
    char port[MPI_MAX_PORT_NAME] = "";
    if (parent != MPI_COMM_NULL) {
        side = 1;
        ic = parent;
        battery(ic);
    } else if (strcmp(argv[1], "spawn") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 2;
        char *cargv[] = {"child", NULL};
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                MPI_ERRCODES_IGNORE));
        side = 0;
        battery(ic);
    } else if (strcmp(argv[1], "ports") == 0) {
        CHECK(wsize >= 2, "ports needs 2 ranks");
        int half = wsize / 2;
        side = wrank >= half;
        MPI_Comm local;
        CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local));
        if (wrank == 0) {
            CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_OK(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, half, 0, MPI_COMM_WORLD));
        } else if (wrank == half) {
            CHECK_OK(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
        }
        if (side == 0)
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, local, &ic));
        else
            CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, local, &ic));
        battery(ic);
        if (wrank == 0)
            CHECK_OK(MPI_Close_port(port));
        CHECK_OK(MPI_Comm_free(&local));
    } else if (strcmp(argv[1], "server") == 0 && argc > 2) {
        side = 0;
        if (wrank == 0) {
            CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
            FILE *f = fopen(tmp, "w");
            CHECK(f, "cannot write %s", tmp);
            fprintf(f, "%s\n", port);
            fclose(f);
            rename(tmp, argv[2]);
        }
        CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
        battery(ic);
        if (wrank == 0)
            CHECK_OK(MPI_Close_port(port));
    } else if (strcmp(argv[1], "client") == 0 && argc > 2) {
        side = 1;
        if (wrank == 0) {
            FILE *f = fopen(argv[2], "r");
            CHECK(f && fgets(port, sizeof port, f), "cannot read the port from %s", argv[2]);
            fclose(f);
            port[strcspn(port, "\n")] = '\0';
        }
        CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
        battery(ic);
    } else {
        CHECK(0, "unknown mode %s", argv[1]);
    }
    CHECK_OK(MPI_Comm_disconnect(&ic));
    MPI_Finalize();
    return 0;
}
