/*
 * rt_sigforward.c: receives the signals mpiexec forwards. Every rank
 * handles SIGUSR1 and SIGUSR2, rank 0 prints "ready" once all have their
 * handlers, then each waits (up to 15 s) for the signal named by argv[1]
 * (usr1 or usr2), prints "rank R got SIGUSRn N" with how many arrived,
 * and exits 0 after a barrier; a rank that got none exits 1.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t got_usr1, got_usr2;

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        got_usr1++;
    else
        got_usr2++;
}

int main(int argc, char **argv)
{
    int want = argc > 1 && strcmp(argv[1], "usr2") == 0 ? SIGUSR2 : SIGUSR1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("ready\n");
        fflush(stdout);
    }
    /* wait for the signal without MPI (the handler ends the sleep) */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, want);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while ((want == SIGUSR1 ? got_usr1 : got_usr2) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 15)
            break;
        struct timespec tmo = {0, 100 * 1000 * 1000};
        siginfo_t info;
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, want);
        if (sigtimedwait(&one, &info, &tmo) == want)
            on_signal(want);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    int n = want == SIGUSR1 ? got_usr1 : got_usr2;
    printf("rank %d got %s %d\n", rank, want == SIGUSR1 ? "SIGUSR1" : "SIGUSR2", n);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return n > 0 ? 0 : 1;
}
