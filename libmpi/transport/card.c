/*
 * card.c: building, publishing, fetching and parsing business cards.
 * The text form is "key=value;key=value;..."; unknown keys are ignored so
 * cards can grow without breaking older peers.
 */
#include "transport/card.h"
#include "runtime/proc.h"
#include "runtime/state.h"
#include "client.h"

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

int tide_card_of(struct tide_proc *p, struct tide_card *out)
{
    if (p == tide.me)
        return tide_card_parse(card, out);
    if (!p->card) {
        if (!tide.have_pmix)
            return -1;
        void *data = NULL;
        size_t len = 0;
        /* a process of this job brought up again publishes its new card
         * under a key of its own (runtime.c): every process of the job
         * has been brought up as many times, the start-up fences being
         * over the whole job */
        char key[32] = "tide.card";
        if (tide.incarnation > 0 && strcmp(p->nspace, tide.nspace) == 0)
            snprintf(key, sizeof key, "tide.card.%u", (unsigned)tide.incarnation);
        if (tide_pmix_get(p->nspace, p->rank, key, &data, &len, tide.tuning.pmix_timeout) != 0)
            return -1;
        if (len == 0 || ((char *)data)[len - 1] != '\0') {
            free(data);
            return -1;
        }
        p->card = data;
        p->card_len = (uint32_t)len;
    }
    return tide_card_parse(p->card, out);
}
