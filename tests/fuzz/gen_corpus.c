/*
 * gen_corpus.c: writes the seed corpora of the fuzz targets from real
 * messages, made with the encoders Tide itself uses (wire.c, jobdesc.c,
 * nsproto.c) and in the layouts of ctlmsg.h. Run from the source tree:
 *   cc -std=gnu11 -I. -Icommon -o /tmp/gen_corpus tests/fuzz/gen_corpus.c \
 *      common/wire.c common/argv.c common/jobdesc.c common/nsproto.c common/hex.c \
 *      -lcrypto
 *   /tmp/gen_corpus tests/fuzz/corpus
 * Regression inputs found by fuzzing live beside these seeds (named
 * regress-*) and are not written here.
 */
#include "ctlmsg.h"
#include "jobdesc.h"
#include "nsproto.h"
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *top;

static void put(const char *target, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", top, target);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", top, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* a whole frame (header included) */
static void put_frame(const char *target, const char *name, struct tide_wbuf *w)
{
    if (tide_wire_finish(w) != 0)
        exit(1);
    put(target, name, w->data, w->len);
    tide_wire_free(w);
}

/* only the payload */
static void put_payload(const char *target, const char *name, struct tide_wbuf *w)
{
    if (tide_wire_finish(w) != 0)
        exit(1);
    put(target, name, w->data + TIDE_WIRE_HEADER, w->len - TIDE_WIRE_HEADER);
    tide_wire_free(w);
}

/* a mode byte then text */
static void put_text(const char *target, const char *name, int mode, const char *text)
{
    size_t n = strlen(text);
    char *b = malloc(n + 1);
    b[0] = (char)mode;
    memcpy(b + 1, text, n);
    put(target, name, b, n + 1);
    free(b);
}

static void jobs(void)
{
    char *argv1[] = {"/bin/hostname", NULL};
    char *env1[] = {NULL};
    char *hosts1[] = {"node0", NULL};
    int slots1[] = {4};
    int map1[] = {0, 0};
    char *params[] = {"TIDE_BTL=shm", NULL};
    struct tide_app app1 = {2, 0, "/bin/hostname", argv1, env1, NULL};
    struct tide_job j1 = {0, "tide-1234-0", 2, 2, 0, 1, &app1, 1, hosts1, slots1, map1, NULL, -1, params};
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_LAUNCH);
    tide_job_encode(&j1, &w);
    struct tide_wbuf w2 = w;
    w2.data = malloc(w.len);
    memcpy(w2.data, w.data, w.len);
    put_payload("jobdesc", "one-app", &w);
    put_frame("wire", "launch", &w2);

    char *argv2[] = {"./ring", "-n", "10", NULL};
    char *env2[] = {"OMP_NUM_THREADS=1", "FOO=bar baz", NULL};
    char *argv3[] = {"./worker", NULL};
    struct tide_app apps[] = {{3, 0, "/tmp/ring", argv2, env2, "/tmp"},
                              {1, 3, "/tmp/worker", argv3, env1, NULL}};
    char *hosts2[] = {"node0", "node1", NULL};
    int slots2[] = {2, 2};
    int map2[] = {0, 0, 1, 1};
    char *noparams[] = {NULL};
    struct tide_job j2 = {3, "tide-1234-3", 4, 8, TIDE_JOB_TAG_OUTPUT | TIDE_JOB_SPAWNED, 2, apps, 2,
                          hosts2, slots2, map2, "tide-1234-0", 0, noparams};
    tide_wire_begin(&w, TIDE_CTL_LAUNCH);
    tide_job_encode(&j2, &w);
    w2 = w;
    w2.data = malloc(w.len);
    memcpy(w2.data, w.data, w.len);
    put_payload("jobdesc", "two-apps-two-nodes-spawned", &w);
    put_frame("ctlframe", "launch", &w2);
}

static void ctl(void)
{
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_HELLO);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, "node1");
    tide_wire_put_u32(&w, 4242);
    put_frame("ctlframe", "hello", &w);

    tide_wire_begin(&w, TIDE_CTL_LAUNCHED);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_i32(&w, -1);
    tide_wire_put_str(&w, "cannot execute /nope: No such file or directory");
    put_frame("ctlframe", "launched-failed", &w);

    tide_wire_begin(&w, TIDE_CTL_LAUNCHED);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_i32(&w, 0);
    tide_wire_put_str(&w, NULL);
    put_frame("ctlframe", "launched-ok", &w);

    tide_wire_begin(&w, TIDE_CTL_IO);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 3);
    tide_wire_put_u8(&w, 1);
    tide_wire_put_bytes(&w, "hello from rank 3\n", 18);
    put_frame("ctlframe", "io", &w);

    tide_wire_begin(&w, TIDE_CTL_STDIN);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_bytes(&w, "input line\n", 11);
    put_frame("ctlframe", "stdin", &w);

    tide_wire_begin(&w, TIDE_CTL_EXIT);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_u32(&w, 31337);
    tide_wire_put_u8(&w, TIDE_EXIT_SIGNALED);
    tide_wire_put_i32(&w, 11);
    tide_wire_put_u8(&w, 1);
    tide_wire_put_u8(&w, 0);
    put_frame("ctlframe", "exit", &w);

    tide_wire_begin(&w, TIDE_CTL_ABORT);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 2);
    tide_wire_put_i32(&w, 3);
    tide_wire_put_str(&w, "MPI_Abort called");
    put_frame("ctlframe", "abort", &w);

    tide_wire_begin(&w, TIDE_CTL_KILL);
    tide_wire_put_u32(&w, TIDE_ALL_JOBS);
    tide_wire_put_i32(&w, 15);
    put_frame("ctlframe", "kill", &w);

    tide_wire_begin(&w, TIDE_CTL_SHUTDOWN);
    put_frame("ctlframe", "shutdown", &w);

    tide_wire_begin(&w, TIDE_CTL_FENCE);
    tide_wire_put_str(&w, "tide-1234-0:*");
    tide_wire_put_u32(&w, 2);
    tide_wire_put_str(&w, "tide-1234-0");
    tide_wire_put_u32(&w, TIDE_RANK_WILDCARD);
    tide_wire_put_str(&w, "tide-1234-3");
    tide_wire_put_u32(&w, 1);
    tide_wire_put_u8(&w, 1);
    tide_wire_put_bytes(&w, "\x01\x02\x03\x04", 4);
    tide_wire_put_u32(&w, 2);
    tide_wire_put_u32(&w, 3);
    tide_wire_put_u32(&w, 7);
    put_frame("ctlframe", "fence", &w);

    tide_wire_begin(&w, TIDE_CTL_EVENT);
    tide_wire_put_u32(&w, 2);
    tide_wire_put_i32(&w, -3071);
    tide_wire_put_str(&w, "tide-1234-0");
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 3);
    tide_wire_put_bytes(&w, "\x01\0\0\0\0\0\0\0", 8);
    put_frame("ctlframe", "event", &w);

    tide_wire_begin(&w, TIDE_CTL_FENCE_RELEASE);
    tide_wire_put_str(&w, "tide-1234-0:*");
    tide_wire_put_i32(&w, 0);
    tide_wire_put_bytes(&w, "\x01\x02\x03\x04\x05\x06", 6);
    put_frame("ctlframe", "fence-release", &w);

    tide_wire_begin(&w, TIDE_CTL_DMODEX_REQ);
    tide_wire_put_u32(&w, 7);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_str(&w, "tide-1234-0");
    tide_wire_put_u32(&w, 5);
    put_frame("ctlframe", "dmodex-req", &w);

    tide_wire_begin(&w, TIDE_CTL_DMODEX_RESP);
    tide_wire_put_u32(&w, 7);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_i32(&w, 0);
    tide_wire_put_bytes(&w, "blob", 4);
    put_frame("ctlframe", "dmodex-resp", &w);

    tide_wire_begin(&w, TIDE_CTL_NOTICE);
    tide_wire_put_u32(&w, TIDE_ALL_JOBS);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_str(&w, "a notice");
    put_frame("ctlframe", "notice", &w);

    tide_wire_begin(&w, TIDE_CTL_SPAWN_RESULT);
    tide_wire_put_u32(&w, 9);
    tide_wire_put_i32(&w, 0);
    tide_wire_put_str(&w, "tide-1234-1");
    tide_wire_put_u32(&w, 4);
    put_frame("ctlframe", "spawn-result", &w);

    tide_wire_begin(&w, TIDE_CTL_JOB_ENDED);
    tide_wire_put_str(&w, "tide-1234-1");
    put_frame("ctlframe", "job-ended", &w);
}

static void spawn(void)
{
    char *argv[] = {"./child", "arg", NULL};
    char *env[] = {"X=1", NULL};
    char *noenv[] = {NULL};
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_SPAWN);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, "tide-1234-0");
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 2);
    tide_wire_put_str(&w, "./child");
    tide_wire_put_strv(&w, argv);
    tide_wire_put_strv(&w, env);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_u32(&w, 4);
    tide_wire_put_str(&w, "localhost");
    tide_wire_put_str(&w, "/opt/bin:/usr/bin");
    tide_wire_put_str(&w, "1:4,8");
    tide_wire_put_str(&w, "true");
    tide_wire_put_str(&w, "/bin/true");
    tide_wire_put_strv(&w, argv);
    tide_wire_put_strv(&w, noenv);
    tide_wire_put_str(&w, "/tmp");
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_str(&w, "0:16:2");
    tide_wire_put_str(&w, NULL);
    struct tide_wbuf w2 = w;
    w2.data = malloc(w.len);
    memcpy(w2.data, w.data, w.len);
    put_payload("spawnreq", "two-apps-soft", &w);
    put_frame("ctlframe", "spawn", &w2);

    tide_wire_begin(&w, TIDE_CTL_SPAWN);
    tide_wire_put_u32(&w, 2);
    tide_wire_put_str(&w, "tide-1234-0");
    tide_wire_put_u32(&w, 3);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, "hostname");
    tide_wire_put_strv(&w, argv);
    tide_wire_put_strv(&w, noenv);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_str(&w, NULL);
    tide_wire_put_str(&w, NULL);
    put_payload("spawnreq", "one-app", &w);
    put("spawnreq", "soft-strides", "1:4,8,10:100:5", 14);
}

static void ns(void)
{
    uint8_t nonce[TIDE_NS_NONCE_LEN], mac[TIDE_NS_MAC_LEN];
    memset(nonce, 0xa5, sizeof nonce);
    memset(mac, 0x5a, sizeof mac);
    /* one client session: HELLO, then requests, as one stream */
    struct tide_wbuf all = {0};
    struct tide_wbuf w;
#define APPEND()                                                          \
    do {                                                                  \
        tide_wire_finish(&w);                                             \
        all.data = realloc(all.data, all.len + w.len);                    \
        memcpy(all.data + all.len, w.data, w.len);                        \
        all.len += w.len;                                                 \
        tide_wire_free(&w);                                               \
    } while (0)
    tide_ns_enc_hello(&w, nonce, mac, "tided node0");
    APPEND();
    uint8_t key[TIDE_NS_CRED_LEN], cred[TIDE_NS_CRED_LEN];
    memset(key, 0x3c, sizeof key);
    tide_ns_cred_derive((const uint8_t *)"a credential key of 32 bytes....", "ocean", key, cred);
    tide_ns_enc_publish(&w, 1, 0, "ocean", "tide-port:tcp://127.0.0.1:5000", "job1/0", key);
    APPEND();
    tide_ns_enc_publish(&w, 2, TIDE_NS_PUB_REASSERT, "ocean", "tide-port:tcp://127.0.0.1:5000", "job1/0",
                        cred);
    APPEND();
    tide_ns_enc_lookup(&w, 3, "ocean", 1000);
    APPEND();
    tide_ns_enc_ping(&w, 4);
    APPEND();
    tide_ns_enc_publish(&w, 5, 0, "sea", "port2", "job2/1", key);
    APPEND();
    tide_ns_enc_unpublish(&w, 6, "ocean", cred);
    APPEND();
    tide_ns_enc_unpublish(&w, 7, "sea", NULL);
    APPEND();
    const char *set_svc[2] = {"sea", "ocean"};
    uint8_t set_cred[2][TIDE_NS_CRED_LEN];
    memcpy(set_cred[0], key, sizeof key);
    memcpy(set_cred[1], cred, sizeof cred);
    tide_ns_enc_unpublish_set(&w, 9, 2, set_svc, (const uint8_t(*)[TIDE_NS_CRED_LEN])set_cred);
    APPEND();
    tide_ns_enc_status(&w, 8);
    APPEND();
    put("nsproto", "session", all.data, all.len);
    free(all.data);

    tide_ns_enc_server_hello(&w, nonce, TIDE_NS_AUTH_SECRET);
    put_frame("nsproto", "server-hello", &w);
    tide_ns_enc_welcome(&w, TIDE_NS_OK, mac, "welcome");
    put_frame("nsproto", "welcome", &w);
    tide_ns_enc_reply(&w, 3, TIDE_NS_OK, "tide-port:tcp://127.0.0.1:5000", 1, NULL, NULL);
    put_frame("nsproto", "reply", &w);
    tide_ns_enc_reply(&w, 1, TIDE_NS_OK, NULL, 0, NULL, cred);
    put_frame("nsproto", "reply-cred", &w);
    tide_ns_enc_unpublish_set(&w, 9, 2, set_svc, (const uint8_t(*)[TIDE_NS_CRED_LEN])set_cred);
    put_frame("nsproto", "unpublish-set", &w);
    tide_ns_enc_hello(&w, nonce, NULL, NULL);
    put_frame("nsproto", "hello-nomac", &w);
    tide_ns_enc_publish(&w, 1, 0, "s", "p", "o", key);
    put_frame("wire", "ns-publish", &w);

    /* the text formats */
    put_text("nstext", "uri-tcp", 1,
             "tide-ns://node0.example:7100/#sha256="
             "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    put_text("nstext", "uri-v6", 1,
             "tide-ns://[fe80::1]:7100/#sha256="
             "00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff");
    put_text("nstext", "uri-unix", 1, "tide-ns+unix:///run/user/1000/tide/ns.sock");
    put_text("nstext", "urifile", 2,
             "tide-ns://node0:7100/#sha256="
             "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"
             "secret=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n"
             "pid=4242\n");
    put_text("nstext", "urifile-nosecret", 2, "  tide-ns+unix:///tmp/tide-1000/ns.sock  \npid=1\n");
    put_text("nstext", "secret-raw", 3, "a secret of more than sixteen bytes\n");
    put_text("nstext", "secret-line", 3, "x\nsecret=000102030405060708090a0b0c0d0e0f\n");

    /* persisted tables (nameserver/ns_persist.c): header, two names, end;
     * format 2 with the credential key and hashes, and format 1 without */
    for (uint32_t format = 1; format <= 2; format++) {
        uint8_t mode = 0;
        all.data = malloc(1);
        all.data[0] = mode;
        all.len = 1;
        tide_wire_begin(&w, 0x4e80);
        tide_wire_put_u32(&w, format);
        tide_wire_put_bytes(&w, "0123456789abcdef0123456789abcdef", 32);
        tide_wire_put_str(&w, "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n");
        tide_wire_put_u32(&w, 7100);
        tide_wire_put_u64(&w, 2);
        if (format == 2)
            tide_wire_put_bytes(&w, "a credential key of 32 bytes....", 32);
        APPEND();
        tide_wire_begin(&w, 0x4e81);
        tide_wire_put_str(&w, "ocean");
        tide_wire_put_str(&w, "port1");
        tide_wire_put_str(&w, "job1/0");
        if (format == 2)
            tide_wire_put_bytes(&w, cred, 32);
        APPEND();
        tide_wire_begin(&w, 0x4e81);
        tide_wire_put_str(&w, "sea");
        tide_wire_put_str(&w, "port2");
        tide_wire_put_str(&w, "job1");
        if (format == 2)
            tide_wire_put_bytes(&w, key, 32);
        APPEND();
        tide_wire_begin(&w, 0x4e82);
        tide_wire_put_u64(&w, 2);
        APPEND();
        put("nstext", format == 2 ? "persisted-table" : "persisted-table-v1", all.data, all.len);
        free(all.data);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS-DIR\n", argv[0]);
        return 2;
    }
    top = argv[1];
    jobs();
    ctl();
    spawn();
    ns();
    return 0;
}
