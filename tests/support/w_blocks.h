/// W as blocks (ipx_wsparse, types.h) made from a dense W by the tests themselves: every 3 x 3
/// block with a non-zero entry, and the diagonal ones. The same problem in the form the ODE
/// adapter gives the models that read blocks.
#ifndef IMPAX_TEST_W_BLOCKS_H
#define IMPAX_TEST_W_BLOCKS_H

#include "impax/types.h"

typedef struct ipx_test_blocks {
    ipx_wsparse Ws;
    int *start, *row;
    double *blk;
    ipx_problem problem; ///< the problem with Ws instead of W, flagged IPX_PROBLEM_W_ASSEMBLED
} ipx_test_blocks;

/// Fills b from p's dense W (O(k^2)). Returns 0, or -1 if memory is short.
int ipx_test_blocks_of(const ipx_problem *p, ipx_test_blocks *b);

void ipx_test_blocks_free(ipx_test_blocks *b);

/// The dense W (3k x 3k, column-major) of the captured islands' data files
/// (tests/unit/*_pile_data.h, lcp_stall_data.h): the blocks of W's upper triangle, block b at
/// (row[b], col[b]) with entries W(3 row + r, 3 col + c) = blk[9 b + r + 3 c], mirrored below.
void ipx_test_w_from_upper_blocks(int k, int blocks, const int *row, const int *col,
                                  const double *blk, double *W);

/// A captured island of the data files that give each contact's mu and the host's v_tol (m/s)
/// (lcp_stall_data.h, lcp_cone_data.h, ap_shift_data.h, plus_finish_host_data.h); e: the
/// restitution given every contact.
typedef struct ipx_test_island {
    const char *name;
    int k, blocks;
    const int *row, *col;
    const double *blk, *v, *mu, *v_tol;
    double e;
} ipx_test_island;

#define IPX_TEST_ISLAND(name, e)                                                           \
    ((ipx_test_island){#name, name##_k, name##_blocks, name##_row, name##_col, name##_blk, \
                       name##_v, name##_mu, &name##_v_tol, (e)})

/// The island's problem (IPX_PROBLEM_W_ASSEMBLED, its v_tol): W (9 k^2 doubles) filled from its
/// blocks, contact (k) given its mu and e (v_capture and v_plastic 0).
ipx_problem ipx_test_island_problem(const ipx_test_island *is, double *W, ipx_contact *contact);

#endif
