/// Inside the core: the Flickinger-Bowling model's solve context and the functions its files
/// share (see impax/bowling.h).
///
/// Files, each calling only those below it: bowling.c (parameters, registry entry, public entry
/// points and validation), bowling_energy.c (impact-subspace energy, e_* cap and energetic COR
/// by root search), bowling_set.c (exhaustive search, the active-set loop, the LCP fallback's
/// use), bowling_slip.c (slip directions), bowling_lcp.c (the polygonal LCP), bowling_law.c
/// (row laws -> targets, one candidate set's linear system, admissibility), bowling_ctx.c (the
/// context: group geometry, Coulomb limits, tolerances, outcome copies, workspace slices).
/// bowling_force.c (impact-force minimisation (18)-(19)) stands apart.
#ifndef IMPAX_BOWLING_CTX_H
#define IMPAX_BOWLING_CTX_H

#include "numerics/anitescu_potra.h"
#include "numerics/min_norm.h"
#include "numerics/nsgs.h"
#include "impax/bowling.h"

/// Friction groups per contact: 0 tangential [t1, t2], 1 torsion [torsion], 2 rolling
/// [roll1, roll2]. A group sticks (its rows meet their targets, |pi_g| <= c_s pi_n) or slips
/// (pi_g = -c_d pi_n s, s a unit vector of the group's dimension).
#define BW_GROUPS 3
/// Rows per contact with every angular row: [t1, t2, n, torsion, roll1, roll2].
#define BW_MAX_ROWS_PER_CONTACT 6

/// Active set and stick/slip state of every contact of one candidate (k entries each, in the
/// workspace).
typedef struct bw_state {
    unsigned char *active;            /* contact in S */
    unsigned char (*slip)[BW_GROUPS]; /* 1 = slip, 0 = stick */
    double (*dir)[BW_GROUPS][2];      /* slip direction s (unit) */
} bw_state;

/// Which CORs a solve uses: every contact's e (or one common normal COR) times lambda, and
/// e_t, e_m times lambda.
typedef struct bw_cor {
    double lambda;    /* scale of every COR, [0, 1] (3.5) */
    double common_en; /* >= 0: normal COR of every contact (energetic COR); < 0: contact.e */
} bw_cor;

/// One outcome of the law: impulse (n rows), its kinetic-energy change, rank flag.
typedef struct bw_outcome {
    double *pi;
    double dT;
    int rank_deficient;
    int found;
} bw_outcome;

/// One solve's context: the problem, parameters and workspace slices.
typedef struct bw_ctx {
    const ipx_problem *p;
    const double *param;
    int k, r, n, groups; /* contacts, rows per contact, rows, friction groups per contact */
    double vscale;       /* m/s, largest |v| (velocity scale of the tolerances) */
    double *b;           /* n: targets of the row laws */
    double *pi, *vp;     /* n: the current candidate's impulse and v+ */
    double dT;           /* J: its kinetic-energy change */
    int rank_deficient;  /* its system was rank-deficient */
    bw_outcome sol;      /* the law's solution for the current targets */
    bw_outcome keep;     /* the feasible end of a root search */
    double *x, *rhs;     /* n: unknowns / right-hand side of a candidate's system */
    double *A0, *A1;     /* n x n: a candidate's system (kept) and its copy for the solver */
    /* the factor cache of the law's and the energies' solves, begun empty with each impact */
    ipx_min_norm_cache lsq;
    int *iwork, *unk;                 /* n: solver pivots; global row of each unknown */
    double *jac, *nwt;                /* n x n, 5n: Newton on the slip angles (bowling_slip.c) */
    double *W3, *v3;                  /* 3k x 3k, 3k: [t1, t2, n] part (LCP, validation) */
    double *M, *q, *z, *w, *lcp_work; /* the polygonal LCP, dense */
    int *lcp_iwork;
    ipx_problem p3;    /* its problem: W3, v3 and the contacts with mu_d (dyn) */
    ipx_workspace *ws; /* the iterative solver's slices are taken from it on first use */
    ipx_nsgs nsgs;     /* the polygonal LCP, iterative (bowling_lcp.c) */
    int nsgs_ready;    /* nsgs is initialised on p3 */
    struct {
        ipx_ap_layout layout;
        unsigned used;     /* IPX_BOWLING_LCP_USED, | INELASTIC_USED if the targets failed */
        int solved;        /* pi3 holds a solution for the current targets */
        int tried;         /* bw_lcp_solve ran for them */
        int iterative;     /* the iterative solver gave it (else z holds Lemke's) */
        int warm;          /* the iterative solver has an earlier answer of this impact */
        const double *pi3; /* 3k, N*s: its impulses on the [t1, t2, n] rows */
        ipx_status status; /* its status */
    } lcp;
    bw_state cur;
    unsigned char (*slip_saved)[BW_GROUPS]; /* k: a copy of cur.slip (bowling_set.c) */
    unsigned char (*moving)[BW_GROUPS];     /* k: slip direction did not settle */
    ipx_contact *dyn;                       /* k: the contacts with mu_d (bowling_lcp.c) */
    double *rel3;          /* 3k: the LCP's shifted velocities, then its impulse (bowling_lcp.c) */
    int *slip_list;        /* k * BW_GROUPS: the 2-D slipping groups (bowling_slip.c) */
    int *cap_rows;         /* n: rows of the cap's subspace (bowling_energy.c) */
    int *ap_fric;          /* k: the LCP layout's friction contacts */
    double *ap_scale;      /* k: the LCP layout's contact scales (anitescu_potra.h) */
    double work, max_work; /* work units spent and allowed (bw_charge) */
    int out_of_work;       /* 1 once a charge was refused: nothing more is solved */
    ipx_counts *counts;
    char *message; /* IPX_MESSAGE_SIZE */
} bw_ctx;

/// Default work bound (max_work = 0), in work units (multiply-adds up to a constant factor;
/// docs/models/bowling.md §9). ODE's crash demo (a car driven into a wall of boxes, one island
/// of about 700 contacts) made a polygonal LCP of 7 000 rows, whose dense Lemke pivots cost
/// 1e8 units each against a pivot cap of 351 000: the impact never ended. 2e9 units are about
/// 2 s of one core: bins of up to 100 contacts end well inside it (9e8 units), and the demo's
/// 160 wall islands too large for it (79 to 711 contacts) are left to ODE in 287 s in all; with
/// PLUS's 2e10 (docs/models/plus.md §5.8) each of them spent some 16 s to fail.
#define BW_AUTO_WORK 2e9

/// Plain sweeps without the best residual halving that end an unconverged iterative solve of
/// the polygonal LCP (bowling_lcp.c; aplcp's default stall_sweeps).
#define BW_LCP_STALL_SWEEPS 500

/* bowling_ctx.c */
/// Group geometry: dimension and the row offset of its j-th row inside a contact.
int bw_group_dim(int g);
int bw_group_row(int g, int j);
/// |pi_g| of group g of a contact whose rows start at pi.
double bw_group_norm(const double *pi, int g);
/// Coulomb limits of group g at contact i: c_s (0 = slip only, INFINITY = stick only) and
/// c_d = mu_dynamic_ratio * c_s.
double bw_stick_limit(const bw_ctx *c, int i, int g);
double bw_slip_limit(const bw_ctx *c, int i, int g);
/// Velocity (m/s) and impulse (N*s) tolerances of the current candidate; energy (J) scale e.
double bw_tol_v(const bw_ctx *c);
double bw_tol_p(const bw_ctx *c);
double bw_tol_e(const bw_ctx *c, double e);
/// Friction directions of the polygonal LCP: lcp_directions rounded up to even.
int bw_lcp_directions(const double *param);
/// Clears c->cur: no contact active, every group sticking.
void bw_state_clear(bw_ctx *c);
/// Copies an outcome (the current candidate into o, or o into another).
void bw_take(const bw_ctx *c, bw_outcome *o);
void bw_copy(const bw_ctx *c, bw_outcome *to, const bw_outcome *from);

/// Charges `units` work units to the solve: 1 if the bound allows them, else 0 (nothing
/// charged, out_of_work set: every later charge is refused too). Every step that costs more
/// than O(n^2) is charged before it is made, so a solve's work is at most max_work plus O(n^2)
/// between two charges (docs/models/bowling.md §9).
int bw_charge(bw_ctx *c, double units);
/// The failure of a solve whose work bound was spent before it had an answer: the message names
/// the bound; returns IPX_ERR_NOT_CONVERGED.
ipx_status bw_out_of_work(bw_ctx *c);

/// Slices the workspace for k contacts of r rows; IPX_ERR_WORKSPACE if it is too small.
ipx_status bw_ctx_init(bw_ctx *c, const ipx_problem *p, int r, const double *param,
                       ipx_workspace *ws, ipx_counts *counts, char *message);
/// Bytes bw_ctx_init takes for k contacts of up to 6 rows.
size_t bw_ctx_bytes(int k, const double *param);

/* bowling_law.c */
/// Targets b of the row laws (3.4) for the CORs of cor.
void bw_targets(bw_ctx *c, const bw_cor *cor);
/// Solves the current candidate c->cur with its slip directions as they are: c->pi, c->vp,
/// c->dT, c->rank_deficient.
ipx_status bw_solve_candidate(bw_ctx *c);
/// Minimum-norm solve of the m x m system in A1 (overwritten) with right-hand side x (m
/// entries, overwritten by the solution); counts it. rank_out may be NULL.
ipx_status bw_lsq(bw_ctx *c, int m, double *A, double *x, int *rank_out);
/// vp = v + W pi over the problem's rows; returns dT = pi^T v + 1/2 pi^T W pi.
double bw_apply(const bw_ctx *c, const double *pi, double *vp);
/// 1 if the current candidate (c->pi, c->vp) meets every condition of the law but the slip
/// directions: no pulling, no approach, the targets of S, sticking groups in their cones.
int bw_admissible(const bw_ctx *c);

/* bowling_lcp.c */
/// Copies the [t1, t2, n] rows of the problem into c->W3, c->v3.
void bw_gather3(bw_ctx *c);
/// Polygonal Anitescu-Potra LCP with targets c->b (then with none) and mu_d: c->lcp (its
/// impulses in c->lcp.pi3). Dense Lemke below lcp_switch contacts, the iterative solver from
/// there on and where Lemke fails on an LCP that has a solution.
/// Writes no message: a failure is an error only where the LCP's answer is the outcome.
ipx_status bw_lcp_solve(bw_ctx *c);
/// The failed LCP as the solve's error: its message, its status.
ipx_status bw_lcp_fail(bw_ctx *c);
/// c->cur from the LCP's solution (active contacts, stick/slip, slip directions).
void bw_lcp_seed(bw_ctx *c);
/// The LCP's outcome as the law's solution (c->sol), with its limits_hit bits.
void bw_lcp_outcome(bw_ctx *c);

/* bowling_slip.c */
/// The slip velocity of group g at contact i for contact velocities v: v - b (slip_reference
/// 0) or v (1), into w (the group's dimension); returns its norm.
double bw_slip_velocity(const bw_ctx *c, const double *v, int i, int g, double w[2]);
/// Solves c->cur with every slip direction turned to its slip velocity (a root search per
/// group). *unsettled: groups whose direction did not settle (c->moving marks them).
ipx_status bw_solve_slip(bw_ctx *c, int *unsettled);

/* bowling_set.c */
/// The law's solution for the current targets (exhaustive search, or the loop, then the LCP
/// fallback): c->sol.
ipx_status bw_resolve(bw_ctx *c);

/* bowling_energy.c */
/// The whole law with the energetic COR and the e_* cap (3.4, 3.5): into c->sol.
/// ke_before > 0: the host's T- for the cap, else T_par-.
ipx_status bw_impact(bw_ctx *c, double ke_before);

#endif
