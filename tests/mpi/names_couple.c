/*
 * names_couple.c: published names between separately started jobs (the
 * "ocean and atmosphere" case) and the rules of MPI_Publish_name,
 * MPI_Lookup_name and MPI_Unpublish_name across jobs. One program, several
 * roles, chosen by the first argument:
 *
 *   serve NAME NCLIENTS  open a port, publish it as NAME, accept NCLIENTS
 *                        jobs one after the other (each sends 100 ints, gets
 *                        their sum back), unpublish, close the port
 *   client NAME          look NAME up (waiting for it to be published),
 *                        connect, send, check the sum, disconnect
 *   hold NAME DONE       publish NAME and wait until DONE is published
 *                        (by another job); end without unpublishing
 *   rules NAME DONE      NAME exists (published by another job): publishing
 *                        it again and unpublishing it must fail; then
 *                        publish DONE and end without unpublishing it
 *   publish NAME         publish NAME and end
 *   lookup NAME          look NAME up, waiting up to 30 s; print the port
 *   missing NAME...      every NAME must be unknown now (MPI_ERR_NAME)
 *   wait-expires NAME    a lookup waiting 1 s for a name nobody publishes
 *                        fails with MPI_ERR_NAME after about that long
 *   pair NAME            within one job: rank 1 waits for NAME while rank 0
 *                        publishes it, whichever comes first
 *
 * Exit status 0 on success; a failed check aborts with status 3.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", rank,        \
                    __FILE__, __LINE__, #cond);                                 \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            MPI_Abort(MPI_COMM_WORLD, 3);                                       \
        }                                                                       \
    } while (0)

static int err_class(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

static void lookup_waiting(const char *name, int seconds, char *port)
{
    MPI_Info info;
    char v[32];
    snprintf(v, sizeof v, "%d", seconds);
    MPI_Info_create(&info);
    MPI_Info_set(info, "tide_lookup_wait", v);
    int rc = MPI_Lookup_name(name, info, port);
    MPI_Info_free(&info);
    CHECK(rc == MPI_SUCCESS, "lookup of '%s' failed (class %d)", name, err_class(rc));
}

static void serve(const char *name, int nclients)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Open_port(MPI_INFO_NULL, port);
    if (rank == 0)
        CHECK(MPI_Publish_name(name, MPI_INFO_NULL, port) == MPI_SUCCESS, "publish '%s'", name);
    for (int k = 0; k < nclients; k++) {
        MPI_Comm inter;
        CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter) == MPI_SUCCESS, "accept");
        if (rank == 0) {
            int data[100];
            long sum = 0;
            MPI_Recv(data, 100, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
            for (int i = 0; i < 100; i++)
                sum += data[i];
            MPI_Send(&sum, 1, MPI_LONG, 0, 2, inter);
        }
        MPI_Comm_disconnect(&inter);
    }
    if (rank == 0)
        CHECK(MPI_Unpublish_name(name, MPI_INFO_NULL, port) == MPI_SUCCESS, "unpublish '%s'", name);
    MPI_Close_port(port);
    if (rank == 0)
        printf("served %d clients\n", nclients);
}

static void client(const char *name)
{
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0)
        lookup_waiting(name, 30, port);
    MPI_Comm inter;
    CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter) == MPI_SUCCESS, "connect");
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    CHECK(remote >= 1, "remote size %d", remote);
    if (rank == 0) {
        int data[100];
        long sum, want = 0;
        for (int i = 0; i < 100; i++) {
            data[i] = i * 7 + 1;
            want += data[i];
        }
        MPI_Send(data, 100, MPI_INT, 0, 1, inter);
        MPI_Recv(&sum, 1, MPI_LONG, 0, 2, inter, MPI_STATUS_IGNORE);
        CHECK(sum == want, "sum %ld, expected %ld", sum, want);
        printf("client ok, sum %ld\n", sum);
    }
    MPI_Comm_disconnect(&inter);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(argc >= 3, "usage: names_couple ROLE NAME...");
    const char *role = argv[1], *name = argv[2];
    char port[MPI_MAX_PORT_NAME];
    if (strcmp(role, "serve") == 0 && argc == 4) {
        serve(name, atoi(argv[3]));
    } else if (strcmp(role, "client") == 0) {
        client(name);
    } else if (strcmp(role, "hold") == 0 && argc == 4) {
        if (rank == 0) {
            MPI_Open_port(MPI_INFO_NULL, port);
            CHECK(MPI_Publish_name(name, MPI_INFO_NULL, port) == MPI_SUCCESS, "publish '%s'", name);
            char done[MPI_MAX_PORT_NAME];
            lookup_waiting(argv[3], 30, done);
            printf("held %s until %s\n", name, argv[3]);
        }
    } else if (strcmp(role, "rules") == 0 && argc == 4) {
        if (rank == 0) {
            char theirs[MPI_MAX_PORT_NAME];
            lookup_waiting(name, 30, theirs);
            int rc = MPI_Publish_name(name, MPI_INFO_NULL, "tide-test-other-port");
            CHECK(rc != MPI_SUCCESS, "publishing '%s' again succeeded", name);
            CHECK(err_class(rc) == MPI_ERR_NAME || err_class(rc) == MPI_ERR_SERVICE, "class %d", err_class(rc));
            rc = MPI_Unpublish_name(name, MPI_INFO_NULL, theirs);
            CHECK(err_class(rc) == MPI_ERR_SERVICE, "unpublishing another job's name: class %d", err_class(rc));
            char again[MPI_MAX_PORT_NAME];
            CHECK(MPI_Lookup_name(name, MPI_INFO_NULL, again) == MPI_SUCCESS && strcmp(again, theirs) == 0,
                  "'%s' changed or vanished", name);
            CHECK(MPI_Publish_name(argv[3], MPI_INFO_NULL, "tide-test-done") == MPI_SUCCESS, "publish done");
            printf("rules hold\n");
        }
    } else if (strcmp(role, "publish") == 0) {
        if (rank == 0)
            CHECK(MPI_Publish_name(name, MPI_INFO_NULL, "tide-test-port") == MPI_SUCCESS, "publish '%s'", name);
    } else if (strcmp(role, "lookup") == 0) {
        if (rank == 0) {
            lookup_waiting(name, 30, port);
            printf("found %s\n", port);
        }
    } else if (strcmp(role, "missing") == 0) {
        for (int i = 2; i < argc && rank == 0; i++) {
            int rc = MPI_Lookup_name(argv[i], MPI_INFO_NULL, port);
            CHECK(err_class(rc) == MPI_ERR_NAME, "'%s' is still published (class %d)", argv[i], err_class(rc));
        }
        if (rank == 0)
            printf("none of them published\n");
    } else if (strcmp(role, "wait-expires") == 0) {
        if (rank == 0) {
            MPI_Info info;
            MPI_Info_create(&info);
            MPI_Info_set(info, "tide_lookup_wait", "1");
            double t0 = MPI_Wtime();
            int rc = MPI_Lookup_name(name, info, port);
            double dt = MPI_Wtime() - t0;
            MPI_Info_free(&info);
            CHECK(err_class(rc) == MPI_ERR_NAME, "class %d", err_class(rc));
            CHECK(dt > 0.8 && dt < 20, "waited %.2f s for a 1 s wait", dt);
            MPI_Info_create(&info);
            MPI_Info_set(info, "tide_lookup_wait", "soon");
            rc = MPI_Lookup_name(name, info, port);
            MPI_Info_free(&info);
            CHECK(err_class(rc) == MPI_ERR_INFO_VALUE, "a bad wait: class %d", err_class(rc));
            printf("wait expired\n");
        }
    } else if (strcmp(role, "pair") == 0) {
        if (rank == 0) {
            CHECK(MPI_Publish_name(name, MPI_INFO_NULL, "tide-pair-port") == MPI_SUCCESS, "publish");
        } else if (rank == 1) {
            MPI_Info info;
            MPI_Info_create(&info);
            MPI_Info_set(info, "tide_lookup_wait", "forever");
            CHECK(MPI_Lookup_name(name, info, port) == MPI_SUCCESS, "lookup");
            MPI_Info_free(&info);
            CHECK(strcmp(port, "tide-pair-port") == 0, "port '%s'", port);
            printf("pair found %s\n", port);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            CHECK(MPI_Unpublish_name(name, MPI_INFO_NULL, "tide-pair-port") == MPI_SUCCESS, "unpublish");
    } else {
        CHECK(0, "unknown role '%s' or wrong arguments", role);
    }
    MPI_Finalize();
    return 0;
}
