/*
 * attr.h: attribute caching on communicators, datatypes and windows
 * (keyvals, set/get/delete, copy on dup, delete on free), one mechanism
 * for the three kinds. Also the predefined attributes of MPI_COMM_WORLD.
 */
#ifndef TIDE_ATTR_H
#define TIDE_ATTR_H

#include "mpi.h"

enum tide_attr_kind { TIDE_ATTR_COMM = 1, TIDE_ATTR_TYPE = 2, TIDE_ATTR_WIN = 3 };

struct tide_attr {
    int keyval;
    void *kv; /* the keyval object (outlives MPI_*_free_keyval while in use) */
    void *value;
    struct tide_attr *next;
};

struct tide_attr_list {
    struct tide_attr *head; /* most recently set first */
};

/* Each function returns MPI_SUCCESS or an error code (not yet raised). */
int tide_attr_set(int kind, int obj, struct tide_attr_list **list, int keyval, void *value,
                  const char *fn);
int tide_attr_get(int kind, int obj, struct tide_attr_list *list, int keyval, void *value_out,
                  int *flag, const char *fn);
int tide_attr_delete(int kind, int obj, struct tide_attr_list **list, int keyval, const char *fn);
/* On dup: run copy callbacks from src onto *dst. */
int tide_attr_copy_all(int kind, int oldobj, struct tide_attr_list *src, struct tide_attr_list **dst);
/* On free: run every delete callback, newest first, and empty the list. */
int tide_attr_delete_all(int kind, int obj, struct tide_attr_list **list);

int tide_keyval_create(int kind, void (*copy_fn)(void), void (*delete_fn)(void), void *extra,
                       int *keyval, const char *fn);
int tide_keyval_free(int kind, int *keyval, const char *fn);

/* Predefined attributes. */
void tide_attr_init_predefined(void);
void tide_attr_update_lastusedcode(int value);
void tide_attr_finalize(void);
/* Hook for window attributes (MPI_WIN_BASE ...), filled by the RMA code. */
extern int (*tide_win_predefined_attr)(int win, int keyval, void *value_out, int *flag);

#endif
