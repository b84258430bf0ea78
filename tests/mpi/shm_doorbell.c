/*
 * shm_doorbell.c: a rank's doorbell against another user. Rank 1 sleeps
 * in a receive while rank 0 runs FLOODER (as user nobody) against rank
 * 1's doorbell, then sends; the message must arrive, and rank 1, run with
 * verbose=1, says how many datagrams it dropped. Also checks that the
 * doorbell's name (as the business card in a port name gives it) holds
 * none of the rank's token bytes. Usage: shm_doorbell FLOODER COUNT
 * (needs root, to start the flooder as nobody).
 */
#include "testutil.h"

#include <sys/wait.h>
#include <unistd.h>

/* The value of key in a business card ("k=v;k=v;..."), into out. */
static int card_field(const char *text, const char *key, char *out, size_t len)
{
    char pat[32];
    snprintf(pat, sizeof pat, "%s=", key);
    const char *p = text;
    while ((p = strstr(p, pat))) {
        if (p == text || p[-1] == ';' || p[-1] == '|') {
            p += strlen(pat);
            size_t n = strcspn(p, ";|");
            if (n >= len)
                return -1;
            memcpy(out, p, n);
            out[n] = '\0';
            return 0;
        }
        p++;
    }
    return -1;
}

/* Does name hold 4 consecutive bytes of the token (hex, in either byte order)? */
static int holds_token_bytes(const char *name, const char *tok_hex)
{
    size_t n = strlen(tok_hex) / 2;
    for (size_t i = 0; i + 4 <= n; i++) {
        char fwd[9], rev[9];
        memcpy(fwd, tok_hex + 2 * i, 8);
        fwd[8] = '\0';
        for (int k = 0; k < 4; k++)
            memcpy(rev + 2 * k, tok_hex + 2 * (i + 3 - (size_t)k), 2);
        rev[8] = '\0';
        if (strstr(name, fwd) || strstr(name, rev))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2 && argc == 3, "usage: mpiexec -n 2 shm_doorbell FLOODER COUNT");
    if (rank == 1) {
        char port[MPI_MAX_PORT_NAME], bell[128], tok[128];
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(card_field(port, "bell", bell, sizeof bell) == 0, "no doorbell in the card: %s", port);
        if (card_field(port, "token", tok, sizeof tok) == 0) {
            CHECK(!holds_token_bytes(bell, tok), "the doorbell name %s holds bytes of the token %s", bell, tok);
            printf("doorbell %s: no token bytes\n", bell);
        } else {
            printf("doorbell %s: the card shows no token\n", bell);
        }
        CHECK_OK(MPI_Close_port(port));
        int pid = (int)getpid(), v = 0;
        CHECK_OK(MPI_Send(&pid, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 42, "received %d", v);
    } else {
        int pid;
        CHECK_OK(MPI_Recv(&pid, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        char pids[16];
        snprintf(pids, sizeof pids, "%d", pid);
        fflush(stdout);
        pid_t c = fork();
        if (c == 0) {
            execl("/usr/bin/setpriv", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", argv[1],
                  pids, argv[2], (char *)NULL);
            _exit(127);
        }
        int st = 0;
        CHECK(c > 0 && waitpid(c, &st, 0) == c, "cannot run the flooder");
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the flooder failed (status %d)", st);
        int v = 42;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("shm_doorbell: message delivered after the flood\n");
    MPI_Finalize();
    return 0;
}
