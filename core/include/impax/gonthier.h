/// impax core: Gonthier, McPhee, Lange and Piedboeuf's regularized contact (docs/models/gonthier.md;
/// "Eq. n" are the paper's). The compliant reference the impact models are judged against.
///
/// Normal force (Eqs. 4, 5, 10, 11): f_n = max(0, k delta^p (1 + a delta_dot)) for a depth
/// delta > 0 (m), delta_dot = -v_n, with a = d(e) / (e v_imp) latched at the onset of contact
/// (v_imp = delta_dot then, floored at v_floor) and d(e) the root in (0, 1) of
/// (1 + d/e)/(1 - d) = exp(d (1 + 1/e)): an isolated impact then leaves at exactly e v_imp, for
/// any v_imp, mass, k and p. Every term carries delta^p, so the force is continuous at the start
/// and the end of contact; the clamp at 0 forbids pulling (the paper's d <= 1 argument holds
/// only for an isolated impact).
///
/// Friction (Eqs. 15-26), seven parameters (mu_s, mu_c, sigma0, sigma1, sigma2, v_s, tau_dw)
/// plus the tolerance v_eps: a bristle z (m) in the tangent plane, the Stribeck weight
/// s = exp(-|v_t|^2 / v_s^2) blending stick (a spring-damper sigma0, sigma1 on z) and slip
/// (Coulomb mu_c f_n), a dwell state s_dw that raises the breakaway limit from mu_c f_n to
/// mu_s f_n with time in stick (tau_dw) and drops it at slip (tau_br = sigma1 / sigma0), and
/// the saturation of the bristle force at that limit. The force on body 1 is
/// f_t = -(sat(f_br, f_max) + sigma2 v_t).
///
/// Two ways to use it:
///  - the registry model "gonthier" (ipx_solve): one collision of a contact-space problem
///    integrated from first touch (depth 0) to separation with the law above, W held constant
///    (the bodies barely move during it); the result is the collision's impulse, comparable
///    with the impulsive models' ("the compliant reference").
///  - ipx_gonthier_advance: a host (the ODE adapter) that knows each contact's depth advances
///    its contacts over one host step in fixed sub-steps and applies the impulse; the
///    per-contact states (ipx_gonthier_state) live in the host between steps.
/// The contact-space integration is semi-implicit Euler: v += W f h, then delta -= v_n h, with
/// the normal dampers a k delta^p delta_dot of all touching contacts taken at the rates the
/// step's forces leave (one small SPD solve per step): the same forces as h -> 0, stable at any
/// h although near-plastic e makes the dampers very stiff. The friction's dampers and Coulomb
/// part are likewise taken at the slip the step leaves (ipx_gonthier_friction): they stop a
/// slip at most, never reverse it, for any mu, also when the normal force grows by a large
/// factor within a step (a contact that its own friction drives into the surface); the
/// bristle stores no energy the slip did not put in. The sub-step is bounded for accuracy by
/// each contact's normal spring and bristle spring on its own inverse masses only
/// (max_substeps guards it), not by mu, the dampers or the coupling of the contacts.
#ifndef IMPAX_GONTHIER_H
#define IMPAX_GONTHIER_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "gonthier" model (see its table for ranges and docs).
enum {
    IPX_GONTHIER_K = 0,             ///< N/m^p, stiffness (paper: 1e6 balls, 1e9 pendulum)
    IPX_GONTHIER_P,                 ///< exponent (3/2: Hertz)
    IPX_GONTHIER_E,                 ///< COR; < 0: each contact's e
    IPX_GONTHIER_E_MIN,             ///< smallest COR used (e = 0 would divide by zero)
    IPX_GONTHIER_V_FLOOR,           ///< m/s, floor of the latched impact speed
    IPX_GONTHIER_PRESET,            ///< 0: the friction values below; 1-3: the paper's Tables I-III
    IPX_GONTHIER_MU_S,              ///< stiction coefficient; < 0: each contact's mu
    IPX_GONTHIER_MU_C,              ///< Coulomb coefficient; < 0: each contact's mu
    IPX_GONTHIER_SIGMA0,            ///< N/m, bristle stiffness
    IPX_GONTHIER_SIGMA1,            ///< N s/m, bristle damping
    IPX_GONTHIER_SIGMA2,            ///< N s/m, viscous friction
    IPX_GONTHIER_V_S,               ///< m/s, Stribeck velocity
    IPX_GONTHIER_TAU_DW,            ///< s, dwell time constant
    IPX_GONTHIER_V_EPS,             ///< m/s, tolerance of the slip direction
    IPX_GONTHIER_S_DW_ONSET,        ///< dwell state of a new contact (1: starts fully stuck)
    IPX_GONTHIER_SUBSTEP,           ///< s, largest integration step
    IPX_GONTHIER_STEPS_PER_CONTACT, ///< ipx_solve: steps per elastic contact duration
    IPX_GONTHIER_MATCH_DISTANCE,    ///< m, hosts: how far a contact may move between steps
    IPX_GONTHIER_MAX_STEPS,         ///< guard: steps of one ipx_solve collision
    IPX_GONTHIER_MAX_SUBSTEPS,      ///< guard: sub-steps of one host step (ipx_gonthier_step)
    IPX_GONTHIER_N_PARAMS
};

/// counts.limits_hit bits of the "gonthier" model.
enum {
    IPX_GONTHIER_HIT_STEPS = 1u << 0, ///< max_steps (ipx_solve) or max_substeps (a host step)
                                      ///< reached: the solve failed
    IPX_GONTHIER_HIT_REST = 1u << 1   ///< ipx_solve: the bodies came to rest still touching
                                      ///< (jammed, e.g. a wedge that friction holds): the
                                      ///< collision ended there, its springs' energy held
};

/// The paper's friction sets (IPX_GONTHIER_PRESET): Table I (Bowden-Leben stick-slip), Table II
/// (balls: the paper uses k 1e6, e 0.5 with it), Table III (double pendulum: k 1e9, e 0.9).
enum {
    IPX_GONTHIER_CUSTOM = 0,
    IPX_GONTHIER_BOWDEN_LEBEN,
    IPX_GONTHIER_BALLS,
    IPX_GONTHIER_PENDULUM
};

extern const ipx_model ipx_model_gonthier;

/// The law of one contact: the parameters resolved against the contact's own mu and e.
typedef struct ipx_gonthier_law {
    double k, p;                   ///< N/m^p, exponent
    double e, v_floor;             ///< COR (>= e_min), m/s
    double mu_s, mu_c;             ///< stiction and Coulomb coefficients
    double sigma0, sigma1, sigma2; ///< N/m, N s/m, N s/m
    double v_s, tau_dw, v_eps;     ///< m/s, s, m/s
    double s_dw_onset;             ///< dwell state of a new contact
} ipx_gonthier_law;

/// Resolves a "gonthier" parameter vector for contact c (its mu and e where asked).
void ipx_gonthier_law_for(const double *param, const ipx_contact *c, ipx_gonthier_law *law);

/// State of one contact between host steps.
typedef struct ipx_gonthier_state {
    double z[2];  ///< m, bristle deflection along the contact's t1, t2
    double s_dw;  ///< dwell state in [0, 1]
    double a;     ///< s/m, latched damping factor d(e) / (e v_imp)
    double v_imp; ///< m/s, latched impact speed (0: not in contact yet)
} ipx_gonthier_state;

/// A state for a contact not yet touching.
ipx_gonthier_state ipx_gonthier_fresh(const ipx_gonthier_law *law);

/// d(e) of Eq. 10 for e in (0, 1] (0 at e = 1); the small-e form below e = 0.1 keeps 1 - d.
double ipx_gonthier_damping_factor(double e);

/// Normal force (N, >= 0) at depth delta (m) and rate delta_dot (m/s); latches the impact speed
/// at the first call with delta > 0.
double ipx_gonthier_normal(ipx_gonthier_state *s, const ipx_gonthier_law *law, double delta,
                           double delta_dot);

/// Friction force on body 1 (N, along t1, t2) for normal force f_n and tangential velocity v_t
/// (m/s, body 1 relative to body 2) over a step of h (s); advances z and s_dw. w_t (1/kg) is
/// the contact's tangential inverse mass (an upper bound when contacts are coupled, e.g. the
/// row sums of |W|); 0 for an immovable body or a slip the host imposes. The dampers (stick
/// sigma1, viscous sigma2), the bristle's stretch over the step and the Coulomb force are taken
/// at the slip the step leaves (backward Euler), so that together they stop a slip at most,
/// never reverse it; the bristle relaxes by backward Euler and stores no more than the slip
/// stretched it (see gonthier_law.c for the derivation). Stable for any mu, bristle constants
/// and h (the bristle's spring by symplectic Euler's rule, its force at the end stretch).
void ipx_gonthier_friction(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                           const double v_t[2], double h, double w_t, double f_t[2]);

/// ipx_gonthier_friction under a load: a_t (m/s^2, t1 and t2, or NULL: none) is the rate at
/// which the other forces of the step (the host's, the normal forces through the coupling of
/// W) change the slip. The Coulomb force may then stop the slip the load carries on, not only
/// the slip at the step's start: without a_t a slip slower than h w_t |load| is stopped each
/// step and started again by the load, so a load that static friction holds creeps at
/// h w_t |load| for good (faster than v_s, it never sticks again).
void ipx_gonthier_friction_loaded(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                                  const double v_t[2], const double a_t[2], double h, double w_t,
                                  double f_t[2]);

/// Contacts of one island advanced over a host step (see ipx_gonthier_advance).
typedef struct ipx_gonthier_island {
    int k;                       ///< contacts
    const double *W;             ///< 3k x 3k column-major, [t1, t2, n] per contact (1/kg)
    double *v;                   ///< 3k, m/s: in, the velocities; out, after the step
    double *delta;               ///< k, m: depths (> 0 penetrating), advanced
    ipx_gonthier_state *state;   ///< k, advanced
    const ipx_gonthier_law *law; ///< k
    const double *accel;         ///< 3k, m/s^2, or NULL (none): the rate at which the host's
                                 ///< other forces (gravity, applied forces) change v, held
                                 ///< over the step: a resting contact then carries the load
    double *impulse;             ///< 3k, N s: the step's contact impulse (accumulated)
    double *impulse_time;        ///< 3k, N s^2, or NULL: sum over steps of impulse-so-far * h
    double *work;                ///< ipx_gonthier_advance_work_doubles(k) doubles of scratch
    double *energy_error;        ///< J, or NULL: accumulates, per step and contact, |change
                                 ///< of k delta^(p+1)/(p+1) + work of the spring's force|, the
                                 ///< normal springs' energy defect of the implicit midpoint
                                 ///< rule (0 for p = 1 where the rate is the midpoint's,
                                 ///< theta = 1/2)
    ipx_counts *counts;          ///< or NULL: lcp_solves and pivots accumulate the sub-steps'
                                 ///< normal-force problems solved by pivoting (below 128 rows,
                                 ///< or where the sweeps' answer fails its check)
    double w_tol; ///< m/s, or 0: a sub-step's normal-force problem solved by sweeps (from 128
                  ///< rows) may end with each row's residual up to this, a velocity error of
                  ///< the sub-step; ipx_gonthier_step sets the host's share, 1e-3 of the
                  ///< problem's v_tol over the step's sub-steps (docs/models/gonthier.md §5)
} ipx_gonthier_island;

/// Energy (J) the elastic elements of one contact hold: the normal spring k delta^(p+1)/(p+1)
/// at depth delta (m; 0 when not touching) and the bristle sigma0 |z|^2 / 2.
double ipx_gonthier_stored_energy(const ipx_gonthier_law *law, const ipx_gonthier_state *s,
                                  double delta);

/// Doubles of scratch ipx_gonthier_advance needs for k contacts.
size_t ipx_gonthier_advance_work_doubles(int k);

/// n steps of h (s): f from (delta, v, state), the normal springs by the implicit midpoint
/// rule; impulse += f h; v += (W f + accel) h; delta -= ((1 - theta) v_n + theta v_n+) h,
/// theta = 1/2 unless a stiff damper needs a later rate;
/// impulse_time += (impulse + impulse+) h / 2; energy_error as documented above.
void ipx_gonthier_advance(ipx_gonthier_island *is, double h, long n);

/// A host step of h (s) for the contacts of problem p (W, v, each contact's mu and e) at depths
/// delta (k, m; > 0 penetrating) with states carried from the last step: h is cut into equal
/// sub-steps no longer than the "substep" parameter. Advances delta and state, and fills r
/// like ipx_solve (the step's contact impulse, v_post, delta_ke; counts.steps = sub-steps), with
/// delta_stored the change of the contacts' stored energy (ipx_gonthier_stored_energy) over the
/// step and energy_error the normal springs' integration defect (see ipx_gonthier_island), so
/// that ipx_check's energy test judges the step: the bodies may gain what the springs gave back.
/// impulse_mean (3k, or NULL): the impulse averaged over the step, (1/h) int_0^h pi(t) dt. A
/// host whose integrator moves positions by h times the end-of-step velocity (ODE) applies that
/// one before its step and the rest (impulse - impulse_mean) after it: its positions then
/// follow the contact's trajectory (a contact lasting a few host steps keeps its COR).
/// accel (3k, m/s^2, or NULL): the contact-space acceleration of the host's other forces over
/// the step (see ipx_gonthier_island), integrated with the contact forces in every sub-step, so
/// that a contact under a steady load settles at k delta^p = load instead of being knocked off
/// by the whole step's gravity at once. The result's impulse, v_post and delta_ke are the
/// contact impulse's alone (v_post = v + W impulse); with accel the contact forces also work
/// accel h . (impulse - h impulse_mean) against the host's drift, which ipx_check's energy test
/// (a pure contact problem) does not see: it judges steps without accel.
/// Checks the problem as ipx_solve does, and h > 0, finite depths and accel; IPX_ERR_INPUT
/// otherwise (nothing changed). ws: sized by ipx_workspace_create for this model.
ipx_status ipx_gonthier_step(const ipx_params *params, const ipx_problem *p, double *delta,
                             ipx_gonthier_state *state, double h, const double *accel,
                             ipx_workspace *ws, ipx_result *r, double *impulse_mean);

#ifdef __cplusplus
}
#endif
#endif
