/// impax core: Jia's single-contact 3-D impact with tangential compliance (Y.-B. Jia,
/// "Three-Dimensional Impact: Energy-Based Modeling of Tangential Compliance", IJRR; spec
/// docs/models/jia.md). Equation numbers (n) are the paper's.
///
/// Model. A massless particle joins the two bodies through a normal spring (stiffness k0, k0/e^2
/// after compression: energetic restitution e, Stronge's bi-stiffness) and two tangential springs
/// (stiffness k_perp); only eta0^2 = k0/k_perp matters (parameter `eta2`). The particle sticks
/// while the tangential spring force is inside the Coulomb cone, else it slips with friction
/// mu F_n against its sliding velocity (32)-(36). The impact ends when the normal spring has
/// released its energy in restitution. Stick is lossless, slip dissipates, the normal spring
/// loses (1 - e^2) of its energy at the end of compression.
///
/// Problem mapping. For k = 1, W is the paper's collision matrix K of (63) (v = v0 + K I) in the
/// contact rows [t1, t2, n], the impulse is the paper's I (on the body the normal points into),
/// mu is the contact's mu and e its `e`, used as the *energetic* coefficient. Nothing else is
/// needed: the paper's frame u, w (12) is not formed, the tangential state is kept as a 2-vector
/// in [t1, t2], so the result does not depend on the choice of tangents. Approach speeds up to
/// the contact's v_capture do not bounce (e = 0), as in ODE's bounce_vel. mu = 0 takes the
/// frictionless closed form I = (1 + e)(-v_n)/W_nn along n.
///
/// Integration (docs/models/jia.md §3.6/3.7). Default: the spec's "higher accuracy" variant. The independent
/// variable is the scaled time tau with dI_n = D dtau, where D = sqrt(E_n)/c is the normal
/// force over sqrt(2 k0) (c = 1 in compression, e in restitution (67)). In tau the system
/// (64)-(69) is regular: the singular start of 3.5 (G ~ sqrt(I_n), eq. 73) becomes G ~ tau,
/// the spec's I_n = s^2 substitution carried through the whole impact. Fixed-step RK4 per
/// phase (`steps` per quarter period of the fastest spring oscillation, so the step count does
/// not depend on the impact speed and Theorem 3's scaling holds exactly); events (stick->slip
/// (51)/(52), slip->stick (53), end of compression v_n = 0, end E_n = 0) located inside the
/// step by regula falsi; in slip the exact exponential update of the slip direction, stiff as
/// E_n -> 0 (docs/models/jia.md §P4), by Strang splitting (second order in 3-D slip, exact in planar slip).
/// `delta` > 0 selects the paper's Algorithm 1 instead, as the loop of docs/models/jia.md §3.7: forward Euler
/// in I_n with that fixed step (N*s). It is O(sqrt(delta)) where a stick starts at I_n = 0,
/// and is kept because the published Table 1 carries exactly that error (compat=1,
/// delta=5e-5 reproduces it; the converged model differs by up to 5e-4 there).
///
/// Variants (`compat`). 0 (default): the equations of the text, which keep Coulomb's law and
/// close the energy balance. 1: the variant that reproduces the paper's published numbers
/// (docs/models/jia.md §5.0, P9): in restitution slip the slip circle is E_u + E_w = mu^2 eta0^2 E_n instead of
/// mu^2 eta^2 E_n (friction mu e F_n); the stick->slip threshold is unchanged, the spring
/// energy above the smaller circle is lost when slip starts (reported as compat_loss), and the
/// slip rates keep (48)'s denominator mu^2 eta^2 E_n (the slip direction turns e^2 slower).

/// Multi-contact (docs/models/jia.md §4). The paper defines no multi-contact method: its tangential model is a
/// per-contact module fed with normal impulses by a separate simultaneous-impact model (Jia,
/// Mason & Erdmann 2011), which is neither in this paper nor in impax. The spec's suggested
/// energy-ratio coupling dI_n^j/dI_n^p = sqrt(k_j E_n^j / (k_p E_n^p)) is not in the paper,
/// needs normal stiffness ratios between contacts that an ipx_problem does not carry, and is
/// not well posed for a contact that starts with E_n^j = 0 (E^j = 0 and E^j ~ (dI_n^p)^2 both
/// solve it; a step-wise integration keeps E^j = 0 and lets that contact penetrate). So this
/// model solves k = 1 only and returns IPX_ERR_INPUT "jia handles one contact (k = 2 given)"
/// otherwise; hosts should hand such islands to another model.
///
/// Counts: counts.steps = integration steps taken (event location included). counts.limits_hit
/// bits IPX_JIA_LIMIT_STEPS / IPX_JIA_LIMIT_SWITCHES; either one fails the solve with
/// IPX_ERR_NOT_CONVERGED. Many switches are legitimate when friction can re-compress the
/// contact (mu |W_nt| > W_nn) with a small e: max_switches is a guard, not a model limit.
#ifndef IMPAX_JIA_H
#define IMPAX_JIA_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "jia" model (see its table for ranges and docs).
enum {
    IPX_JIA_ETA2 = 0,     ///< eta0^2 = k0/k_perp, dimensionless; 17/14 (Poisson ratio 0.3)
    IPX_JIA_COMPAT,       ///< flag: 1 = variant of the published numbers, 0 = text model
    IPX_JIA_STEPS,        ///< RK4 steps per quarter period of the fastest spring oscillation
    IPX_JIA_DELTA,        ///< N*s; > 0: the paper's Algorithm 1 with this step instead of RK4
    IPX_JIA_MAX_STEPS,    ///< guard on integration steps per impact
    IPX_JIA_MAX_SWITCHES, ///< guard on contact-mode switches per impact
    IPX_JIA_N_PARAMS
};

/// counts.limits_hit bits of the "jia" model.
#define IPX_JIA_LIMIT_STEPS 1u    ///< max_steps reached before the end of restitution
#define IPX_JIA_LIMIT_SWITCHES 2u ///< more than max_switches stick/slip switches

/// Contact mode (4.3, 4.4) and impact phase (2).
typedef enum ipx_jia_mode { IPX_JIA_STICK = 0, IPX_JIA_SLIP } ipx_jia_mode;
typedef enum ipx_jia_phase { IPX_JIA_COMPRESSION = 0, IPX_JIA_RESTITUTION } ipx_jia_phase;

/// Events along the impulse curve (Algorithm 1, lines 13-24).
typedef enum ipx_jia_event_kind {
    IPX_JIA_SLIP_TO_STICK = 0,
    IPX_JIA_STICK_TO_SLIP,
    IPX_JIA_COMPRESSION_END,
    IPX_JIA_IMPACT_END
} ipx_jia_event_kind;

/// One point of the impulse curve, as seen by an observer. Energies in J, impulses in N*s.
typedef struct ipx_jia_point {
    double impulse[3];       ///< N*s, accumulated impulse I, rows [t1, t2, n]
    double ratio[2];         ///< dI_t/dI_n = F_t/F_n (64), [t1, t2]; limit (61) at the start
    double slip_velocity[2]; ///< m/s, sliding velocity v_s (32), [t1, t2]; 0 in stick
    double E_n;              ///< J, normal spring energy (16), after the e^2 drop in restitution
    double E_t;              ///< J, tangential spring energy E_u + E_w (66)
    double friction_loss;    ///< J, E_perp (36) so far
    double normal_loss;      ///< J, (1 - e^2) E_n(I_c) once compression has ended, else 0
    double compat_loss;      ///< J, spring energy dropped by the compat variant, else 0
    ipx_jia_mode mode;
    ipx_jia_phase phase;
} ipx_jia_point;

/// Called at the start, after every RK4 step and after every event.
typedef void (*ipx_jia_observer)(const ipx_jia_point *pt, void *user);

#define IPX_JIA_MAX_EVENTS 32

/// Summary of one impact. In the text model the energy closes (P8):
/// -delta_ke = normal_loss + friction_loss + final E_t (E_t -> 0 at the end).
typedef struct ipx_jia_report {
    ipx_jia_mode initial_mode; ///< by Proposition 1, eq. (55)/(56)
    int n_events;              ///< number of events (may exceed IPX_JIA_MAX_EVENTS)
    ipx_jia_event_kind event[IPX_JIA_MAX_EVENTS];
    double event_impulse[IPX_JIA_MAX_EVENTS]; ///< N*s, normal impulse I_n at each event
    double friction_loss;                     ///< J, E_perp (36)
    double normal_loss;                       ///< J, (1 - e^2) E_n(I_c)
    double compat_loss; ///< J, energy dropped by the compat variant (0 in the text model)
} ipx_jia_report;

/// Solves p (valid, see ipx_problem_validate) with the parameter values param (indexed as
/// above, in range) like the registered model, calling observer(pt, user) along the impulse
/// curve if observer is not NULL and filling report if it is not NULL. Never allocates: the
/// result's arrays live in ws (ipx_workspace_create for the "jia" model).
ipx_status ipx_jia_trace(const ipx_problem *p, const double *param, ipx_jia_observer observer,
                         void *user, ipx_jia_report *report, ipx_workspace *ws, ipx_result *r);

extern const ipx_model ipx_model_jia;

#ifdef __cplusplus
}
#endif
#endif
