/*
 * mpit.h: the tool information interface (MPI_T, chapter 14) inside
 * libmpi: its initialisation count and lock (mpit.c), enumerations,
 * and what the control-variable, performance-variable and category
 * files share. MPI_T functions return their error class directly and
 * never call an error handler.
 */
#ifndef TIDE_MPIT_H
#define TIDE_MPIT_H

#include "mpi.h"

/* An enumeration: its name and items (value, name). */
struct tide_mpit_enum_item {
    int value;
    const char *name;
};
struct tide_mpit_enum {
    const char *name;
    int nitems;
    const struct tide_mpit_enum_item *items;
};
/* "off" (0) and "on" (1): the type of the on/off parameters. */
extern struct tide_mpit_enum tide_mpit_enum_bool;

/* Take the interface's lock if it is initialized (MPI_SUCCESS), else
 * return MPI_T_ERR_NOT_INITIALIZED without taking it. */
int tide_mpit_enter(void);
void tide_mpit_leave(void);

/* Copy a string out as MPI_T does: with a NULL len nothing; with
 * *len == 0 or a NULL buf only the needed length (terminator included)
 * into *len; otherwise at most *len - 1 characters and a terminator, and
 * *len the number written with the terminator. */
void tide_mpit_copy_string(const char *s, char *buf, int *len);

/* The last MPI_T_finalize frees every session and handle. */
void tide_mpit_cvar_free_all(void);
void tide_mpit_pvar_free_all(void);

/* Counts and names, for the categories (mpit_category.c). */
int tide_mpit_cvar_count(void);
int tide_mpit_pvar_count(void);
int tide_mpit_cvar_find(const char *name);
int tide_mpit_pvar_find(const char *name);
/* The category a variable belongs to, by name. */
const char *tide_mpit_cvar_category(int index);
const char *tide_mpit_pvar_category(int index);

#endif
