/*
 * io_testutil.h: helpers shared by the MPI-IO test programs (io_*.c): a
 * private scratch directory per job (made by rank 0 under $TMPDIR or /tmp
 * and broadcast to the other ranks), file names inside it, and its removal
 * at the end.
 */
#ifndef TIDE_IO_TESTUTIL_H
#define TIDE_IO_TESTUTIL_H

#include "testutil.h"
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_PATH_MAX 512

/* Rank 0 of comm makes a fresh directory and every rank learns its name. */
static inline void io_make_scratch_dir(MPI_Comm comm, const char *test_name, char dir[IO_PATH_MAX])
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    memset(dir, 0, IO_PATH_MAX);
    if (rank == 0) {
        const char *base = getenv("TMPDIR");
        if (base == NULL || base[0] == '\0')
            base = "/tmp";
        snprintf(dir, IO_PATH_MAX, "%s/%s.%ld.XXXXXX", base, test_name, (long)getpid());
        CHECK(mkdtemp(dir) != NULL, "cannot make a scratch directory %s", dir);
    }
    MPI_Bcast(dir, IO_PATH_MAX, MPI_CHAR, 0, comm);
}

static inline void io_path(const char *dir, const char *file, char out[IO_PATH_MAX])
{
    size_t dl = strlen(dir), fl = strlen(file);
    CHECK(dl + 1 + fl < IO_PATH_MAX, "path %s/%s too long", dir, file);
    memcpy(out, dir, dl);
    out[dl] = '/';
    memcpy(out + dl + 1, file, fl + 1);
}

/* Once every rank is done with it, rank 0 removes the directory and the
 * files left in it. */
static inline void io_remove_scratch_dir(MPI_Comm comm, const char *dir)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    if (rank != 0)
        return;
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        char p[IO_PATH_MAX + 256];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    CHECK(rmdir(dir) == 0, "cannot remove scratch directory %s", dir);
}

/* true when path names an existing file (checked without MPI) */
static inline int io_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Size of a file as the operating system sees it. */
static inline long long io_os_size(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return (long long)st.st_size;
}

#endif
