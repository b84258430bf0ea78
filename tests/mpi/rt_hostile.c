/*
 * rt_hostile.c: hostile input to the listeners a job exposes: random
 * bytes, truncated handshakes and floods sent to tided's PMIx listener and
 * to another rank's TCP listener. Afterwards the job must still work:
 * messages flow, a child can be spawned, names can be published.
 * Run with TIDE_TRANSPORTS=tcp,self so rank-to-rank traffic uses TCP.
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

static void hammer(int port, int rounds)
{
    srand(1234);
    for (int k = 0; k < rounds; k++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            continue;
        }
        unsigned char junk[4096];
        int n = k % 4 == 0 ? 3 : (int)(sizeof junk);
        for (int i = 0; i < n; i++)
            junk[i] = (unsigned char)rand();
        if (k % 5 == 1) /* something that looks like a length prefix: huge */
            junk[0] = junk[1] = junk[2] = junk[3] = 0x7f;
        ssize_t w = send(fd, junk, (size_t)n, MSG_NOSIGNAL);
        (void)w;
        close(fd);
    }
}

/* the TCP port a process listens on, from /proc/net/tcp and its fds */
static int listen_port_of(int pid)
{
    char path[128], cmd[256];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    snprintf(cmd, sizeof cmd, "ss -Hltnp 2>/dev/null | grep 'pid=%d,' | awk '{print $4}' | sed 's/.*://'", pid);
    FILE *p = popen(cmd, "r");
    int port = -1;
    if (p) {
        if (fscanf(p, "%d", &port) != 1)
            port = -1;
        pclose(p);
    }
    return port;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int v = 7;
        MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    CHECK(size >= 2, "needs 2 ranks");
    int pid = (int)getpid(), peer_pid = -1;
    if (rank == 1)
        CHECK_OK(MPI_Send(&pid, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_OK(MPI_Recv(&peer_pid, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        const char *uri = getenv("PMIX_SERVER_URI41");
        const char *colon = uri ? strrchr(uri, ':') : NULL;
        CHECK(colon, "no PMIx server address in the environment");
        hammer(atoi(colon + 1), 60);
        int p = listen_port_of(peer_pid);
        if (p > 0)
            hammer(p, 60);
        else
            printf("note: could not find rank 1's TCP port (ss missing?)\n");
    }
    /* the job still works: messages both ways at several sizes */
    for (int n = 1; n <= 1 << 20; n *= 64) {
        char *b = malloc((size_t)n);
        memset(b, rank, (size_t)n);
        int peer = rank ^ 1;
        if (peer < size)
            CHECK_OK(MPI_Sendrecv_replace(b, n, MPI_CHAR, peer, 1, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (peer < size)
            CHECK(b[n - 1] == (char)peer, "data after the attack");
        free(b);
    }
    /* and tided still serves: spawn and names */
    if (rank == 0) {
        MPI_Comm child;
        int v = 0;
        CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                                MPI_ERRCODES_IGNORE));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, child, MPI_STATUS_IGNORE));
        CHECK(v == 7, "child answer");
        MPI_Comm_disconnect(&child);
        char port[MPI_MAX_PORT_NAME];
        CHECK_OK(MPI_Publish_name("tide-hostile-test", MPI_INFO_NULL, "p"));
        CHECK_OK(MPI_Lookup_name("tide-hostile-test", MPI_INFO_NULL, port));
        CHECK_OK(MPI_Unpublish_name("tide-hostile-test", MPI_INFO_NULL, "p"));
        printf("survived\n");
    }
    MPI_Finalize();
    return 0;
}
