/// Inside the PLUS model: the context of one impact (plus_ctx) that every stage reads and
/// writes, its parameters in the algorithm's form (plus_cfg), the model's constants and the
/// predicates every stage asks. The bottom of the model: it calls no other file of it (the files
/// and their order are listed in plus.c).
#ifndef IMPAX_PLUS_CTX_H
#define IMPAX_PLUS_CTX_H

#include <math.h>

#include "impax/plus.h"
#include "numerics/min_norm.h"

/// Parameter values in the form the algorithm uses.
typedef struct plus_cfg {
    double cos_theta; ///< cos(theta_max)
    double v_t;       ///< m/s, v_transition
    double v_capture; ///< m/s override, < 0 = none
    double v_plastic; ///< m/s override, < 0 = none
    double e_min;     ///< override, < 0 = none
    double alpha_min;
    int max_rounds, max_intervals, max_passes; ///< max_passes 0 = 2k + 1
    int newton_max_iters;
    double newton_tol;
    double eps_v;      ///< m/s
    double v_approach; ///< m/s, max(eps_v, the problem's v_tol): a contact approaching no faster
                       ///< observes, and the impact ends when all do (plus.c, plus_rounds.c)
    double eps_pi;     ///< relative
    double rcond;
    int all_participate, energy_cap, hold_plastic;
    int settle_rounds; ///< deviation 11; 0 = off
    long max_solves;   ///< deviation 12; 0 = PLUS_AUTO_SOLVES(k)
    int sparse_min;    ///< unknowns from which the sparse solve is tried; 0 = never
    double max_work;   ///< deviation 12, work units; 0 = PLUS_AUTO_WORK
    int slip_root;     ///< deviation 3: PLUS_SLIP_ROOT_NEWTON or PLUS_SLIP_ROOT_MIN_NORM
    int reset_scope;   ///< deviation 9: PLUS_RESET_BESIDE or PLUS_RESET_GROUP
} plus_cfg;

/// Values of slip_root: the root the search takes where Newton converged with an angle off.
enum {
    PLUS_SLIP_ROOT_NEWTON = 0,  ///< the nearest Newton's directions (Newton's root, refined)
    PLUS_SLIP_ROOT_MIN_NORM = 1 ///< of all roots the scan finds, the min-norm one
};

/// Values of reset_scope: which impending contacts roll again after a dropped normal.
enum {
    PLUS_RESET_GROUP = 0, ///< every one of the group the active set turned impending
    PLUS_RESET_BESIDE = 1 ///< those that share a body with a dropped contact (W couples them)
};

/// Normal row of a contact in one interval candidate.
enum {
    PLUS_NORMAL_OFF = 0,  ///< observing, or dropped by the active set: pi = 0
    PLUS_NORMAL_ON = 1,   ///< compressing: A_z pi = -v_n; expanding: pi_n = pi_exp
    PLUS_NORMAL_SLIDE = 2 ///< Painleve sliding (deviation 7): pi_n = p_slide, slip stops first
};

/// One impact event: problem, event state, scratch of the current interval, output.
typedef struct plus_ctx {
    const ipx_problem *p;
    int k, n; /* contacts, rows = 3k */
    plus_cfg cfg;

    /* event state (Algorithm 2) */
    double *v;           /* n, m/s: current contact velocities v0 + W pi_total */
    double *pi_total;    /* n, N*s: accumulated impulse (the result's impulse array) */
    double *pi_acc;      /* k, N*s: expansion impulse earned in this round */
    double *pi_exp;      /* k, N*s: expansion impulse still to deliver in this round */
    double *e;           /* k: COR of each compressing contact, fixed per round */
    double *v_round;     /* n, m/s: v at the start of the round (energy cap) */
    double *pi_round;    /* n, N*s: pi_total at the start of the round */
    ipx_plus_class *cls; /* k: class of each contact in this round */
    int *inert;          /* k: 1 if W's normal row is zero (always observing) */
    int *held;           /* k: 1 if held closed this round (deviation 10) */
    int *plastic;        /* k: 1 if settled (deviation 11): held closed until it separates */
    int *act_prev;       /* k: 1 if compressing or expanding in the previous round */
    int release;         /* 1: no contact is held any more (a hold stalled a round) */
    int settle;          /* rounds of an unchanged closed ping-pong so far (deviation 11) */
    double settle_dT;    /* J, kinetic-energy change when that run of rounds began */
    int round, fallback; /* fallback: 0 no, 1 inelastic, 2 the plastic finish */
    long max_solves;     /* cost bound of this impact (deviation 12) */
    long solves;         /* min-norm solves of this impact so far */
    double max_work;     /* work units this impact may spend on solves (deviation 12) */
    double work;         /* work units spent so far (plus_system.c, charge) */
    int out_of_budget;   /* 1 once a solve was refused: the plastic finish ends the impact */

    /* interval state (Algorithm 1) */
    ipx_plus_slip *slip;  /* k */
    int *normal_on;       /* k: PLUS_NORMAL_* (OFF: fixed at 0; ON: C_act or E row) */
    double *p_slide;      /* k, N*s: prescribed normal impulse of a PLUS_NORMAL_SLIDE contact */
    int mu_finite;        /* 1: the infinite mu take PLUS_MU_FINITE for the rest of the impact
                             (deviation 15: set once, by plus_interval.c's prune) */
    double *s;            /* 2k: slip direction: start (sliding), guess / end (impending) */
    int *turn;            /* k: last direction-limited turn: sense +-1, +-2 if reversed, 0 none */
    int m;                /* unknowns of the current candidate */
    int *col;             /* n: global row of unknown j */
    int *pos;             /* n: unknown index of a global row, -1 if fixed at 0 */
    double *B;            /* n*n: rows B pi = w of the candidate, m x m column-major */
    double *rhs;          /* n: w */
    double *fac;          /* (n+k)^2: copy factorised by the solver (Newton: Jacobian) */
    double *x;            /* n+k: solution (unknowns; Newton: then the slip angles) */
    double *pi;           /* n, N*s: interval impulse pi (all rows) */
    double *wpi;          /* n, m/s: W pi */
    double *g, *dx, *xs;  /* n+k each: Newton residual, step, saved iterate */
    int *lsq_iwork;       /* n+k: lsq's pivots */
    int *imp, ni;         /* k: slot of each impending contact in a Newton solve (-1 none) */
    int *slip_failed;     /* k: 1 if no direction has friction against the end slip */
    int *chatter;         /* k: 1 made impending against chatter in this interval; -1 that
                                failed in this round (not tried again); 0 otherwise */
    int *from_rolling;    /* k: 1 a rolling contact the active set made impending */
    int *group;           /* k: coupled groups of a candidate (plus_interval.c find_groups) */
    int *focus_of;        /* k: the interval's group of each contact (its root), -1 if its
                                normal row is off at the interval's start */
    int focus;            /* the group being solved (plus_solving), -1 none */
    int *member, members; /* k: the contacts of the group being solved (all if focus < 0) */
    int passes;           /* active-set passes of the current interval */
    int *dropped, n_dropped; /* k: the contacts whose normal this prune dropped */
    double *group_worst;     /* k: at a group's root, its largest violation (Table 1) */
    void *sparse;            /* SuiteSparse state of the sparse solves (sparse_lsq.h) */
    int sparse_on;           /* 1 once that state was started in this impact */
    int sparse_answered, sparse_declined; /* this impact's systems the sparse path answered and
                                             declined (sparse_solve: offered while it pays) */
    int cache_has_b;     /* 1 while the min-norm factor cache lsq holds B as its last
                                system, up to the impending directions: a probe then tells the
                                cache which columns it changed (ipx_min_norm_solve_columns) */
    int probing;         /* 1 in the direction search's probes: each system differs from the
                                last in one column, which the dense path's cache (min_norm.h)
                                updates cheaply: they skip the sparse path (bench_plus_scale,
                                bins of 128 contacts: 6.5 s per impact against 10 s) */
    double *sparse_x;    /* n+k: a sparse solve's answer */
    double *search_hist; /* plus_search_doubles(k): the direction search's acceleration
                                and Newton on the angles */
    double *newton_work; /* ipx_plus_lsq_work_doubles(n+k): Newton's own factorisations and
                                the search's acceleration and Newton on the angles
                                (plus_accel.c, plus_angles.c), apart from lsq's
                                factor cache */
    int *newton_iwork;   /* n+k */
    double v_scale;      /* m/s, velocity scale of the current interval (Newton tolerance) */
    double mass_unit;    /* kg, ipx_mass_unit(W): W's rows enter B times this (units.h) */
    double slip_floor;   /* m/s, slips at or below it have no direction (PLUS_SLIP_FLOOR) */

    /* the factor cache of systems of up to n+k unknowns, begun empty with each impact */
    ipx_min_norm_cache lsq;

    /* output */
    ipx_result *r;
    ipx_plus_observer observer;
    void *user;
} plus_ctx;

/// A slip below this fraction of the impact's velocity scale (v_transition and the fastest
/// pre-impact contact velocity) is zero: it has no direction for friction to oppose. Ten times
/// below the invariant checker's default velocity tolerance (1e-9), so every slip the checker
/// can see has its direction enforced.
#define PLUS_SLIP_FLOOR 1e-10

/// Default cost bound (deviation 12): min-norm solves per impact. Stacks and chains of up to
/// 64 contacts need at most a few hundred (bench_plus, test_plus_stacks); the bound is there for
/// the impacts whose active sets or impending-slip searches run away.
#define PLUS_AUTO_SOLVES(k) (2000L + 100L * (long)(k))

/// Default work bound (deviation 12), in work units (multiply-adds up to a constant factor): a
/// min-norm solve of m unknowns is charged m^3 where it factorises (dense, a new base factor,
/// Newton's own system), SPQR's flop bound where the sparse path tried it, and m^2 per column
/// that may change where the factor cache answers (plus_system.c, charge_cached). The solve
/// count alone bounds nothing when the solves are large: ODE's crash demo, a wall of boxes hit
/// by a car (694 contacts, systems of about 2 000 unknowns), had 71 400 solves to spend and had
/// not ended after minutes. With 2e10 that impact ends in 4.8 s (one core), a churning bin of
/// 300 contacts (tests/support/pile_gen.h) still ends by the paper's rounds (20 656 solves, 3.8
/// s), and a problem of up to 64 contacts (systems of at most 256 unknowns, 1.7e7 units a
/// factorisation) reaches it only after more than 1 100 factorisations of its largest system.
#define PLUS_AUTO_WORK 2e10

/// Default of sparse_min: systems of this many unknowns and more, with at most
/// PLUS_SPARSE_DENSITY of their entries non-zero, try the sparse solve (sparse_lsq.h) before
/// the dense one. bench_plus_scale, per
/// solve: 106 unknowns (random piles) 89 us sparse against 185 us dense; 130 (stacks of boxes)
/// 136 against 112; 250 (stacks) 450 against 1 490.
#ifndef PLUS_SPARSE_MIN
#define PLUS_SPARSE_MIN 128
#endif
#define PLUS_SPARSE_DENSITY 0.25

/// Deviation 15: the coefficient the contacts whose mu is infinite take once rolling would pull
/// one's normal, so that the paper's sliding and impending states answer to within about 1 / it
/// of their limit (test_plus_infinite_mu.c); 1000, as the ODE adapter's mu_infinity [S].
#define PLUS_MU_FINITE 1e3

/// 1 if contact k is in the group being solved (plus_interval.c, deviation 13; all if none).
static inline int plus_in_focus(const plus_ctx *c, int k)
{
    return c->focus < 0 || c->focus_of[k] == c->focus;
}

/// 1 if contact k has unknowns in the candidate being solved: in focus, its normal row on.
static inline int plus_solving(const plus_ctx *c, int k)
{
    return c->normal_on[k] != PLUS_NORMAL_OFF && plus_in_focus(c, k);
}

/* Contact k's mu is infinite (ipx_contact.mu: never slides). The limit of (2.9a)-(2.11) as mu
   grows: a sliding contact's friction stops its slip within a normal impulse that shrinks as
   1 / mu (in a Painleve configuration too, deviation 7), and its cone holds any rolling impulse
   with pi_n >= 0. So it rolls (2.7) from the start of every interval and the cone never rejects
   it. Where rolling would pull its normal, the limit is a slide or an impending slip with a
   normal impulse of order 1 / mu: every infinite mu of the impact then takes PLUS_MU_FINITE
   (deviation 15, docs/models/plus.md §5.9). */
static inline int plus_never_slides(const plus_ctx *c, int k)
{
    return !c->mu_finite && isinf(c->p->contact[k].mu);
}

/* Contact k's friction coefficient as the model takes it now (deviation 15). */
static inline double plus_mu(const plus_ctx *c, int k)
{
    const double mu = c->p->contact[k].mu;
    return c->mu_finite && isinf(mu) ? PLUS_MU_FINITE : mu;
}

/* Contact k is solved now with its friction against an end slip still to be found. */
static inline int plus_solving_impending(const plus_ctx *c, int k)
{
    return plus_solving(c, k) && c->slip[k] == IPX_PLUS_IMPENDING;
}

#endif
