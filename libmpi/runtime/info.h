/*
 * info.h: info objects (MPI_Info) as the rest of libmpi sees them:
 * ordered (key, value) string pairs. Spawn, ports, windows, files and
 * communicators read hints through tide_info_lookup; objects that keep
 * the hints they were created with hold their own copy
 * (tide_info_dup_internal), never the user's handle.
 */
#ifndef TIDE_INFO_H
#define TIDE_INFO_H

#include <stdbool.h>

#include "mpi.h"

struct tide_info_entry {
    char *key;
    char *value;
};

struct tide_info {
    int handle;
    bool predefined; /* MPI_INFO_ENV: read-only, never freed */
    int nkeys;       /* entries in the order their keys were first set */
    int cap;
    struct tide_info_entry *ents;
};

/* Resolve a handle; NULL for MPI_INFO_NULL or an invalid handle.
 * MPI_INFO_ENV resolves to the environment's info (built on first use). */
struct tide_info *tide_info_get(MPI_Info h);
/* The value of key, or NULL if the key is absent (or info is NULL). */
const char *tide_info_lookup(const struct tide_info *info, const char *key);
/* A boolean hint: "true"/"false" (also 1/0, yes/no, any case), dflt when
 * absent or not a boolean. */
bool tide_info_lookup_bool(const struct tide_info *info, const char *key, bool dflt);
/* The n-th key and value (0 <= n < info->nkeys). */
const char *tide_info_nth_key(const struct tide_info *info, int n);
const char *tide_info_nth_value(const struct tide_info *info, int n);

/* A new info object with a handle and a copy of src's entries (src may
 * be NULL: empty). Used for MPI_Comm_get_info & co (a new object the user
 * frees) and by objects keeping a private copy of their hints.
 * MPI_SUCCESS or MPI_ERR_NO_MEM (a class, the caller reports it). */
int tide_info_dup_internal(const struct tide_info *src, MPI_Info *newinfo);
/* Set key to value on an object (not the predefined one): MPI_SUCCESS,
 * MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE (too long or empty key) or
 * MPI_ERR_NO_MEM, as a class. */
int tide_info_set_internal(struct tide_info *info, const char *key, const char *value);
/* Free an info object by handle (objects dropping their private copy);
 * sets *h to MPI_INFO_NULL. Does nothing for MPI_INFO_NULL/MPI_INFO_ENV. */
void tide_info_free_internal(MPI_Info *h);

/* Module start/stop (runtime/modules.c); the info functions also start
 * the module on first use. */
int tide_info_init(void);
void tide_info_finalize(void);

#endif
