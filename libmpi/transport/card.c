/*
 * card.c: building, publishing, fetching and parsing business cards.
 * The text form is "key=value;key=value;..."; unknown keys are ignored so
 * cards can grow without breaking older peers.
 */
#include "transport/card.h"
#include "runtime/proc.h"
#include "runtime/state.h"
#include "client.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char card[TIDE_CARD_MAX];
static size_t card_len;

void tide_card_reset(void)
{
    card_len = 0;
    card[0] = '\0';
}

void tide_card_add(const char *key, const char *value)
{
    int n = snprintf(card + card_len, sizeof card - card_len, "%s=%s;", key, value);
    if (n > 0 && card_len + (size_t)n < sizeof card)
        card_len += (size_t)n;
}

const char *tide_card_text(void)
{
    return card;
}

static int copy_field(char *dst, size_t dstlen, const char *val, size_t vl)
{
    if (vl >= dstlen)
        return -1;
    memcpy(dst, val, vl);
    dst[vl] = '\0';
    return 0;
}

int tide_card_parse(const char *text, struct tide_card *out)
{
    memset(out, 0, sizeof *out);
    out->pid = -1;
    const char *p = text;
    int have_host = 0;
    while (*p) {
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ';');
        if (!eq || !end || eq > end)
            return -1;
        size_t kl = (size_t)(eq - p), vl = (size_t)(end - eq - 1);
        char val[600];
        if (vl >= sizeof val)
            return -1;
        memcpy(val, eq + 1, vl);
        val[vl] = '\0';
#define KEY(k) (kl == strlen(k) && strncmp(p, k, kl) == 0)
        if (KEY("host")) {
            if (copy_field(out->host, sizeof out->host, val, vl))
                return -1;
            have_host = 1;
        } else if (KEY("node")) {
            out->node_id = (uint32_t)strtoul(val, NULL, 10);
        } else if (KEY("pid")) {
            out->pid = atoi(val);
        } else if (KEY("shm")) {
            if (copy_field(out->shm_path, sizeof out->shm_path, val, vl))
                return -1;
        } else if (KEY("bell")) {
            if (copy_field(out->bell, sizeof out->bell, val, vl))
                return -1;
        } else if (KEY("tcp")) {
            if (copy_field(out->tcp, sizeof out->tcp, val, vl))
                return -1;
        }
#undef KEY
        p = end + 1;
    }
    return have_host ? 0 : -1;
}

/* The key of p's card: a process of this job brought up again publishes
 * its new card under a key of its own (runtime.c): every process of the
 * job has been brought up as many times, the start-up fences being over
 * the whole job. */
static void card_key(const struct tide_proc *p, char *key, size_t len)
{
    snprintf(key, len, "tide.card");
    if (tide.incarnation > 0 && strcmp(p->nspace, tide.nspace) == 0)
        snprintf(key, len, "tide.card.%u", (unsigned)tide.incarnation);
}

static bool card_ok(const void *data, size_t len)
{
    return data && len > 0 && ((const char *)data)[len - 1] == '\0';
}

void tide_cards_prefetch(struct tide_proc *const *procs, int n)
{
    if (!tide.have_pmix || n <= 1)
        return;
    const char **ns = malloc((size_t)n * sizeof *ns);
    const char **keys = malloc((size_t)n * sizeof *keys);
    char(*keybuf)[32] = malloc((size_t)n * sizeof *keybuf);
    uint32_t *ranks = malloc((size_t)n * sizeof *ranks);
    struct tide_proc **who = malloc((size_t)n * sizeof *who);
    void **data = malloc((size_t)n * sizeof *data);
    size_t *lens = malloc((size_t)n * sizeof *lens);
    int k = 0;
    if (ns && keys && keybuf && ranks && who && data && lens) {
        for (int i = 0; i < n; i++) {
            struct tide_proc *p = procs[i];
            bool seen = false;
            for (int j = 0; j < k && !seen; j++)
                seen = who[j] == p;
            if (p == tide.me || p->card || seen)
                continue;
            card_key(p, keybuf[k], sizeof keybuf[k]);
            who[k] = p;
            ns[k] = p->nspace;
            ranks[k] = p->rank;
            keys[k] = keybuf[k];
            k++;
        }
        if (k > 1)
            tide_pmix_get_many(ns, ranks, keys, k, data, lens, tide.tuning.pmix_timeout);
        for (int j = 0; j < k && k > 1; j++) {
            if (card_ok(data[j], lens[j]) && !who[j]->card) {
                who[j]->card = data[j];
                who[j]->card_len = (uint32_t)lens[j];
            } else {
                free(data[j]); /* tide_card_of will ask again, and say why */
            }
        }
    }
    free(ns);
    free(keys);
    free(keybuf);
    free(ranks);
    free(who);
    free(data);
    free(lens);
}

int tide_card_of(struct tide_proc *p, struct tide_card *out)
{
    if (p == tide.me)
        return tide_card_parse(card, out);
    if (!p->card) {
        if (!tide.have_pmix)
            return -1;
        void *data = NULL;
        size_t len = 0;
        char key[32];
        card_key(p, key, sizeof key);
        if (tide_pmix_get(p->nspace, p->rank, key, &data, &len, tide.tuning.pmix_timeout) != 0)
            return -1;
        if (!card_ok(data, len)) {
            free(data);
            return -1;
        }
        p->card = data;
        p->card_len = (uint32_t)len;
    }
    return tide_card_parse(p->card, out);
}
