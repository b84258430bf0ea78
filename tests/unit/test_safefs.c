/*
 * test_safefs.c: private directories and files (common/safefs.c): made
 * exclusively, never opened through a symlink, refused when of another
 * user or open to others (a peer's shared-memory segment replaced by a
 * symlink, a fifo or another user's file), and removed without following
 * symlinks (a canary pointed at from inside the tree survives).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefs.h"
#include "sessiondir.h"

static char top[256];    /* a private scratch directory */
static char canary[300]; /* a directory of ours outside the trees removed */

static void path_in(char *out, size_t len, const char *dir, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

static void touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "x", 1), 1);
    close(fd);
}

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof top, "/tmp/tide-safefs-test-XXXXXX");
    if (!mkdtemp(top))
        return -1;
    snprintf(canary, sizeof canary, "%s/canary", top);
    mkdir(canary, 0700);
    char f[400];
    path_in(f, sizeof f, canary, "precious");
    touch(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

static void assert_canary(void)
{
    char f[400];
    path_in(f, sizeof f, canary, "precious");
    struct stat st;
    assert_int_equal(stat(f, &st), 0);
    assert_true(S_ISREG(st.st_mode));
}

static void test_mkdtemp_private(void **state)
{
    (void)state;
    char dir[512];
    int fd = tide_safe_mkdtemp(top, "tide-x-", dir, sizeof dir);
    assert_true(fd >= 0);
    assert_non_null(strstr(dir, "/tide-x-"));
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(st.st_uid, geteuid());
    close(fd);
    assert_int_equal(tide_safe_rmtree(dir), 0);
    assert_int_equal(access(dir, F_OK), -1);
    /* a name too long is refused, not truncated */
    char small[16];
    assert_int_equal(tide_safe_mkdtemp(top, "tide-x-", small, sizeof small), -1);
    assert_int_equal(errno, ENAMETOOLONG);
}

static void test_mkdir_exclusive_or_checked(void **state)
{
    (void)state;
    int tfd = tide_safe_open_dir(top);
    assert_true(tfd >= 0);
    int d = tide_safe_mkdir_at(tfd, "sub", false);
    assert_true(d >= 0);
    close(d);
    /* exclusive: a name that exists is refused */
    assert_int_equal(tide_safe_mkdir_at(tfd, "sub", false), -1);
    assert_int_equal(errno, EEXIST);
    /* joined only when private */
    d = tide_safe_mkdir_at(tfd, "sub", true);
    assert_true(d >= 0);
    close(d);
    char p[400];
    path_in(p, sizeof p, top, "sub");
    chmod(p, 0777);
    assert_int_equal(tide_safe_mkdir_at(tfd, "sub", true), -1);
    assert_int_equal(errno, EPERM);
    assert_int_equal(tide_safe_open_dir(p), -1);
    rmdir(p);
    /* a symlink in a directory's place is never entered */
    assert_int_equal(symlinkat(canary, tfd, "sub"), 0);
    assert_int_equal(tide_safe_mkdir_at(tfd, "sub", true), -1);
    assert_int_equal(tide_safe_open_dir(p), -1);
    assert_int_equal(tide_safe_open_dir_at(tfd, "sub"), -1);
    unlink(p);
    /* names with a slash or dot-dot are refused */
    assert_int_equal(tide_safe_mkdir_at(tfd, "../x", true), -1);
    assert_int_equal(tide_safe_open_dir_at(tfd, ".."), -1);
    close(tfd);
}

static void test_files(void **state)
{
    (void)state;
    char p[400], q[400];
    path_in(p, sizeof p, top, "seg");
    int fd = tide_safe_create(p, O_RDWR, 0600);
    assert_true(fd >= 0);
    close(fd);
    /* exclusive */
    assert_int_equal(tide_safe_create(p, O_RDWR, 0600), -1);
    assert_int_equal(errno, EEXIST);
    fd = tide_safe_open(p, O_RDWR);
    assert_true(fd >= 0);
    close(fd);
    /* a segment replaced by a symlink (to a file of ours): refused */
    path_in(q, sizeof q, canary, "precious");
    assert_int_equal(unlink(p), 0);
    assert_int_equal(symlink(q, p), 0);
    assert_int_equal(tide_safe_open(p, O_RDWR), -1);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(tide_safe_create(p, O_RDWR, 0600), -1); /* not created through it either */
    assert_int_equal(tide_safe_unlink(p), 0);                /* the link goes, not its target */
    assert_canary();
    /* a second name for a file (a hard link) is not a private file */
    assert_int_equal(link(q, p), 0);
    assert_int_equal(tide_safe_open(p, O_RDWR), -1);
    unlink(p);
    /* a fifo in a segment's place: refused at once, no hang */
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(tide_safe_open(p, O_RDONLY), -1);
    assert_int_equal(errno, EPERM);
    unlink(p);
    /* a file in a directory open to others is refused */
    char open_dir[400], f[500];
    path_in(open_dir, sizeof open_dir, top, "open");
    mkdir(open_dir, 0755);
    chmod(open_dir, 0755);
    path_in(f, sizeof f, open_dir, "seg");
    assert_int_equal(tide_safe_create(f, O_RDWR, 0600), -1);
    assert_int_equal(errno, EPERM);
    touch(f);
    assert_int_equal(tide_safe_open(f, O_RDWR), -1);
    unlink(f);
    rmdir(open_dir);
}

/* Another user's file in our directory (only root can make one here). */
static void test_other_users_file(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        skip();
        return;
    }
    char p[400];
    path_in(p, sizeof p, top, "theirs");
    touch(p);
    assert_int_equal(chown(p, 65534, 65534), 0);
    assert_int_equal(tide_safe_open(p, O_RDWR), -1);
    assert_int_equal(errno, EPERM);
    unlink(p);
    /* and a directory of theirs is neither joined nor entered */
    int tfd = tide_safe_open_dir(top);
    assert_true(tfd >= 0);
    path_in(p, sizeof p, top, "theirdir");
    mkdir(p, 0700);
    assert_int_equal(chown(p, 65534, 65534), 0);
    assert_int_equal(tide_safe_mkdir_at(tfd, "theirdir", true), -1);
    assert_int_equal(errno, EPERM);
    close(tfd);
    rmdir(p);
}

static void test_rmtree_never_follows(void **state)
{
    (void)state;
    char t[400], p[500], q[600];
    path_in(t, sizeof t, top, "tide-tree");
    mkdir(t, 0700);
    path_in(p, sizeof p, t, "node0");
    mkdir(p, 0700);
    path_in(q, sizeof q, p, "job0");
    mkdir(q, 0700);
    path_in(q, sizeof q, p, "file");
    touch(q);
    /* links to the canary directory and to its file, at two levels */
    path_in(q, sizeof q, t, "node1");
    assert_int_equal(symlink(canary, q), 0);
    path_in(q, sizeof q, p, "pmix");
    assert_int_equal(symlink(canary, q), 0);
    char f[400];
    path_in(f, sizeof f, canary, "precious");
    path_in(q, sizeof q, p, "seg");
    assert_int_equal(symlink(f, q), 0);
    assert_int_equal(tide_safe_rmtree(t), 0);
    assert_int_equal(access(t, F_OK), -1);
    assert_canary();
    /* a symlink given as the tree itself: refused, its target kept */
    assert_int_equal(symlink(canary, t), 0);
    assert_int_equal(tide_safe_rmtree(t), -1);
    tide_rmtree(t);
    assert_canary();
    unlink(t);
    /* a tree that is not private is not ours to remove */
    mkdir(t, 0777);
    chmod(t, 0777);
    path_in(q, sizeof q, t, "keep");
    touch(q);
    assert_int_equal(tide_safe_rmtree(t), -1);
    assert_int_equal(access(q, F_OK), 0);
    unlink(q);
    rmdir(t);
}

/* A directory of another user inside our tree: left, with its content. */
static void test_rmtree_other_users_dir(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        skip();
        return;
    }
    char t[400], p[500], q[600];
    path_in(t, sizeof t, top, "tide-tree2");
    mkdir(t, 0700);
    path_in(p, sizeof p, t, "theirs");
    mkdir(p, 0700);
    path_in(q, sizeof q, p, "keep");
    touch(q);
    assert_int_equal(chown(p, 65534, 65534), 0);
    assert_int_equal(tide_safe_rmtree(t), -1);
    assert_int_equal(access(q, F_OK), 0);
    unlink(q);
    rmdir(p);
    rmdir(t);
}

/* The owner record names this host: boot id and host name. */
static void test_owner_record(void **state)
{
    (void)state;
    char dir[512];
    assert_int_equal(tide_session_dir_create(top, "run", dir, sizeof dir), 0);
    char p[600], text[600] = "";
    path_in(p, sizeof p, dir, "owner");
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    char boot[64] = "";
    f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        assert_non_null(fgets(boot, sizeof boot, f));
        fclose(f);
        boot[strcspn(boot, "\n")] = '\0';
        assert_non_null(strstr(text, boot));
    }
    assert_int_equal(strncmp(text, "tide-owner-2 ", 13), 0);
    /* alive (we are): not swept */
    assert_int_equal(tide_session_dirs_clean_stale(top, NULL), 0);
    assert_int_equal(access(dir, F_OK), 0);
    tide_rmtree(dir);
    assert_int_equal(access(dir, F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mkdtemp_private),
        cmocka_unit_test(test_mkdir_exclusive_or_checked),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_other_users_file),
        cmocka_unit_test(test_rmtree_never_follows),
        cmocka_unit_test(test_rmtree_other_users_dir),
        cmocka_unit_test(test_owner_record),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
