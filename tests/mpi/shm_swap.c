/*
 * shm_swap.c: a peer's shared-memory segment swapped before the other
 * rank first reaches it (tests/security/suite_files.sh,
 * sec.files.shm-swap.*). Two ranks of one node. Rank 0 finds its segment
 * (its shm-<rank>-<pid> mapping in /proc/self/maps), copies it to a
 * decoy next to it and puts in its place, by MODE:
 *   symlink    a symlink to the decoy
 *   hardlink   a second link of the decoy (a regular file of ours with
 *              two names)
 * then writes both paths to DIR/swapped. Rank 1, which has not talked to
 * rank 0 yet, waits for that file, then the two exchange messages of 0 B
 * to 1 MiB both ways. Rank 1 must map neither the decoy nor the segment
 * (it refused the one and never saw the other: its messages go another
 * way), and the decoy must be unchanged (nobody wrote a message into it).
 * Usage: shm_swap MODE DIR
 */
#include "testutil.h"

#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PATH_LEN 4096

/* the path of the first mapping of this process whose path holds needle */
static int mapped_path(const char *needle, char *out, size_t len)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL, "cannot read /proc/self/maps");
    char line[PATH_LEN + 256];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '/');
        if (p && strstr(p, needle)) {
            p[strcspn(p, "\n")] = '\0';
            snprintf(out, len, "%s", p);
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static uint64_t file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot read %s", path);
    uint64_t h = 1469598103934665603ull;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (uint64_t)c) * 1099511628211ull;
    fclose(f);
    return h;
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    CHECK(a && b, "cannot copy %s to %s", from, to);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0)
        CHECK(fwrite(buf, 1, n, b) == n, "short write to %s", to);
    fclose(a);
    CHECK(fclose(b) == 0, "cannot write %s", to);
    CHECK(chmod(to, 0600) == 0, "chmod %s", to);
}

static void exchange(int rank)
{
    static const int sizes[] = {0, 1, 100, 4096, 65536, 1 << 20};
    int peer = 1 - rank;
    char *sb = malloc(1 << 20), *rb = malloc(1 << 20);
    CHECK(sb && rb, "out of memory");
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        for (int i = 0; i < n; i++)
            sb[i] = (char)(rank * 13 + i * 7 + (int)k);
        MPI_Status st;
        CHECK_OK(MPI_Sendrecv(sb, n, MPI_CHAR, peer, (int)k, rb, 1 << 20, MPI_CHAR, peer, (int)k, MPI_COMM_WORLD,
                              &st));
        int got;
        MPI_Get_count(&st, MPI_CHAR, &got);
        CHECK(got == n, "size %d: %d bytes arrived", n, got);
        for (int i = 0; i < n; i++)
            CHECK(rb[i] == (char)(peer * 13 + i * 7 + (int)k), "size %d: byte %d differs", n, i);
    }
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc == 3 && size == 2, "usage: shm_swap symlink|hardlink DIR, on 2 ranks");
    const char *mode = argv[1], *dir = argv[2];
    CHECK(strcmp(mode, "symlink") == 0 || strcmp(mode, "hardlink") == 0, "unknown mode %s", mode);
    char flag[PATH_LEN], tmp[PATH_LEN + 8], seg[PATH_LEN], decoy[PATH_LEN + 8];
    snprintf(flag, sizeof flag, "%s/swapped", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", flag);
    uint64_t before = 0;
    if (rank == 0) {
        char needle[64];
        snprintf(needle, sizeof needle, "/shm-0-%d", (int)getpid());
        CHECK(mapped_path(needle, seg, sizeof seg), "no mapping of %s: no shared-memory segment", needle);
        snprintf(decoy, sizeof decoy, "%s.decoy", seg);
        copy_file(seg, decoy);
        CHECK(unlink(seg) == 0, "unlink %s", seg);
        if (strcmp(mode, "symlink") == 0)
            CHECK(symlink(decoy, seg) == 0, "symlink %s", seg);
        else
            CHECK(link(decoy, seg) == 0, "link %s", seg);
        before = file_hash(decoy);
        FILE *f = fopen(tmp, "w");
        CHECK(f != NULL, "cannot write %s", tmp);
        fprintf(f, "%s\n%s\n", seg, decoy);
        fclose(f);
        CHECK(rename(tmp, flag) == 0, "rename %s", tmp);
    } else {
        /* rank 0 says when its segment is swapped: nothing else goes
         * between the two before (it would make rank 1 reach rank 0) */
        FILE *f = NULL;
        for (int i = 0; i < 30000 && !(f = fopen(flag, "r")); i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        CHECK(f != NULL, "rank 0 did not swap its segment");
        CHECK(fgets(seg, sizeof seg, f) && fgets(decoy, sizeof decoy, f), "%s is incomplete", flag);
        fclose(f);
        seg[strcspn(seg, "\n")] = '\0';
        decoy[strcspn(decoy, "\n")] = '\0';
    }
    exchange(rank);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        char m[PATH_LEN];
        CHECK(!mapped_path(decoy, m, sizeof m), "rank 1 mapped the decoy %s", m);
        const char *base = strrchr(seg, '/');
        CHECK(!mapped_path(base, m, sizeof m), "rank 1 mapped rank 0's segment (%s): it reached it before the swap",
              m);
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK(file_hash(decoy) == before, "the decoy %s was written to", decoy);
        unlink(decoy);
        printf("shm_swap: %s refused, the pair still talks\n", mode);
    }
    MPI_Finalize();
    return 0;
}
