/*
 * slurm_ring.c: the MPI program of the Slurm tests. Every rank says hello
 * with its rank, the world size and MPI_UNIVERSE_SIZE, passes a token
 * round a ring with MPI_Sendrecv (a small and a large message, so both the
 * eager and the rendezvous paths run), checks an MPI_Allreduce and meets
 * the others in MPI_Barrier. "spawn" as first argument: rank 0 then tries
 * MPI_Comm_spawn of one copy of itself and prints how that ended.
 * "abort": after the barrier, the last rank calls MPI_Abort with code 7
 * while the others wait in a receive that never completes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static int ring(int rank, int size, int count)
{
    int *out = calloc((size_t)count, sizeof *out), *in = calloc((size_t)count, sizeof *in);
    if (!out || !in)
        return 1;
    for (int i = 0; i < count; i++)
        out[i] = rank * 7 + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(out, count, MPI_INT, right, 1, in, count, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < count; i++)
        if (in[i] != left * 7 + i)
            bad = 1;
    free(out);
    free(in);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, flag, *usize = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    char host[MPI_MAX_PROCESSOR_NAME];
    int hl;
    MPI_Get_processor_name(host, &hl);
    printf("hello from rank %d of %d universe %d on %s\n", rank, size, flag ? *usize : -1, host);
    fflush(stdout);

    int bad = ring(rank, size, 4) + ring(rank, size, BIG / (int)sizeof(int));
    int sum = 0, one = rank + 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size + 1) / 2)
        bad++;
    int allbad = 0;
    MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    if (argc > 1 && strcmp(argv[1], "abort") == 0) {
        if (rank == size - 1)
            MPI_Abort(MPI_COMM_WORLD, 7);
        int never;
        MPI_Recv(&never, 1, MPI_INT, size - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (argc > 1 && strcmp(argv[1], "spawn") == 0 && rank == 0) {
        MPI_Comm child;
        int errcode = MPI_SUCCESS;
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        char *cargs[] = {"child", NULL};
        int rc = MPI_Comm_spawn(argv[0], cargs, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, &errcode);
        if (rc == MPI_SUCCESS) {
            printf("spawn succeeded\n");
            MPI_Comm_disconnect(&child);
        } else {
            char msg[MPI_MAX_ERROR_STRING];
            int len, cls;
            MPI_Error_class(rc, &cls);
            MPI_Error_string(rc, msg, &len);
            printf("spawn failed: class %s: %s\n", cls == MPI_ERR_SPAWN ? "MPI_ERR_SPAWN" : "other", msg);
        }
        fflush(stdout);
    }
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        MPI_Comm parent;
        MPI_Comm_get_parent(&parent);
        if (parent != MPI_COMM_NULL)
            MPI_Comm_disconnect(&parent);
    }

    if (rank == 0)
        printf("ring %s across %d ranks\n", allbad ? "FAILED" : "ok", size);
    MPI_Finalize();
    return allbad ? 1 : 0;
}
