/*
 * ctltree.h: the tree of node daemons. The daemons of other hosts hang
 * from mpiexec in a tree of a given radix: each
 * links to its parent (mpiexec for the first `radix` of them), and control
 * messages travel along the tree, so mpiexec keeps `radix` links whatever
 * the number of hosts, and a broadcast (launch, kill, shutdown) costs each
 * process at most `radix` sends. Daemons mpiexec forks on its own host
 * are not in the tree: they are linked to mpiexec directly.
 *
 * Members are node numbers in tree order; position p (0-based) has parent
 * position p/radix - 1 (-1: mpiexec) and children radix*(p+1) ... radix*(p+1)+radix-1.
 */
#ifndef TIDE_CTLTREE_H
#define TIDE_CTLTREE_H

#include <stdbool.h>

struct tide_ctltree {
    int radix;
    int n;        /* members */
    int *member;  /* node of each position */
    int maxnode;  /* largest node number + 1 */
    int *pos;     /* position of each node, -1 if not a member */
};

/* Build from the member nodes in order. 0, or -1 (bad radix, node < 0, duplicate). */
int tide_ctltree_init(struct tide_ctltree *t, int radix, const int *nodes, int n);
void tide_ctltree_free(struct tide_ctltree *t);
bool tide_ctltree_member(const struct tide_ctltree *t, int node);
/* The parent node of a member; -1 for mpiexec (or not a member). */
int tide_ctltree_parent(const struct tide_ctltree *t, int node);
/* Is node in the subtree rooted at root (root included)? */
bool tide_ctltree_in_subtree(const struct tide_ctltree *t, int root, int node);
/* The child of `from` (-1: mpiexec) whose subtree holds node; -1 if none. */
int tide_ctltree_next_hop(const struct tide_ctltree *t, int from, int node);
/* The children of `from` (-1: mpiexec): up to max node numbers in out; returns the count. */
int tide_ctltree_children(const struct tide_ctltree *t, int from, int *out, int max);
/* "radix:n0,n1,..." and back (for the daemon's boot data). */
char *tide_ctltree_format(const struct tide_ctltree *t);
int tide_ctltree_parse(struct tide_ctltree *t, const char *text);

#endif
