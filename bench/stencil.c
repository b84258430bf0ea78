/*
 * stencil.c: a small application benchmark, Jacobi iteration for the
 * Laplace equation on a global N x N grid of doubles, split over a 2-D
 * Cartesian process grid (MPI_Dims_create, MPI_Cart_create,
 * MPI_Cart_shift). Every iteration each rank exchanges its four halos
 * with nonblocking MPI_Isend/MPI_Irecv (rows contiguous, columns with an
 * MPI_Type_vector), then updates its block; every 10 iterations the
 * residual, the largest change of any point in that iteration, is
 * combined with MPI_Allreduce(MPI_MAX). The boundary is 1 on the top edge
 * and 0 on the other three. Every point is computed the same way whatever
 * the decomposition, and a maximum does not depend on the order of
 * reduction, so the residual is bit for bit the same for every
 * implementation and rank count. Plain MPI, so it builds with any
 * implementation.
 *
 * Usage: stencil [N [iterations]]   (defaults 1024 and 500)
 * Prints one line "seconds residual": the time of the iterations (the
 * slowest rank) and the last residual computed.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* GCC 12 takes MPICH's MPI_STATUSES_IGNORE, a null pointer of type
 * MPI_Status *, for a zero-sized array and warns on every MPI_Waitall. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define DEFAULT_GRID 1024
#define DEFAULT_ITERATIONS 500
#define RESIDUAL_EVERY 10
#define TOP_BOUNDARY_VALUE 1.0

/* tags name the direction a halo travels */
enum { TAG_UP, TAG_DOWN, TAG_LEFT, TAG_RIGHT };

/* rows of an N-point dimension split over parts: this part's share */
static int share(int n, int parts, int index) { return n / parts + (index < n % parts); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int world_size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int grid = argc > 1 ? atoi(argv[1]) : DEFAULT_GRID;
    int iterations = argc > 2 ? atoi(argv[2]) : DEFAULT_ITERATIONS;
    if (grid < 2)
        grid = DEFAULT_GRID;
    if (iterations < RESIDUAL_EVERY)
        iterations = RESIDUAL_EVERY;

    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Dims_create(world_size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, coords);
    int up, down, left, right;
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);

    int rows = share(grid, dims[0], coords[0]);
    int cols = share(grid, dims[1], coords[1]);
    if (rows < 1 || cols < 1) {
        if (rank == 0)
            fprintf(stderr, "stencil: grid %d too small for %d ranks\n", grid, world_size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int stride = cols + 2; /* one halo column on each side */
    size_t points = (size_t)(rows + 2) * (size_t)stride;
    double *current = calloc(points, sizeof(double));
    double *next = calloc(points, sizeof(double));
    if (!current || !next)
        MPI_Abort(MPI_COMM_WORLD, 3);
#define AT(array, i, j) ((array)[(size_t)(i) * (size_t)stride + (size_t)(j)])
    /* the halo above the top row of the global grid holds the boundary
     * value; no message ever overwrites it */
    if (up == MPI_PROC_NULL)
        for (int j = 0; j < stride; j++)
            AT(current, 0, j) = AT(next, 0, j) = TOP_BOUNDARY_VALUE;

    MPI_Datatype column;
    MPI_Type_vector(rows, 1, stride, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double residual = 0;
    MPI_Barrier(cart);
    double start = MPI_Wtime();
    for (int iteration = 1; iteration <= iterations; iteration++) {
        MPI_Request requests[8];
        MPI_Irecv(&AT(current, 0, 1), cols, MPI_DOUBLE, up, TAG_DOWN, cart, &requests[0]);
        MPI_Irecv(&AT(current, rows + 1, 1), cols, MPI_DOUBLE, down, TAG_UP, cart, &requests[1]);
        MPI_Irecv(&AT(current, 1, 0), 1, column, left, TAG_RIGHT, cart, &requests[2]);
        MPI_Irecv(&AT(current, 1, cols + 1), 1, column, right, TAG_LEFT, cart, &requests[3]);
        MPI_Isend(&AT(current, 1, 1), cols, MPI_DOUBLE, up, TAG_UP, cart, &requests[4]);
        MPI_Isend(&AT(current, rows, 1), cols, MPI_DOUBLE, down, TAG_DOWN, cart, &requests[5]);
        MPI_Isend(&AT(current, 1, 1), 1, column, left, TAG_LEFT, cart, &requests[6]);
        MPI_Isend(&AT(current, 1, cols), 1, column, right, TAG_RIGHT, cart, &requests[7]);
        MPI_Waitall(8, requests, MPI_STATUSES_IGNORE);

        int check = iteration % RESIDUAL_EVERY == 0;
        double largest_change = 0;
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                double value = 0.25 * (AT(current, i - 1, j) + AT(current, i + 1, j) +
                                       AT(current, i, j - 1) + AT(current, i, j + 1));
                AT(next, i, j) = value;
                if (check) {
                    double change = fabs(value - AT(current, i, j));
                    if (change > largest_change)
                        largest_change = change;
                }
            }
        }
        if (check)
            MPI_Allreduce(&largest_change, &residual, 1, MPI_DOUBLE, MPI_MAX, cart);
        double *swap = current;
        current = next;
        next = swap;
    }
    double elapsed = MPI_Wtime() - start, slowest;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    if (rank == 0)
        printf("%.4f %.12e\n", slowest, residual);
#undef AT
    MPI_Type_free(&column);
    MPI_Comm_free(&cart);
    free(current);
    free(next);
    MPI_Finalize();
    return 0;
}
