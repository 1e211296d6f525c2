/* Jia's 3-D impact with tangential compliance as a model (see impax/jia.h): parameters, the
   cases without integration, the choice of integrator and the registry entry. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/check.h"
#include "jia_ctx.h"
#include "workspace_internal.h"
#include "result_internal.h"
#include "validate_internal.h"

static const ipx_param_def jia_params[IPX_JIA_N_PARAMS] = {
    [IPX_JIA_ETA2] = {"eta2", 17.0 / 14.0, 1e-3, 1e3, 0, "",
                      "eta0^2 = k0/k_perp, normal over tangential contact stiffness (Johnson: "
                      "(2-nu)/(2(1-nu)); 17/14 for nu = 0.3)"},
    [IPX_JIA_COMPAT] = {"compat", 0, 0, 1, 1, "flag",
                        "1: restitution-slip variant of the paper's published numbers (friction mu "
                        "e F_n, no energy balance); 0: text model"},
    [IPX_JIA_STEPS] = {"steps", 32, 4, 4096, 1, "",
                       "RK4 steps per quarter period of the fastest contact-spring oscillation "
                       "(error ~ steps^-4)"},
    [IPX_JIA_DELTA] = {"delta", 0, 0, 1e3, 0, "N*s",
                       "> 0: the paper's Algorithm 1 (forward Euler in I_n, this fixed step; 5e-5 "
                       "and compat=1 give its tables); 0: RK4"},
    [IPX_JIA_MAX_STEPS] =
        {"max_steps", 1e6, 100, 1e9, 1, "",
         "guard: integration steps per impact, event location included (limits_hit bit 1)"},
    [IPX_JIA_MAX_SWITCHES] = {"max_switches", 1000, 2, 1e6, 1, "",
                              "guard: stick/slip switches per impact (limits_hit bit 2)"},
};

static void setup(ipx_jia_run *u, const ipx_problem *p, double e, const double *param)
{
    ipx_jia_consts *k = &u->k;
    memcpy(k->W, p->W, sizeof k->W);
    memcpy(k->v0, p->v, sizeof k->v0);
    k->mu = p->contact[0].mu;
    k->e = e;
    k->eta0 = sqrt(param[IPX_JIA_ETA2]);
    k->kappa = 0.5 / param[IPX_JIA_ETA2];
    k->rho = 2.0 * param[IPX_JIA_ETA2] * k->mu;
    k->compat = param[IPX_JIA_COMPAT] != 0.0;
    u->max_steps = (int)param[IPX_JIA_MAX_STEPS];
    u->max_switches = (int)param[IPX_JIA_MAX_SWITCHES];
    /* Proposition 1, (55)/(56): stick iff |v0_t| < mu eta0^2 |v0_n| */
    const double vt = hypot(k->v0[IPX_T1], k->v0[IPX_T2]);
    u->rep->initial_mode = vt < 0.5 * k->rho * -k->v0[IPX_N] ? IPX_JIA_STICK : IPX_JIA_SLIP;
}

static void observe_frictionless(const ipx_jia_run *u, double I_n, ipx_jia_phase phase)
{
    if (!u->observer) return;
    ipx_jia_point pt = {.impulse = {0.0, 0.0, I_n}, .phase = phase};
    pt.normal_loss = u->rep->normal_loss;
    u->observer(&pt, u->user);
}

/* mu = 0: I_t = 0 and v_n = v0_n + W_nn I_n, so (11) holds: compression ends at
   I_c = -v0_n/W_nn with E_c = v0_n^2/(2 W_nn) and the impact at I_r = (1 + e) I_c. */
static void frictionless(ipx_jia_run *u)
{
    const double vn = u->k.v0[IPX_N], Wnn = u->k.W[8], e = u->k.e;
    const double I_c = -vn / Wnn;
    observe_frictionless(u, 0.0, IPX_JIA_COMPRESSION);
    u->rep->normal_loss = (1.0 - e * e) * vn * vn / (2.0 * Wnn);
    ipx_jia_record(u, IPX_JIA_COMPRESSION_END, I_c);
    ipx_jia_record(u, IPX_JIA_IMPACT_END, (1.0 + e) * I_c);
    u->r->impulse[IPX_N] = (1.0 + e) * I_c;
    observe_frictionless(u, (1.0 + e) * I_c, IPX_JIA_RESTITUTION);
}

static ipx_status fail(ipx_result *r, ipx_status st) { return ipx_result_fail(r, st); }

/* The solve into a started result (ipx_result_begin). */
static ipx_status trace(const ipx_problem *p, const double *param, ipx_jia_observer observer,
                        void *user, ipx_jia_report *report, ipx_result *r)
{
    ipx_jia_report scratch;
    ipx_jia_run u = {.observer = observer, .user = user, .rep = report ? report : &scratch, .r = r};
    memset(u.rep, 0, sizeof *u.rep);
    if (p->k != 1) {
        snprintf(r->message, sizeof r->message, "jia handles one contact (k = %d given)", p->k);
        return fail(r, IPX_ERR_INPUT);
    }
    const ipx_contact *c = &p->contact[0];
    const double approach = -p->v[IPX_N];
    if (approach > 0.0) { /* v0_n < 0 is an impact (3); else nothing happens */
        if (!(p->W[8] > 0.0)) {
            snprintf(r->message, sizeof r->message,
                     "jia: W_nn = %g 1/kg: no normal impulse can separate the contact", p->W[8]);
            return fail(r, IPX_ERR_INPUT);
        }
        setup(&u, p, approach > c->v_capture ? c->e : 0.0, param);
        ipx_status st = IPX_OK;
        if (c->mu == 0.0) frictionless(&u);
        else if (param[IPX_JIA_DELTA] > 0.0) st = ipx_jia_paper_path(&u, param[IPX_JIA_DELTA]);
        else st = ipx_jia_tau_path(&u, (int)param[IPX_JIA_STEPS]);
        if (st != IPX_OK) return fail(r, st);
    }
    r->status = ipx_result_finish(p, r);
    return r->status == IPX_OK ? IPX_OK : fail(r, r->status);
}

ipx_status ipx_jia_trace(const ipx_problem *p, const double *param, ipx_jia_observer observer,
                         void *user, ipx_jia_report *report, ipx_workspace *ws, ipx_result *r)
{
    ipx_status st = ipx_result_begin(r, p->k, IPX_ROWS_PER_CONTACT, ws);
    if (st != IPX_OK) return st;
    if (!ws) {
        snprintf(r->message, sizeof r->message, "ipx_jia_trace: NULL workspace");
        return r->status = IPX_ERR_INPUT;
    }
    /* the registry's solve is validated by ipx_solve; this entry point was not */
    st = ipx_problem_validate_dense(p, ws, "ipx_jia_trace", r->message, sizeof r->message);
    if (st == IPX_OK) st = ipx_problem_finite_mu(p, "jia", r->message, sizeof r->message);
    ipx_ws_reset(ws);
    if (st != IPX_OK) return ipx_result_fail(r, st);
    return trace(p, param, observer, user, report, r);
}

static ipx_status jia_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                            ipx_result *r)
{
    (void)ws; /* the state is a few dozen doubles on the stack */
    return trace(p, param, NULL, NULL, NULL, r);
}

static size_t jia_workspace_bytes(int k, const double *param)
{
    (void)k, (void)param;
    return 0;
}

static unsigned jia_promises(const double *param)
{
    /* Both variants: no energy gain (stick is lossless, slip and the stiffness jump
       dissipate), separation at the end; with RK4 Coulomb's cone (the compat friction mu e F_n
       is inside it), which the paper's Euler path (delta > 0) can exceed by about one step's
       mu delta where it finds a stick -> slip switch a step late (docs/models/jia.md §P14).
       Not complementarity: restitution leaves with v_n > 0, pi_n > 0. */
    const unsigned cone = param[IPX_JIA_DELTA] > 0.0 ? 0u : (unsigned)IPX_CHECK_CONE;
    return IPX_CHECK_ENERGY | IPX_CHECK_NONPENETRATION | cone | IPX_CHECK_UNILATERAL |
           IPX_CHECK_CONSISTENCY;
}

const ipx_model ipx_model_jia = {
    .name = "jia",
    .doc = "Jia's single-contact 3-D impact with tangential compliance, energetic restitution",
    .n_params = IPX_JIA_N_PARAMS,
    .params = jia_params,
    .solve = jia_solve,
    .workspace_bytes = jia_workspace_bytes,
    .promises = jia_promises,
};
