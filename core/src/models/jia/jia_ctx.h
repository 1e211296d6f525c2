/// Inside the core: one impact of the "jia" model in progress (its constants, state and run)
/// and the functions the model's files share (see impax/jia.h).
///
/// Independent variable: scaled time tau (sqrt(kg)), dtau = sqrt(2 k0) dt, so that
///   dI_n/dtau = D,   D = F_n / sqrt(2 k0) = sqrt(E_n) / c   (17), c = 1 or e (67),
/// and the paper's I_n-derivatives (') become tau-derivatives on multiplication by D:
///   dI_t/dtau = -kappa G               (64) with E_u + E_w = kappa |G|^2 / 2 (66)
///   dD/dtau   = -v_n / (2 c^2)          (18): E_n' = -v_n, E_n = c^2 D^2
///   dG/dtau   = rate of the spring      (67): stick v_t (38)/(39), slip (48)/(49)
///   dE_perp/dtau = mu_s D |v_s|         (36)
/// with kappa = 1/(2 eta0^2) and G = sqrt(2 k0) (u, w) (29) as a 2-vector in [t1, t2].
/// Coulomb's test (51) reads |G| < rho D with rho = 2 eta0^2 mu in both phases (4.5). In slip
/// G = rho_s D g with |g| = 1 (46); rho_s = rho (text), rho e in restitution (compat).
///
/// Files, each calling only those below it: jia.c (parameters, the cases without integration,
/// the choice of integrator, registry entry), jia_path.c (RK4 in tau, the default) and
/// jia_paper.c (the paper's Algorithm 1), jia_equations.c (the equations, one RK4 step, the
/// events) and jia_ctx.c (a run's events and guards).
#ifndef IMPAX_JIA_CTX_H
#define IMPAX_JIA_CTX_H

#include "impax/jia.h"

/// Components of the integrated state vector.
enum {
    IPX_JIA_Y_IT1 = 0, ///< N*s, tangential impulse along t1
    IPX_JIA_Y_IT2,     ///< N*s, tangential impulse along t2
    IPX_JIA_Y_IN,      ///< N*s, normal impulse
    IPX_JIA_Y_D,       ///< sqrt(J), D = sqrt(E_n)/c
    IPX_JIA_Y_G1,      ///< sqrt(J), G along t1
    IPX_JIA_Y_G2,      ///< sqrt(J), G along t2
    IPX_JIA_Y_LOSS,    ///< J, friction loss E_perp
    IPX_JIA_NY
};

/// Which event function: the phase's (end of compression / of restitution) or the mode's.
typedef enum ipx_jia_watch {
    IPX_JIA_WATCH_PHASE = 0,
    IPX_JIA_WATCH_MODE,
    IPX_JIA_N_WATCH
} ipx_jia_watch;

/// Constants of one impact.
typedef struct ipx_jia_consts {
    double W[9];    ///< 1/kg, K of (63), column-major, rows [t1, t2, n]
    double v0[3];   ///< m/s, initial contact velocity
    double mu;      ///< Coulomb coefficient, > 0
    double e;       ///< energetic restitution in effect, [0, 1]
    double eta0;    ///< sqrt(k0/k_perp)
    double kappa;   ///< 1/(2 eta0^2)
    double rho;     ///< 2 eta0^2 mu: stick while |G| < rho D (51)
    int compat;     ///< 1: slip circle of the published numbers in restitution
    double h[2][2]; ///< sqrt(kg), RK4 step in tau per phase and mode
} ipx_jia_consts;

/// Integration state. Modes and phases change only at events.
typedef struct ipx_jia_state {
    double y[IPX_JIA_NY];
    double g[2];        ///< unit direction of G while slipping
    double normal_loss; ///< J, (1 - e^2) E_n(I_c) after compression
    double compat_loss; ///< J, spring energy dropped by the compat circle
    ipx_jia_mode mode;
    ipx_jia_phase phase;
} ipx_jia_state;

/// One impact in progress: constants, guards, and where events, points and counts go.
typedef struct ipx_jia_run {
    ipx_jia_consts k;
    ipx_jia_observer observer; ///< NULL: none
    void *user;
    ipx_jia_report *rep; ///< never NULL
    ipx_result *r;       ///< impulse, counts and message
    int max_steps, max_switches, switches;
} ipx_jia_run;

/* jia_ctx.c */
/// Appends an event at normal impulse I_n (N*s) to the report.
void ipx_jia_record(ipx_jia_run *u, ipx_jia_event_kind kind, double I_n);

/// Sets limits_hit bit and the message; returns IPX_ERR_NOT_CONVERGED.
ipx_status ipx_jia_limit_hit(ipx_jia_run *u, unsigned bit, const char *what, int value, double I_n);

/* jia_path.c */
/// RK4 in scaled time with located events (the default integrator), `steps` steps per quarter
/// period of the fastest spring oscillation. Fills u->r->impulse and the report.
ipx_status ipx_jia_tau_path(ipx_jia_run *u, int steps);

/* jia_paper.c */
/// The paper's Algorithm 1 as the loop of docs/models/jia.md §3.7: forward Euler in I_n with the fixed step
/// delta (N*s) from the singular start (73) at I_n = delta, slip-circle rescaling (P1), stick
/// hysteresis (P2) and an interpolated last step (P5). Fills u->r->impulse and the report.
ipx_status ipx_jia_paper_path(ipx_jia_run *u, double delta);

/* jia_equations.c */
/// v = v0 + K I (63), m/s.
void ipx_jia_velocity(const ipx_jia_consts *k, const double y[IPX_JIA_NY], double v[3]);

/// Slip-circle radius factor rho_s: |G| = rho_s D in slip.
double ipx_jia_slip_radius(const ipx_jia_consts *k, ipx_jia_phase phase);

/// c^2: 1 in compression, e^2 in restitution (67).
double ipx_jia_c2(const ipx_jia_consts *k, ipx_jia_phase phase);

/// One step of length h (RK4; in slip wrapped in half steps of the slip-direction update).
void ipx_jia_advance(const ipx_jia_consts *k, const ipx_jia_state *in, double h,
                     ipx_jia_state *out);

/// Event function: > 0 once the event has happened. Phase: v_n in compression, -D in
/// restitution. Mode: |G|^2 - (rho D)^2 in stick, -|v_s| along g in slip.
double ipx_jia_event_value(const ipx_jia_consts *k, const ipx_jia_state *s, ipx_jia_watch w);

/// Locates where event w happens inside a step of length h from s, given its values f0 < 0 at
/// s and f1 > 0 after the step. On entry *out is the state after the whole step; on return it
/// is the state at the event (value >= 0). Returns the step length reaching it
/// and adds the RK4 steps spent to *steps.
double ipx_jia_locate(const ipx_jia_consts *k, const ipx_jia_state *s, ipx_jia_watch w, double h,
                      double f0, double f1, ipx_jia_state *out, int *steps);

/// The observer's view of a state; start = 1 at tau = 0 (ratio from its limit (61)).
void ipx_jia_point_of(const ipx_jia_consts *k, const ipx_jia_state *s, int start,
                      ipx_jia_point *pt);

#endif
