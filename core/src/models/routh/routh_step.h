/// Inside the core: the impulse-step machinery of the Routh model (routh_step.c; impax/routh.h),
/// shared by the single-sample entry points (routh.c) and the set sampler (routh_set.c).
#ifndef IMPAX_ROUTH_STEP_H
#define IMPAX_ROUTH_STEP_H

#include <stddef.h>

#include "numerics/anitescu_potra.h"
#include "numerics/nsgs.h"
#include "impax/rng.h"
#include "impax/routh.h"

/// State of one solve: the step LCP (75) is built once (q is frozen, so W_q is constant) and
/// only its right-hand side changes from step to step.
typedef struct ipx_routh_ctx {
    const ipx_problem *p;
    ipx_ap_layout L; /* Anitescu-Potra block layout (rows lambda_n, lambda_D, gamma) */
    int m;           /* contacts; also the number of beta rows */
    int n;           /* step LCP size m + L.size */
    double h;        /* N*s, the step (cap scale) */
    int max_steps;
    int max_pivots;
    int random_caps;
    int poisson;
    double tol_v_abs; /* m/s: the impact has ended when min v_n >= -tol_v_abs */
    double tol_lcp;   /* relative residual / energy tolerance */
    ipx_rng *rng;
    double *M, *q, *z, *w; /* step LCP (75), n x n column-major and n-vectors */
    double *M_ap;          /* the Anitescu-Potra LCP of the fallback, L.size x L.size */
    double *dwork;
    int *iwork;
    double *v;        /* 3k, m/s: current contact velocities v0 + W pi */
    double *dpi;      /* 3k, N*s: impulse of the current step */
    int lcp_failed;   /* set when an LCP of this sample failed (ray, pivots, residual) */
    double dpi_slack; /* J: the kinetic energy dpi may gain through its LCP's residual (0 from
                             the dense Lemke, whose answer is complementary to round-off) */
    /* the iterative solver (k >= lcp_switch; the dense matrices above are then taken only when
       k <= lcp_fallback, and built when first needed) */
    int iterative, fallback, dense_built, warm, nsgs_ready;
    ipx_workspace
        *ws; /* where the solver was set up (the iterative solver's rescue takes it late) */
    ipx_nsgs nsgs;
    ipx_nsgs_options nsgs_opt;
    double lcp_accept; /* residual accepted above lcp_fallback */
    double *caps;      /* m, N*s: the caps of the current step */
    ipx_counts *counts;
    char *message; /* IPX_MESSAGE_SIZE bytes */
} ipx_routh_ctx;

/// Workspace bytes of one Routh solve with k contacts (W dense, or blocks copied).
size_t ipx_routh_workspace_bytes(int k, const double *param);

/// The same for k contacts at or above the model's blocks_from, W given as blocks: O(k).
size_t ipx_routh_blocks_workspace_bytes(int k, const double *param);

/// Sets up c for problem p (validated) and builds the step LCP matrix; with the automatic step
/// (step = 0) it also solves the reference Anitescu-Potra LCP (counted in counts). counts and
/// message are where the solve reports. IPX_ERR_WORKSPACE if ws is too small; IPX_ERR_INPUT if
/// a contact approaches but the step comes out 0 (no approaching contact can take impulse).
ipx_status ipx_routh_ctx_init(ipx_routh_ctx *c, const ipx_problem *p, const double *param,
                              ipx_rng *rng, ipx_workspace *ws, ipx_counts *counts, char *message);

/// One sample: the inelastic impact from p->v (Algorithm 1), then the optional Poisson
/// restitution. pi (3k, N*s) receives the total impulse and c->v the final contact velocities.
/// fallback = 1 (simulation): an impact not ended by max_steps or by a failed step LCP is
/// finished with one Anitescu-Potra solve (limits_hit bits). fallback = 0 (set sampling): such
/// a sample returns IPX_ERR_NOT_CONVERGED or the LCP's failure status instead.
/// IPX_ERR_NUMERIC if any step gained energy (c->lcp_failed = 0) or an LCP residual was too
/// large (c->lcp_failed = 1).
ipx_status ipx_routh_resolve(ipx_routh_ctx *c, double *pi, int fallback);

/// Argument, parameter, problem and workspace checks of the public entry points (as ipx_solve
/// does them). Leaves ws reset. message: IPX_MESSAGE_SIZE bytes.
ipx_status ipx_routh_check_call(const ipx_problem *p, const double *param, const ipx_rng *rng,
                                ipx_workspace *ws, char *message);

#endif
