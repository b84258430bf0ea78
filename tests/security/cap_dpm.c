/*
 * cap_dpm.c: the dynamic-process program of the capture tests
 * (suite_capture.sh, sec.capture.dpm.*): connect/accept, spawn and join
 * between hosts, each followed by a marker sent across the new
 * intercommunicator and sent back (a payload to find in the capture: it
 * shows the capture sees the traffic between the two groups). Run with
 * --param test_print_keys=1, the keys the tests look for are on stderr.
 * Usage: cap_dpm server FILE MARKER   every rank of the job accepts on a
 *                                     port whose name goes to FILE
 *        cap_dpm client FILE MARKER   every rank connects to it
 *        cap_dpm spawn HOST MARKER    spawns 2 children on HOST
 *        cap_dpm join-server ADDR FILE MARKER
 *                                     rank 0 listens on ADDR (a TCP port
 *                                     of its choosing, written to FILE)
 *                                     and joins the process that connects
 *        cap_dpm join-client ADDR FILE MARKER
 *                                     connects to ADDR and that port, joins
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

#define MARK_MAX 256

/* rank i of the local group sends the marker to rank i of the remote one
 * (if there is one) and gets it back; the other way round too */
static void swap_marker(MPI_Comm inter, const char *marker)
{
    int rank, rsize, len = (int)strlen(marker) + 1;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &rsize);
    char back[MARK_MAX];
    CHECK(len <= MARK_MAX, "marker too long");
    if (rank < rsize) {
        CHECK_OK(MPI_Sendrecv(marker, len, MPI_CHAR, rank, 7, back, MARK_MAX, MPI_CHAR, rank, 7, inter,
                              MPI_STATUS_IGNORE));
        CHECK(strcmp(back, marker) == 0, "the other group sent something else");
    }
    CHECK_OK(MPI_Barrier(inter));
}

/* write text to path whole (by a rename: a reader never sees half of it) */
static void put_file(const char *path, const char *text)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL, "cannot write %s", tmp);
    fputs(text, f);
    fclose(f);
    CHECK(rename(tmp, path) == 0, "cannot rename %s", tmp);
}

static void get_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot read %s", path);
    CHECK(fgets(buf, (int)len, f) != NULL, "%s is empty", path);
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

static int server(const char *file, const char *marker)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
        put_file(file, port);
    }
    MPI_Comm inter;
    CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    swap_marker(inter, marker);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    if (rank == 0) {
        CHECK_OK(MPI_Close_port(port));
        printf("cap_dpm: accepted\n");
    }
    return 0;
}

static int client(const char *file, const char *marker)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0)
        get_file(file, port, sizeof port);
    MPI_Comm inter;
    CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    swap_marker(inter, marker);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    if (rank == 0)
        printf("cap_dpm: connected\n");
    return 0;
}

static int spawn(const char *host, const char *marker, char *prog)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", host);
    char *args[] = {"child", (char *)marker, NULL};
    MPI_Comm inter;
    int errs[2], rank;
    CHECK_OK(MPI_Comm_spawn(prog, args, 2, info, 0, MPI_COMM_WORLD, &inter, errs));
    MPI_Info_free(&info);
    swap_marker(inter, marker);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("cap_dpm: spawned 2 children on %s\n", host);
    return 0;
}

static int child(const char *marker)
{
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "no parent");
    swap_marker(parent, marker);
    CHECK_OK(MPI_Comm_disconnect(&parent));
    return 0;
}

static int join(bool listening, const char *addr, const char *file, const char *marker)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    CHECK(inet_pton(AF_INET, addr, &sa.sin_addr) == 1, "bad address %s", addr);
    int fd;
    if (listening) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(l, 1) == 0,
              "cannot listen on %s", addr);
        socklen_t sl = sizeof sa;
        CHECK(getsockname(l, (struct sockaddr *)&sa, &sl) == 0, "getsockname");
        char port[32];
        snprintf(port, sizeof port, "%u\n", ntohs(sa.sin_port));
        put_file(file, port);
        fd = accept(l, NULL, NULL);
        CHECK(fd >= 0, "accept");
        close(l);
    } else {
        char port[32];
        get_file(file, port, sizeof port);
        sa.sin_port = htons((uint16_t)atoi(port));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "cannot connect to %s:%s", addr,
              port);
    }
    MPI_Comm inter;
    CHECK_OK(MPI_Comm_join(fd, &inter));
    close(fd);
    swap_marker(inter, marker);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    printf("cap_dpm: joined\n");
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc >= 3, "usage: cap_dpm MODE ...");
    const char *mode = argv[1];
    int rc = 0;
    if (strcmp(mode, "server") == 0 && argc == 4)
        rc = server(argv[2], argv[3]);
    else if (strcmp(mode, "client") == 0 && argc == 4)
        rc = client(argv[2], argv[3]);
    else if (strcmp(mode, "spawn") == 0 && argc == 4)
        rc = spawn(argv[2], argv[3], argv[0]);
    else if (strcmp(mode, "child") == 0)
        rc = child(argv[2]);
    else if (strcmp(mode, "join-server") == 0 && argc == 5)
        rc = join(true, argv[2], argv[3], argv[4]);
    else if (strcmp(mode, "join-client") == 0 && argc == 5)
        rc = join(false, argv[2], argv[3], argv[4]);
    else
        CHECK(0, "unknown mode %s or wrong arguments", mode);
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
