/*
 * output_lines.c: every rank prints LINES lines of about 60 bytes with
 * printf (no fflush), for the cost of forwarding ranks' output and of
 * how their stdout is buffered (run-output.sh). Usage: output_lines LINES
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long lines = argc > 1 ? atol(argv[1]) : 100000;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (long i = 0; i < lines; i++)
        printf("rank %4d line %8ld: the quick brown fox jumps over\n", rank, i);
    MPI_Finalize();
    return 0;
}
