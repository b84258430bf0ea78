/*
 * card.h: business cards. Each process publishes one card through PMIx
 * (key "tide.card") saying how to reach it: host, pid, shared-memory
 * segment and doorbell, TCP addresses. A card holds no secret: it is
 * copied into port names and member lists given to other jobs.
 * Peers fetch a card the first time they talk to the process.
 */
#ifndef TIDE_CARD_H
#define TIDE_CARD_H

#include <stddef.h>
#include <stdint.h>

struct tide_proc;

#define TIDE_CARD_MAX 2048

struct tide_card {
    char host[256];
    uint32_t node_id;
    int pid;
    char shm_path[512];   /* empty: no shared memory */
    char bell[128];       /* doorbell socket name (abstract) */
    char tcp[512];        /* comma-separated ip:port list; empty: no TCP */
};

/* Append "key=value;" to this process's card under construction. */
void tide_card_add(const char *key, const char *value);
/* The card of this process as text (built by the transports at init). */
const char *tide_card_text(void);
void tide_card_reset(void);
int tide_card_parse(const char *text, struct tide_card *out);
/* Fetch and parse p's card (PMIx get, cached on the proc). */
int tide_card_of(struct tide_proc *p, struct tide_card *out);
/* Fetch the cards of the n processes not known yet in one go (before
 * contacting many processes for the first time). */
void tide_cards_prefetch(struct tide_proc *const *procs, int n);

#endif
