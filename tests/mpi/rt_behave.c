/*
 * rt_behave.c: a rank that misbehaves on request, to test how mpiexec
 * ends jobs. Usage: rt_behave MODE [RANK [ARG]]
 *   exit RANK CODE     rank RANK exits with CODE after MPI_Finalize; others wait
 *   signal RANK SIG    rank RANK raises SIG; the others block forever
 *   abort RANK CODE    rank RANK calls MPI_Abort(MPI_COMM_WORLD, CODE)
 *   nofinalize RANK    rank RANK exits 0 without MPI_Finalize
 *   hang               every rank blocks forever
 *   stdin              rank 0 copies stdin to stdout; others check stdin is empty
 *   env NAME VALUE     every rank checks getenv(NAME) == VALUE
 *   cwd DIR            every rank checks its working directory is DIR
 *   lines N            every rank writes N long lines, in pieces
 *   fatal              rank 0 triggers MPI_ERRORS_ARE_FATAL
 */
#include "testutil.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

static void block_forever(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("ready rank %d\n", rank);
    fflush(stdout);
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    int who = argc > 2 ? atoi(argv[2]) : 0;
    int arg = argc > 3 ? atoi(argv[3]) : 0;
    if (strcmp(mode, "exit") == 0) {
        MPI_Finalize();
        return rank == who ? arg : 0;
    } else if (strcmp(mode, "signal") == 0) {
        if (rank == who)
            raise(arg);
        block_forever();
    } else if (strcmp(mode, "abort") == 0) {
        if (rank == who)
            MPI_Abort(MPI_COMM_WORLD, arg);
        block_forever();
    } else if (strcmp(mode, "nofinalize") == 0) {
        if (rank == who)
            return 0;
        block_forever();
    } else if (strcmp(mode, "hang") == 0) {
        block_forever();
    } else if (strcmp(mode, "stdin") == 0) {
        char buf[4096];
        ssize_t n;
        long total = 0;
        while ((n = read(0, buf, sizeof buf)) > 0) {
            total += n;
            if (rank == 0)
                fwrite(buf, 1, (size_t)n, stdout);
        }
        CHECK(rank == 0 || total == 0, "rank %d read %ld bytes of stdin", rank, total);
    } else if (strcmp(mode, "env") == 0) {
        const char *v = getenv(argv[2]);
        CHECK(v && strcmp(v, argv[3]) == 0, "%s is '%s', expected '%s'", argv[2], v ? v : "(unset)",
              argv[3]);
    } else if (strcmp(mode, "cwd") == 0) {
        char cwd[PATH_MAX], want[PATH_MAX];
        CHECK(getcwd(cwd, sizeof cwd) && realpath(argv[2], want), "getcwd");
        CHECK(strcmp(cwd, want) == 0, "cwd %s, expected %s", cwd, want);
    } else if (strcmp(mode, "lines") == 0) {
        int n = who;
        char line[300];
        for (int i = 0; i < n; i++) {
            int len = snprintf(line, sizeof line, "BEGIN rank=%d line=%d ", rank, i);
            while (len < 250) {
                line[len] = (char)('a' + (rank + i + len) % 26);
                len++;
            }
            len += snprintf(line + len, sizeof line - (size_t)len, " END\n");
            /* write each line in three pieces so partial lines reach the daemon */
            int third = len / 3;
            fwrite(line, 1, (size_t)third, stdout);
            fflush(stdout);
            fwrite(line + third, 1, (size_t)third, stdout);
            fflush(stdout);
            fwrite(line + 2 * third, 1, (size_t)(len - 2 * third), stdout);
            fflush(stdout);
        }
    } else if (strcmp(mode, "fatal") == 0) {
        if (rank == 0) {
            int bogus;
            MPI_Comm_size(MPI_COMM_NULL, &bogus);
        }
        block_forever();
    }
    MPI_Finalize();
    return 0;
}
