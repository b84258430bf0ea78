/*
 * c_spawn_parent.c: a C parent that spawns N copies of a Fortran child
 * (f_spawn_child, with the argument "child") and trades one message with
 * each, as tests/mpi/dpm_spawn does. Usage: c_spawn_parent CHILD N
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: c_spawn_parent CHILD N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, n = atoi(argv[2]), errcodes[16];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *cargv[] = {"child", NULL};
    MPI_Comm inter;
    if (MPI_Comm_spawn(argv[1], cargv, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL spawn\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int c = 0; c < n; c++) {
        int v = rank * 100 + c;
        MPI_Send(&v, 1, MPI_INT, c, 1, inter);
    }
    for (int c = 0; c < n; c++) {
        int v;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, inter, &st);
        if (v != st.MPI_SOURCE * 1000 + rank) {
            fprintf(stderr, "FAIL answer %d from %d\n", v, st.MPI_SOURCE);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Comm_disconnect(&inter);
    if (rank == 0)
        printf("C parent: %d Fortran children answered\n", n);
    MPI_Finalize();
    return 0;
}
