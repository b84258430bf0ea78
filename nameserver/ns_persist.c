/*
 * ns_persist.c: saving the name table (and the server's identity: secret,
 * TLS key and certificate, port) so a restarted tide-nameserver keeps its
 * names and its URI. The file is a sequence of wire.h frames: a header,
 * one frame per name, and an end frame with the count, so truncation or
 * corruption is detected; a file that does not read back whole is refused.
 *
 * Format 2 keeps each name's ownership: the SHA-256 of its credential, and
 * in the header the key fresh credentials are derived with, so a publisher
 * still owns its names after a restart. A format-1 file (names without
 * credentials) gives back the server's identity; its names are dropped with
 * a warning, since nobody could prove owning them (their clients, speaking
 * protocol version 1, are refused anyway).
 */
#include "nameserver.h"
#include "fdutil.h"
#include "safefs.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#define PERSIST_HEADER 0x4e80 /* u32 format, bytes secret, str pem, u32 port, u64 count,
                                 bytes cred_key (format 2) */
#define PERSIST_ENTRY 0x4e81  /* str service, str port, str owner, bytes cred_hash (format 2) */
#define PERSIST_END 0x4e82    /* u64 count */
#define PERSIST_FORMAT 2
#define PERSIST_FORMAT_V1 1 /* no credentials */
#define PERSIST_MAX_FILE (1024u * 1024 * 1024)

static char *read_file(const char *path, size_t *len, char *err, size_t errlen, int *absent)
{
    *absent = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT) {
            *absent = 1;
            return NULL;
        }
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > PERSIST_MAX_FILE) {
        snprintf(err, errlen, "%s is not a regular file of at most 1 GiB", path);
        close(fd);
        return NULL;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 077)) {
        snprintf(err, errlen, "%s holds the server's secret and key but is not private (mode %03o)", path,
                 (unsigned)(st.st_mode & 0777));
        close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        close(fd);
        return NULL;
    }
    ssize_t n = tide_read_full(fd, buf, (size_t)st.st_size);
    close(fd);
    if (n != st.st_size) {
        snprintf(err, errlen, "cannot read %s", path);
        free(buf);
        return NULL;
    }
    *len = (size_t)n;
    return buf;
}

int ns_persist_load(const char *path, struct ns_table *t, struct ns_identity *id, char *err,
                    size_t errlen)
{
    size_t len = 0;
    int absent;
    char *buf = read_file(path, &len, err, errlen, &absent);
    if (!buf)
        return absent ? 0 : -1;
    int rc = ns_persist_parse(path, (const uint8_t *)buf, len, t, id, err, errlen);
    OPENSSL_cleanse(buf, len);
    free(buf);
    return rc;
}

int ns_persist_parse(const char *path, const uint8_t *p, size_t len, struct ns_table *t,
                     struct ns_identity *id, char *err, size_t errlen)
{
    size_t pos = 0, entries = 0, dropped = 0;
    int seen_header = 0, seen_end = 0, rc = -1;
    uint32_t format = 0;
    while (pos < len) {
        uint16_t type;
        uint32_t plen;
        if (len - pos < TIDE_WIRE_HEADER || tide_wire_header(p + pos, &type, &plen) != 0 ||
            len - pos - TIDE_WIRE_HEADER < plen) {
            snprintf(err, errlen, "%s is damaged at byte %zu (bad or truncated frame)", path, pos);
            goto out;
        }
        struct tide_rbuf r;
        tide_wire_reader(&r, p + pos + TIDE_WIRE_HEADER, plen);
        pos += TIDE_WIRE_HEADER + plen;
        if (seen_end) {
            snprintf(err, errlen, "%s has data after its end", path);
            goto out;
        }
        if (!seen_header) {
            format = type == PERSIST_HEADER ? tide_wire_get_u32(&r) : 0;
            if (format != PERSIST_FORMAT && format != PERSIST_FORMAT_V1) {
                snprintf(err, errlen, "%s is not a tide-nameserver table (or a newer format)", path);
                goto out;
            }
            size_t sl = 0, kl = 0;
            const void *sec = tide_wire_get_bytes(&r, &sl);
            char *pem = tide_wire_get_str(&r);
            uint32_t port = tide_wire_get_u32(&r);
            (void)tide_wire_get_u64(&r);
            const void *key = format == PERSIST_FORMAT ? tide_wire_get_bytes(&r, &kl) : NULL;
            if (!tide_wire_done(&r) || sl > TIDE_NS_SECRET_MAX || (sl && sl < TIDE_NS_SECRET_MIN) ||
                port > 65535 || (format == PERSIST_FORMAT && kl != TIDE_NS_CRED_LEN)) {
                free(pem);
                snprintf(err, errlen, "%s has a damaged header", path);
                goto out;
            }
            if (key) {
                memcpy(id->cred_key, key, kl);
                id->has_cred_key = 1;
            }
            memcpy(id->secret, sec, sl);
            id->secret_len = sl;
            free(id->pem);
            id->pem = pem;
            id->port = port;
            seen_header = 1;
            continue;
        }
        if (type == PERSIST_END) {
            uint64_t count = tide_wire_get_u64(&r);
            if (!tide_wire_done(&r) || count != entries) {
                snprintf(err, errlen, "%s is damaged: %zu names where its end says %llu", path, entries,
                         (unsigned long long)count);
                goto out;
            }
            seen_end = 1;
            continue;
        }
        if (type != PERSIST_ENTRY) {
            snprintf(err, errlen, "%s is damaged: unknown record 0x%x", path, type);
            goto out;
        }
        char *svc = tide_wire_get_str(&r), *port = tide_wire_get_str(&r), *own = tide_wire_get_str(&r);
        size_t hl = 0;
        const void *hash = format == PERSIST_FORMAT ? tide_wire_get_bytes(&r, &hl) : NULL;
        char why[200];
        int st = (!tide_wire_done(&r) || !svc || !port || !own ||
                  (format == PERSIST_FORMAT && hl != NS_CRED_HASH_LEN))
                     ? TIDE_NS_BAD_REQUEST
                     : tide_ns_check_args(svc, port, own, why, sizeof why);
        int changed = 0;
        if (st == TIDE_NS_OK && !hash)
            dropped++; /* format 1: nobody could prove owning it */
        else if (st == TIDE_NS_OK)
            st = ns_table_publish(t, svc, port, own, hash, 0, &changed);
        free(svc);
        free(port);
        free(own);
        if (st != TIDE_NS_OK) {
            snprintf(err, errlen, "%s is damaged: name %zu cannot be restored (%s)", path, entries + 1,
                     tide_ns_strstatus(st));
            goto out;
        }
        entries++;
    }
    if (!seen_header || !seen_end) {
        snprintf(err, errlen, "%s is truncated", path);
        goto out;
    }
    if (dropped)
        tide_error("%s was written by an older tide-nameserver: its %zu names carry no ownership "
                   "credential and were dropped (their publishers must publish them again)",
                   path, dropped);
    rc = 1;
out:
    return rc;
}

/* buffered writer over an fd */
struct out {
    int fd, failed;
    uint8_t buf[65536];
    size_t len;
};

static void out_flush(struct out *o)
{
    if (!o->failed && o->len && tide_write_all(o->fd, o->buf, o->len) != 0)
        o->failed = 1;
    o->len = 0;
}

static void out_frame(struct out *o, struct tide_wbuf *w)
{
    if (tide_wire_finish(w) != 0) {
        o->failed = 1;
    } else if (w->len > sizeof o->buf - o->len) {
        out_flush(o);
        if (!o->failed && tide_write_all(o->fd, w->data, w->len) != 0)
            o->failed = 1;
    } else {
        memcpy(o->buf + o->len, w->data, w->len);
        o->len += w->len;
    }
    tide_wire_free(w);
}

int ns_persist_save(const char *path, const struct ns_table *t, const struct ns_identity *id,
                    char *err, size_t errlen)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errlen, "persist path too long");
        return -1;
    }
    /* made afresh: a name left by a save that died is replaced, never
     * written through (a symlink or another user's file) */
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 2; attempt++) {
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0 && (errno != EEXIST || unlink(tmp) != 0))
            break;
    }
    if (fd >= 0 && tide_safe_check_file(fd) != 0) {
        close(fd);
        fd = -1;
        errno = EPERM;
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    fchmod(fd, 0600);
    static struct out o;
    o.fd = fd;
    o.failed = 0;
    o.len = 0;
    struct tide_wbuf w;
    tide_wire_begin(&w, PERSIST_HEADER);
    tide_wire_put_u32(&w, PERSIST_FORMAT);
    tide_wire_put_bytes(&w, id->secret, id->secret_len);
    tide_wire_put_str(&w, id->pem);
    tide_wire_put_u32(&w, id->port);
    tide_wire_put_u64(&w, ns_table_count(t));
    tide_wire_put_bytes(&w, id->cred_key, TIDE_NS_CRED_LEN);
    out_frame(&o, &w);
    uint64_t n = 0;
    for (const struct ns_entry *e = ns_table_first(t); e; e = e->next) {
        tide_wire_begin(&w, PERSIST_ENTRY);
        tide_wire_put_str(&w, e->service);
        tide_wire_put_str(&w, e->port);
        tide_wire_put_str(&w, e->owner);
        tide_wire_put_bytes(&w, e->cred_hash, NS_CRED_HASH_LEN);
        out_frame(&o, &w);
        n++;
    }
    tide_wire_begin(&w, PERSIST_END);
    tide_wire_put_u64(&w, n);
    out_frame(&o, &w);
    out_flush(&o);
    int e = errno;
    if (o.failed || fsync(fd) != 0) {
        e = errno;
        close(fd);
        unlink(tmp);
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(e));
        return -1;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        e = errno;
        unlink(tmp);
        snprintf(err, errlen, "cannot replace %s: %s", path, strerror(e));
        return -1;
    }
    /* make the rename itself durable */
    char dcopy[4200];
    snprintf(dcopy, sizeof dcopy, "%s", path);
    int dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}
