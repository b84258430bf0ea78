/*
 * lu.c: a small application benchmark in the manner of HPL: LU
 * factorization with partial pivoting of a dense N x N matrix of random
 * doubles, distributed by block columns round robin over the ranks
 * (1-D block-cyclic, block NB). At each step the owner of the panel
 * factorizes it (pivot search, row swap, scaling, update of the rest of
 * the panel) and broadcasts it with its pivots (one MPI_Bcast); every
 * rank applies the row swaps to its other columns and updates its part
 * of the trailing matrix, in plain C loops. Then the factors are gathered
 * to rank 0 (MPI_Gatherv), which solves A x = b and checks the scaled
 * residual ||A x - b|| / (eps (||A|| ||x|| + ||b||) N) in the infinity
 * norm (HPL passes a run below 16). Every element is updated in the same
 * order whatever the number of ranks, so the residual is the same for
 * every implementation and rank count. Plain MPI, so it builds with any
 * implementation.
 *
 * Usage: lu [N [NB]]   (defaults 1000 and 64)
 * Prints one line "seconds scaled_residual": the time from the start of
 * the factorization to the solution on rank 0.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_ORDER 1000
#define DEFAULT_BLOCK 64
#define MATRIX_SEED 20261206u

/* element (row, column) of the matrix, column N being the right-hand
 * side: a hash of the position mapped to [-0.5, 0.5), so any rank can
 * generate any part */
static double matrix_element(int order, int row, int column)
{
    uint64_t z = ((uint64_t)column * (uint64_t)(order + 1) + (uint64_t)row) + MATRIX_SEED;
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

struct layout {
    int order, block, ranks, rank;
    int blocks;        /* block columns in all */
    int local_columns; /* columns held by this rank */
};

static int block_width(const struct layout *l, int block_index)
{
    int rest = l->order - block_index * l->block;
    return rest < l->block ? rest : l->block;
}

static int columns_of_rank(const struct layout *l, int rank)
{
    int columns = 0;
    for (int b = rank; b < l->blocks; b += l->ranks)
        columns += block_width(l, b);
    return columns;
}

/* factorize the panel held in local columns first..first+width-1 (column
 * major, leading dimension order), rows from top down; pivots get the
 * global row chosen for each panel column */
static void factorize_panel(double *local, int order, int first, int width, int top, int *pivots)
{
    for (int p = 0; p < width; p++) {
        int diagonal = top + p;
        double *column = local + (size_t)(first + p) * order;
        int pivot_row = diagonal;
        double largest = fabs(column[diagonal]);
        for (int i = diagonal + 1; i < order; i++) {
            if (fabs(column[i]) > largest) {
                largest = fabs(column[i]);
                pivot_row = i;
            }
        }
        pivots[p] = pivot_row;
        if (pivot_row != diagonal) {
            for (int c = 0; c < width; c++) {
                double *swap_column = local + (size_t)(first + c) * order;
                double keep = swap_column[diagonal];
                swap_column[diagonal] = swap_column[pivot_row];
                swap_column[pivot_row] = keep;
            }
        }
        if (column[diagonal] == 0)
            continue; /* singular: leave the column, the residual shows it */
        double inverse = 1.0 / column[diagonal];
        for (int i = diagonal + 1; i < order; i++)
            column[i] *= inverse;
        for (int c = p + 1; c < width; c++) {
            double *target = local + (size_t)(first + c) * order;
            double multiplier = target[diagonal];
            for (int i = diagonal + 1; i < order; i++)
                target[i] -= column[i] * multiplier;
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct layout l;
    MPI_Comm_size(MPI_COMM_WORLD, &l.ranks);
    MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
    l.order = argc > 1 ? atoi(argv[1]) : DEFAULT_ORDER;
    l.block = argc > 2 ? atoi(argv[2]) : DEFAULT_BLOCK;
    if (l.order < 1)
        l.order = DEFAULT_ORDER;
    if (l.block < 1)
        l.block = DEFAULT_BLOCK;
    l.blocks = (l.order + l.block - 1) / l.block;
    l.local_columns = columns_of_rank(&l, l.rank);
    int order = l.order;

    /* local column c of local block k is global column
     * (k * ranks + rank) * block + c */
    double *local = malloc(((size_t)l.local_columns * order + 1) * sizeof(double));
    double *panel = malloc(((size_t)order * l.block + l.block) * sizeof(double));
    int *pivots = malloc((size_t)order * sizeof(int));
    if (!local || !panel || !pivots)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int b = l.rank, k = 0; b < l.blocks; b += l.ranks, k++)
        for (int c = 0; c < block_width(&l, b); c++)
            for (int i = 0; i < order; i++)
                local[(size_t)(k * l.block + c) * order + i] = matrix_element(order, i, b * l.block + c);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int b = 0; b < l.blocks; b++) {
        int top = b * l.block, width = block_width(&l, b), owner = b % l.ranks;
        int rows = order - top;
        int *step_pivots = pivots + top;
        if (l.rank == owner) {
            int first = (b / l.ranks) * l.block;
            factorize_panel(local, order, first, width, top, step_pivots);
            for (int c = 0; c < width; c++)
                memcpy(panel + (size_t)c * rows, local + (size_t)(first + c) * order + top,
                       (size_t)rows * sizeof(double));
            for (int c = 0; c < width; c++)
                panel[(size_t)width * rows + c] = step_pivots[c];
        }
        MPI_Bcast(panel, width * rows + width, MPI_DOUBLE, owner, MPI_COMM_WORLD);
        if (l.rank != owner)
            for (int c = 0; c < width; c++)
                step_pivots[c] = (int)panel[(size_t)width * rows + c];

        for (int gb = l.rank, k = 0; gb < l.blocks; gb += l.ranks, k++) {
            if (gb == b)
                continue; /* the panel itself is done */
            for (int c = 0; c < block_width(&l, gb); c++) {
                double *column = local + (size_t)(k * l.block + c) * order;
                /* row swaps: all columns, so that the factors end up as
                 * P A = L U */
                for (int p = 0; p < width; p++) {
                    int from = top + p, to = step_pivots[p];
                    if (to != from) {
                        double keep = column[from];
                        column[from] = column[to];
                        column[to] = keep;
                    }
                }
                if (gb < b)
                    continue;
                /* trailing update: the block row of U, then the rest */
                for (int p = 0; p < width; p++) {
                    const double *multipliers = panel + (size_t)p * rows - top;
                    double u = column[top + p];
                    for (int i = top + p + 1; i < order; i++)
                        column[i] -= multipliers[i] * u;
                }
            }
        }
    }

    /* gather the factors to rank 0 */
    int *counts = NULL, *displacements = NULL;
    double *gathered = NULL;
    if (l.rank == 0) {
        counts = malloc((size_t)l.ranks * sizeof(int));
        displacements = malloc((size_t)l.ranks * sizeof(int));
        gathered = malloc((size_t)order * order * sizeof(double));
        if (!counts || !displacements || !gathered)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (int r = 0, offset = 0; r < l.ranks; r++) {
            counts[r] = columns_of_rank(&l, r) * order;
            displacements[r] = offset;
            offset += counts[r];
        }
    }
    MPI_Gatherv(local, l.local_columns * order, MPI_DOUBLE, gathered, counts, displacements,
                MPI_DOUBLE, 0, MPI_COMM_WORLD);

    if (l.rank == 0) {
        /* factors in global column order */
        double *factors = malloc((size_t)order * order * sizeof(double));
        double *x = malloc((size_t)order * sizeof(double));
        if (!factors || !x)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (int r = 0; r < l.ranks; r++)
            for (int gb = r, k = 0; gb < l.blocks; gb += l.ranks, k++)
                memcpy(factors + (size_t)gb * l.block * order,
                       gathered + displacements[r] + (size_t)k * l.block * order,
                       (size_t)block_width(&l, gb) * order * sizeof(double));
        /* solve: permute b, L y = P b (unit lower), U x = y */
        for (int i = 0; i < order; i++)
            x[i] = matrix_element(order, i, order);
        for (int i = 0; i < order; i++) {
            if (pivots[i] != i) {
                double keep = x[i];
                x[i] = x[pivots[i]];
                x[pivots[i]] = keep;
            }
        }
        for (int j = 0; j < order; j++) {
            const double *column = factors + (size_t)j * order;
            for (int i = j + 1; i < order; i++)
                x[i] -= column[i] * x[j];
        }
        for (int j = order - 1; j >= 0; j--) {
            const double *column = factors + (size_t)j * order;
            x[j] /= column[j];
            for (int i = 0; i < j; i++)
                x[i] -= column[i] * x[j];
        }
        double elapsed = MPI_Wtime() - start;

        /* check against the matrix generated afresh */
        double residual_norm = 0, matrix_norm = 0, x_norm = 0, b_norm = 0;
        double *row_sums = calloc((size_t)order, sizeof(double));
        double *residual = malloc((size_t)order * sizeof(double));
        if (!row_sums || !residual)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (int i = 0; i < order; i++)
            residual[i] = -matrix_element(order, i, order);
        for (int j = 0; j < order; j++) {
            for (int i = 0; i < order; i++) {
                double a = matrix_element(order, i, j);
                residual[i] += a * x[j];
                row_sums[i] += fabs(a);
            }
        }
        for (int i = 0; i < order; i++) {
            residual_norm = fmax(residual_norm, fabs(residual[i]));
            matrix_norm = fmax(matrix_norm, row_sums[i]);
            x_norm = fmax(x_norm, fabs(x[i]));
            b_norm = fmax(b_norm, fabs(matrix_element(order, i, order)));
        }
        double scaled = residual_norm / (DBL_EPSILON * (matrix_norm * x_norm + b_norm) * order);
        printf("%.4f %.6e\n", elapsed, scaled);
        free(row_sums);
        free(residual);
        free(factors);
        free(x);
        free(counts);
        free(displacements);
        free(gathered);
    }
    free(local);
    free(panel);
    free(pivots);
    MPI_Finalize();
    return 0;
}
