/*
 * dpm_spawn_cycles.c: memory and descriptors stay flat over many
 * MPI_Comm_spawn + MPI_Comm_disconnect cycles, in the parent rank and in
 * every tided of the job (the rank's parent and its siblings under
 * mpiexec) and in mpiexec.
 * Usage: dpm_spawn_cycles N WARMUP [RANK_MAX_KB [DAEMON_MAX_KB]] (per cycle)
 * Measures resident memory (VmRSS) and open descriptors after WARMUP
 * cycles and after N, and fails when either grows by more than the
 * tolerance per cycle (default 1 kB/cycle for memory, 0 descriptors beyond
 * a small slack; the daemons' limit defaults to the rank's). Prints the figures and the mean time of a cycle.
 */
#include "testutil.h"

#include <dirent.h>
#include <time.h>
#include <unistd.h>

#define MAX_DAEMONS 16

static long rss_kb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static int count_fds(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return d ? n : -1;
}

static pid_t parent_of(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    int pp = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "PPid: %d", &pp) == 1)
            break;
    if (f)
        fclose(f);
    return (pid_t)pp;
}

static int is_tided(pid_t pid)
{
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = '\0';
        fclose(f);
    }
    return strstr(comm, "tided") != NULL;
}

/* The tided daemons of this job: our parent and the other tided children
 * of its parent (mpiexec). */
static int find_daemons(pid_t *out)
{
    pid_t mine = getppid();
    int n = 0;
    if (!is_tided(mine))
        return 0;
    out[n++] = mine;
    pid_t mpiexec = parent_of(mine);
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < MAX_DAEMONS) {
        pid_t p = (pid_t)atoi(e->d_name);
        if (p > 0 && p != mine && parent_of(p) == mpiexec && is_tided(p))
            out[n++] = p;
    }
    if (d)
        closedir(d);
    return n;
}

struct sample {
    long rss, mrss;
    int fds, mfds;
    long drss[MAX_DAEMONS];
    int dfds[MAX_DAEMONS];
};

static void take(struct sample *s, const pid_t *daemons, int nd)
{
    s->rss = rss_kb(getpid());
    s->fds = count_fds(getpid());
    pid_t m = nd ? parent_of(daemons[0]) : -1;
    s->mrss = m > 0 ? rss_kb(m) : -1;
    s->mfds = m > 0 ? count_fds(m) : -1;
    for (int i = 0; i < nd; i++) {
        s->drss[i] = rss_kb(daemons[i]);
        s->dfds[i] = count_fds(daemons[i]);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        v++;
        MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int warm = argc > 2 ? atoi(argv[2]) : 100;
    double max_kb = argc > 3 ? atof(argv[3]) : 1.0;
    double dmax_kb = argc > 4 ? atof(argv[4]) : max_kb;
    CHECK(n > warm && warm > 0, "usage: dpm_spawn_cycles N WARMUP [MAX_KB_PER_CYCLE] with N > WARMUP > 0");
    pid_t daemons[MAX_DAEMONS];
    int nd = find_daemons(daemons);
    struct sample a, b;
    double t0 = 0, t_first = now(), t_warm = 0;
    for (int i = 0; i < n; i++) {
        if (i == warm) {
            take(&a, daemons, nd);
            t0 = now();
            t_warm = t0 - t_first;
        }
        MPI_Comm child;
        CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                                MPI_ERRCODES_IGNORE));
        int v = i;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 0, child));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, child, MPI_STATUS_IGNORE));
        CHECK(v == i + 1, "cycle %d: answer %d", i, v);
        CHECK_OK(MPI_Comm_disconnect(&child));
    }
    double t1 = now();
    take(&b, daemons, nd);
    int span = n - warm;
    double rank_kb = (double)(b.rss - a.rss) / span;
    printf("dpm_spawn_cycles: %d cycles; %.2f ms/cycle in the first %d, %.2f ms/cycle after\n", n,
           1e3 * t_warm / warm, warm, 1e3 * (t1 - t0) / span);
    printf("rank: rss %ld -> %ld kB (%.2f kB/cycle), fds %d -> %d\n", a.rss, b.rss, rank_kb, a.fds, b.fds);
    int bad = 0;
    for (int i = 0; i < nd; i++) {
        double d = (double)(b.drss[i] - a.drss[i]) / span;
        printf("tided %d: rss %ld -> %ld kB (%.2f kB/cycle), fds %d -> %d\n", (int)daemons[i], a.drss[i],
               b.drss[i], d, a.dfds[i], b.dfds[i]);
        /* slack: the last child may not have been reaped yet (its pipes) */
        if (d > dmax_kb || b.dfds[i] > a.dfds[i] + 4)
            bad = 1;
    }
    double m_kb = (double)(b.mrss - a.mrss) / span;
    printf("mpiexec: rss %ld -> %ld kB (%.2f kB/cycle), fds %d -> %d\n", a.mrss, b.mrss, m_kb, a.mfds, b.mfds);
    if (m_kb > dmax_kb || b.mfds > a.mfds + 2)
        bad = 1;
    fflush(stdout);
    CHECK(nd > 0, "no tided found (the rank's parent is not tided)");
    CHECK(rank_kb <= max_kb, "the rank grows by %.2f kB per cycle (limit %.2f)", rank_kb, max_kb);
    CHECK(b.fds <= a.fds + 2, "the rank's descriptors grew from %d to %d", a.fds, b.fds);
    CHECK(!bad, "a tided or mpiexec grows (memory beyond %.2f kB per cycle or descriptors)", dmax_kb);
    printf("flat\n");
    MPI_Finalize();
    return 0;
}
