/// Inside the core: the iterative solver's exact blocks (nsgs.h, "Exact blocks"): the contacts
/// still violating their conditions and their neighbours through W, their AP LCP solved by the
/// dense Lemke with every other contact's impulse held (nsgs_block.c).
#ifndef IMPAX_NSGS_BLOCK_H
#define IMPAX_NSGS_BLOCK_H

#include <stddef.h>

#include "impax/types.h"
#include "impax/workspace.h"
#include "wblocks.h"

/// Most LCP unknowns of an exact block: 64 contacts with the default 4 friction directions, a
/// dense Lemke of at most a few million multiply-adds a pivot.
#define IPX_NSGS_BLOCK_UNKNOWNS 384

/// The exact blocks' storage: one block of at most `most` contacts, its own problem (dense W,
/// the velocities without its impulses) and its AP LCP for the dense Lemke.
typedef struct ipx_nsgs_block {
    int most;           /* contacts a block may hold: min(k, IPX_NSGS_BLOCK_UNKNOWNS / (nd + 2)) */
    int *member;        /* most: the block's contacts */
    int *pos;           /* k: each contact's place in the block, -1 outside */
    double *viol;       /* k, m/s: each contact's violation, the caller's (ipx_nsgs_block_solve) */
    double *W, *v, *pi; /* (3 most)^2, 3 most, 3 most: the block's problem and answer */
    ipx_contact *contact;  /* most */
    int *fric;             /* most: the AP layout's */
    double *scale;         /* most: the AP layout's */
    double *M, *q, *z, *w; /* the block's AP LCP, most (nd + 2) unknowns at most */
    double *dwork;
    int *iwork;
} ipx_nsgs_block;

/// Bytes and set-up of the storage for k contacts and nd friction directions.
size_t ipx_nsgs_block_bytes(int k, int nd);
ipx_status ipx_nsgs_block_init(ipx_nsgs_block *b, int k, int nd, ipx_workspace *ws);

/// One exact block of problem p (W as blocks W, nd friction directions; qn_shift: the normal
/// rows' targets, or NULL) at the impulses pi (3k, N*s) with velocities vp = v + W pi (3k, m/s):
/// the contacts whose violation b->viol[i] (m/s, filled by the caller) exceeds threshold, the
/// worst ones if they are more than a block holds, and their neighbours through W, breadth
/// first, up to the block's size. Their AP LCP, every other contact's impulse held in their
/// velocities, is solved by the dense Lemke and written into pi and vp; *pivots counts its
/// pivots. Returns 0 (pi, vp untouched) if no contact violates or Lemke fails.
int ipx_nsgs_block_solve(ipx_nsgs_block *b, const ipx_wblocks *W, const ipx_problem *p, int nd,
                         const double *qn_shift, double threshold, double *pi, double *vp,
                         long *pivots);

#endif
