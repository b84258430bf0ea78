/*
 * c_atmosphere.c: the atmosphere of a coupled model, in C, meeting the
 * Fortran ocean (f_ocean.f90) of another mpiexec through the port whose
 * name the ocean wrote to the file given as argument: it connects, and
 * each coupling step receives the sea surface temperatures of the ocean
 * ranks that map to it and returns its heat fluxes through an
 * intercommunicator allreduce; then both disconnect.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCELLS 8
#define NSTEPS 3

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "FAIL atmosphere %s: %s\n", what, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
        FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
        if (!f || !fgets(port, sizeof port, f)) {
            fprintf(stderr, "FAIL atmosphere: cannot read the port name from %s\n", argc > 1 ? argv[1] : "(none)");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fclose(f);
        port[strcspn(port, "\n")] = '\0';
    }
    MPI_Comm inter;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter), "connect");
    int osize;
    MPI_Comm_remote_size(inter, &osize);
    for (int step = 1; step <= NSTEPS; step++) {
        double sst_total = 0, expect = 0;
        /* the ocean ranks r with r mod size == rank send to me */
        for (int r = rank; r < osize; r += size) {
            double sst[NCELLS];
            MPI_Status st;
            check(MPI_Recv(sst, NCELLS, MPI_DOUBLE, r, step, inter, &st), "recv");
            for (int i = 0; i < NCELLS; i++) {
                double want = 280.0 + r + 0.5 * (i + 1) + step;
                if (sst[i] != want) {
                    fprintf(stderr, "FAIL atmosphere: step %d cell %d of ocean rank %d: %g, expected %g\n", step, i,
                            r, sst[i], want);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
            }
        }
        double flux = NCELLS * (rank + step * 10.0);
        check(MPI_Allreduce(&flux, &sst_total, 1, MPI_DOUBLE, MPI_SUM, inter), "allreduce");
        for (int r = 0; r < osize; r++)
            for (int i = 0; i < NCELLS; i++)
                expect += 280.0 + r + 0.5 * (i + 1) + step;
        if (sst_total < expect - 1e-6 || sst_total > expect + 1e-6) {
            fprintf(stderr, "FAIL atmosphere: step %d: ocean total %g, expected %g\n", step, sst_total, expect);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    check(MPI_Comm_disconnect(&inter), "disconnect");
    if (rank == 0)
        printf("atmosphere of %d coupled with an ocean of %d ok\n", size, osize);
    MPI_Finalize();
    return 0;
}
