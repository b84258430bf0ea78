/*
 * io.c: MPI-IO bandwidth of one file shared by all ranks, in three access
 * patterns (plain MPI, so it builds with any implementation):
 *   coll    a 3-D array of doubles, block-distributed over a
 *           MPI_Dims_create process grid; each rank's block described by
 *           an MPI_Type_create_subarray file view, written with
 *           MPI_File_write_all and read back with MPI_File_read_all
 *   vec     noncontiguous independent I/O: the file is a round robin of
 *           BLOCK-byte blocks (rank r owns blocks r, r+P, r+2P, ...); each
 *           rank's blocks are an MPI_Type_vector file view, written with
 *           one MPI_File_write and read with one MPI_File_read
 *   contig  contiguous independent I/O: rank r's slice of the file is
 *           bytes [r*S/P, (r+1)*S/P), MPI_File_write_at / MPI_File_read_at
 *           (in pieces of at most 1 GiB)
 * Each phase is timed from a barrier to its end on the slowest rank (the
 * maximum over ranks of the time each spent). Figures (MB/s, 1 MB = 1e6 B):
 *   <group>_write       the write calls only: the data may still be in the
 *                       page cache, not on disk
 *   <group>_write_sync  the write calls plus MPI_File_sync
 *   <group>_read        read after MPI_File_sync and, on every rank,
 *                       posix_fadvise(POSIX_FADV_DONTNEED) over the whole
 *                       file, so that the reads reach the device (as far as
 *                       the kernel honours the advice; with -C it is not
 *                       given and the read is from the page cache)
 *   <group>_read_cached the same read again, from the page cache
 * Every read is checked against what was written (a mismatch aborts).
 *
 * usage: io [-d DIR] [-s MIB] [-v MIB] [-b BLOCK] [-g GROUPS] [-C] [-k]
 *   -d  directory for the file (IO_BENCH_DIR, else /tmp)
 *   -s  total size of the coll and contig files in MiB (1024)
 *   -v  total size of the vec file in MiB (same as -s)
 *   -b  block size of the vec pattern in bytes (64)
 *   -g  comma-separated groups (coll,vec,contig)
 *   -C  no page cache eviction before the first read
 *   -k  keep the files
 * Environment IO_BENCH_HINTS="key=value,key=value": MPI_Info hints for
 * MPI_File_open.
 * Prints "#size GROUP BYTES" then "name nprocs MB/s" lines per group, and
 * "#done GROUP" after each group so that a runner can tell where a failing
 * run stopped.
 */
#define _POSIX_C_SOURCE 200809L /* posix_fadvise, getopt, strdup */
#include <mpi.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)
#define PIECE_BYTES (1L << 30) /* largest count of one contiguous call */

static int rank, nranks;
static const char *dir = "/tmp";
static int evict = 1;
static int keep_files;
static MPI_Info hints = MPI_INFO_NULL;

static void fail(const char *what, int err)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    fprintf(stderr, "io: rank %d: %s: %s\n", rank, what, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define CHECK(call)                           \
    do {                                      \
        int check_err_ = (call);              \
        if (check_err_ != MPI_SUCCESS)        \
            fail(#call, check_err_);          \
    } while (0)

/* hints from IO_BENCH_HINTS */
static void parse_hints(void)
{
    const char *env = getenv("IO_BENCH_HINTS");
    if (!env || !*env)
        return;
    char *copy = strdup(env);
    MPI_Info_create(&hints);
    for (char *item = strtok(copy, ","); item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        if (!eq)
            continue;
        *eq = '\0';
        MPI_Info_set(hints, item, eq + 1);
    }
    free(copy);
}

/* seconds the slowest rank spent since start */
static double slowest(double start)
{
    double mine = MPI_Wtime() - start, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void report(const char *group, const char *phase, double bytes, double secs)
{
    if (rank == 0)
        printf("%s_%s %d %.1f\n", group, phase, nranks, secs > 0 ? bytes / secs / 1e6 : 0.0);
}

/* flush the file from the page cache: every rank advises on the whole
 * file, which is harmless when several ranks share a node */
static void drop_cache(const char *path)
{
    if (!evict)
        return;
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void open_file(const char *path, int mode, MPI_File *fh)
{
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, mode, hints, fh));
    CHECK(MPI_File_set_errhandler(*fh, MPI_ERRORS_RETURN));
}

static void remove_file(const char *path)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL); /* absent is fine */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* a datatype's file view and the I/O calls of one group */
struct pattern {
    const char *name;
    double total_bytes;   /* of the whole file */
    MPI_Offset disp;      /* view displacement */
    MPI_Datatype filetype; /* MPI_DATATYPE_NULL: MPI_BYTE view, explicit offsets */
    int collective;
    long local_bytes;     /* this rank's share */
    MPI_Offset offset;    /* for explicit offsets */
};

static void do_io(struct pattern *p, MPI_File fh, char *buf, int writing)
{
    MPI_Status st;
    if (p->filetype == MPI_DATATYPE_NULL) {
        for (long done = 0; done < p->local_bytes; done += PIECE_BYTES) {
            long n = p->local_bytes - done < PIECE_BYTES ? p->local_bytes - done : PIECE_BYTES;
            if (writing)
                CHECK(MPI_File_write_at(fh, p->offset + done, buf + done, (int)n, MPI_BYTE, &st));
            else
                CHECK(MPI_File_read_at(fh, p->offset + done, buf + done, (int)n, MPI_BYTE, &st));
        }
        return;
    }
    /* coll: counts in doubles; vec: in bytes */
    MPI_Datatype memtype = p->collective ? MPI_DOUBLE : MPI_BYTE;
    int count = (int)(p->collective ? p->local_bytes / (long)sizeof(double) : p->local_bytes);
    if (p->collective) {
        if (writing)
            CHECK(MPI_File_write_all(fh, buf, count, memtype, &st));
        else
            CHECK(MPI_File_read_all(fh, buf, count, memtype, &st));
    } else {
        if (writing)
            CHECK(MPI_File_write(fh, buf, count, memtype, &st));
        else
            CHECK(MPI_File_read(fh, buf, count, memtype, &st));
    }
    int got = 0;
    MPI_Get_count(&st, memtype, &got);
    if (got != count) {
        fprintf(stderr, "io: rank %d: %s %s moved %d of %d items\n", rank, p->name,
                writing ? "write" : "read", got, count);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void set_view(struct pattern *p, MPI_File fh)
{
    if (p->filetype != MPI_DATATYPE_NULL)
        CHECK(MPI_File_set_view(fh, p->disp, p->collective ? MPI_DOUBLE : MPI_BYTE,
                                p->filetype, "native", MPI_INFO_NULL));
}

/* write the pattern, then read it back twice, timing each phase; check
 * reads against expected (the buffer as written) */
static void run_pattern(struct pattern *p, char *buf, const char *expected)
{
    char path[4096];
    /* one name for all ranks: rank 0's parent (the launcher) pid */
    int tag = (int)getppid();
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/io-bench-%s.%d.dat", dir, p->name, tag);
    remove_file(path);

    MPI_File fh;
    open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    set_view(p, fh);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    do_io(p, fh, buf, 1);
    double t_write = slowest(t0);
    CHECK(MPI_File_sync(fh));
    double t_write_sync = slowest(t0);
    CHECK(MPI_File_close(&fh));
    report(p->name, "write", p->total_bytes, t_write);
    report(p->name, "write_sync", p->total_bytes, t_write_sync);

    drop_cache(path);
    for (int pass = 0; pass < 2; pass++) {
        memset(buf, 0, (size_t)p->local_bytes);
        open_file(path, MPI_MODE_RDONLY, &fh);
        set_view(p, fh);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        do_io(p, fh, buf, 0);
        double t_read = slowest(t0);
        CHECK(MPI_File_close(&fh));
        if (memcmp(buf, expected, (size_t)p->local_bytes) != 0) {
            long at = 0;
            while (buf[at] == expected[at])
                at++;
            fprintf(stderr, "io: rank %d: %s read pass %d: wrong data at local byte %ld\n",
                    rank, p->name, pass, at);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        report(p->name, pass == 0 && evict ? "read" : "read_cached", p->total_bytes, t_read);
        if (!evict)
            break;
    }
    if (!keep_files)
        remove_file(path);
}

/* a 3-D array of doubles of about total bytes, each element its global
 * index; this rank's block */
static void run_coll(double total)
{
    int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
    MPI_Dims_create(nranks, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 3, coords);
    MPI_Comm_free(&cart);
    /* reorder = 0: the grid's ranks are the MPI_COMM_WORLD ranks */
    double side = cbrt(total / (double)sizeof(double));
    int global[3], local[3], start[3];
    for (int d = 0; d < 3; d++) {
        local[d] = (int)lround(side / dims[d]);
        if (local[d] < 1)
            local[d] = 1;
        global[d] = local[d] * dims[d];
        start[d] = local[d] * coords[d];
    }
    long n = (long)local[0] * local[1] * local[2];
    struct pattern p = {.name = "coll", .collective = 1, .disp = 0,
                        .local_bytes = n * (long)sizeof(double),
                        .total_bytes = (double)global[0] * global[1] * global[2] * sizeof(double)};
    MPI_Type_create_subarray(3, global, local, start, MPI_ORDER_C, MPI_DOUBLE, &p.filetype);
    MPI_Type_commit(&p.filetype);
    double *buf = malloc((size_t)p.local_bytes), *expected = malloc((size_t)p.local_bytes);
    if (!buf || !expected) {
        fprintf(stderr, "io: rank %d: out of memory for %ld bytes\n", rank, p.local_bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long k = 0;
    for (long i = 0; i < local[0]; i++)
        for (long j = 0; j < local[1]; j++)
            for (long l = 0; l < local[2]; l++)
                expected[k++] = (double)(((start[0] + i) * global[1] + start[1] + j) * global[2]
                                         + start[2] + l);
    memcpy(buf, expected, (size_t)p.local_bytes);
    if (rank == 0)
        printf("#size coll %.0f (%dx%dx%d doubles, grid %dx%dx%d)\n", p.total_bytes, global[0],
               global[1], global[2], dims[0], dims[1], dims[2]);
    run_pattern(&p, (char *)buf, (const char *)expected);
    MPI_Type_free(&p.filetype);
    free(buf);
    free(expected);
}

/* fill with bytes that tell (rank, position) apart */
static void fill(char *p, long n, long seed)
{
    uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
    for (long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (char)(x >> 32);
    }
}

static void run_vec(double total, long block)
{
    long blocks = (long)(total / (double)block / nranks); /* per rank */
    if (blocks < 1)
        blocks = 1;
    struct pattern p = {.name = "vec", .collective = 0, .disp = (MPI_Offset)rank * block,
                        .local_bytes = blocks * block,
                        .total_bytes = (double)blocks * block * nranks};
    MPI_Type_vector((int)blocks, (int)block, (int)(block * nranks), MPI_BYTE, &p.filetype);
    MPI_Type_commit(&p.filetype);
    char *buf = malloc((size_t)p.local_bytes), *expected = malloc((size_t)p.local_bytes);
    if (!buf || !expected) {
        fprintf(stderr, "io: rank %d: out of memory for %ld bytes\n", rank, p.local_bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fill(expected, p.local_bytes, rank + 1);
    memcpy(buf, expected, (size_t)p.local_bytes);
    if (rank == 0)
        printf("#size vec %.0f (%ld blocks of %ld bytes per rank)\n", p.total_bytes, blocks, block);
    run_pattern(&p, buf, expected);
    MPI_Type_free(&p.filetype);
    free(buf);
    free(expected);
}

static void run_contig(double total)
{
    long share = (long)(total / nranks);
    struct pattern p = {.name = "contig", .collective = 0, .filetype = MPI_DATATYPE_NULL,
                        .local_bytes = share, .offset = (MPI_Offset)rank * share,
                        .total_bytes = (double)share * nranks};
    char *buf = malloc((size_t)share), *expected = malloc((size_t)share);
    if (!buf || !expected) {
        fprintf(stderr, "io: rank %d: out of memory for %ld bytes\n", rank, share);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fill(expected, share, 1000 + rank);
    memcpy(buf, expected, (size_t)share);
    if (rank == 0)
        printf("#size contig %.0f (%ld bytes per rank)\n", p.total_bytes, share);
    run_pattern(&p, buf, expected);
    free(buf);
    free(expected);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (getenv("IO_BENCH_DIR"))
        dir = getenv("IO_BENCH_DIR");
    double size_mib = 1024, vec_mib = -1;
    long block = 64;
    char groups[256] = "coll,vec,contig";
    int opt;
    while ((opt = getopt(argc, argv, "d:s:v:b:g:Ck")) != -1) {
        switch (opt) {
        case 'd': dir = optarg; break;
        case 's': size_mib = atof(optarg); break;
        case 'v': vec_mib = atof(optarg); break;
        case 'b': block = atol(optarg); break;
        case 'g': snprintf(groups, sizeof groups, "%s", optarg); break;
        case 'C': evict = 0; break;
        case 'k': keep_files = 1; break;
        default:
            if (rank == 0)
                fprintf(stderr, "usage: io [-d DIR] [-s MIB] [-v MIB] [-b BLOCK] [-g GROUPS] [-C] [-k]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (vec_mib < 0)
        vec_mib = size_mib;
    if (block < 1 || size_mib <= 0 || vec_mib <= 0) {
        if (rank == 0)
            fprintf(stderr, "io: sizes must be positive\n");
        MPI_Finalize();
        return 2;
    }
    parse_hints();
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (char *g = strtok(groups, ","); g; g = strtok(NULL, ",")) {
        if (strcmp(g, "coll") == 0)
            run_coll(size_mib * MIB);
        else if (strcmp(g, "vec") == 0)
            run_vec(vec_mib * MIB, block);
        else if (strcmp(g, "contig") == 0)
            run_contig(size_mib * MIB);
        else {
            if (rank == 0)
                fprintf(stderr, "io: unknown group %s\n", g);
            continue;
        }
        if (rank == 0)
            printf("#done %s\n", g);
    }
    if (hints != MPI_INFO_NULL)
        MPI_Info_free(&hints);
    MPI_Finalize();
    return 0;
}
