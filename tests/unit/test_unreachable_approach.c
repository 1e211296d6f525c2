/* A contact that approaches although no impulse can reach it (issue [hardening] 8): W_nn = 0,
   both bodies immovable along its normal (two kinematic bodies, a body pinned by its joints).
   No model can end such an impact with the contact separating, so every model must refuse the
   problem with an error status and a message that says why; none may return ok with
   v_n+ < 0. PLUS did: its inert contacts observe, and the impact ended with v_n+ = -1 m/s,
   status ok. Three forms: W = 0; a second contact whose rows and columns of W are all 0 beside
   a healthy one; a normal row of 0 with free tangents. */
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "model_test.h"

typedef struct degenerate {
    const char *what;
    int k;
    double W[36];
    double v[6];
} degenerate;

static const degenerate cases[3] = {
    {"W = 0", 1, {0}, {0.0, 0.0, -1.0}},
    {"contact 1's rows of W are 0",
     2,
     {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     {0.0, 0.0, -1.0, 0.0, 0.0, -1.0}},
    {"W_nn = 0, tangents free", 1, {1, 0, 0, 0, 1, 0, 0, 0, 0}, {0.5, 0.0, -1.0}},
};

static void test_every_model_refuses_a_contact_no_impulse_can_reach(void)
{
    for (int m = 0; m < ipx_model_count(); m++) {
        const ipx_model *model = ipx_model_at(m);
        for (int c = 0; c < 3; c++) {
            const degenerate *d = &cases[c];
            ipx_contact contact[2];
            for (int i = 0; i < d->k; i++)
                contact[i] = (ipx_contact){.mu = 0.5, .e = 0.5, .v_capture = 0.01};
            const ipx_problem p = {.k = d->k, .W = d->W, .v = d->v, .contact = contact};
            ipx_params par;
            ipx_params_default(&par, model);
            ipx_workspace *ws = ipx_test_workspace(&par, d->k);
            ipx_result r;
            const ipx_status st = ipx_solve(&par, &p, ws, &r);
            printf("  %-8s %-28s status %d: %s\n", model->name, d->what, (int)st, r.message);
            ENSURE(st != IPX_OK && r.status == st);
            ENSURE(r.message[0] != '\0');
            for (int i = 0; i < 3 * d->k && r.v_post; i++)
                ENSURE(r.v_post[i] == 0.0 && r.impulse[i] == 0.0);
        }
    }
}

/* Ill-conditioned is not unreachable: a 1 kg ball of radius 1000 m with the inertia of a
   2.9 cm one (W_nn = 1/m = 1, W_tt = 1/m + R^2 / I = 1.8e10) dropped at 1 m/s: W_nn is 5.6e-11 of
   the largest entry, and the contact takes its impulse (PLUS refused it at first with a
   relative threshold of 1e-9). (jia integrates its tangential compliance, 1.8e10 times stiffer
   than the normal here, and stops at max_steps with an error: not among these.) */
static void test_an_ill_conditioned_contact_is_still_solved(void)
{
    const double W[9] = {1.8e10, 0, 0, 0, 1.8e10, 0, 0, 0, 1.0}, v[3] = {0.0, 0.0, -1.0};
    const ipx_contact c = {.mu = 0.2, .e = 0.8, .v_capture = 0.01};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    const char *const models[] = {"plus", "aplcp", "routh", "bowling"};
    for (int m = 0; m < 4; m++) {
        ipx_params par;
        ipx_params_init(&par, models[m], NULL, 0);
        ipx_result r;
        const ipx_status st = ipx_solve(&par, &p, ipx_test_workspace(&par, 1), &r);
        printf("  %-8s status %d, v_n+ %.6f m/s %s\n", models[m], (int)st,
               st == IPX_OK ? r.v_post[IPX_N] : 0.0, r.message);
        ENSURE(st == IPX_OK && r.message[0] == '\0');
        if (st == IPX_OK && m != 1 && m != 2)
            ENSURE_NEAR(r.v_post[IPX_N], 0.8, 1e-9); /* e v (aplcp, routh: inelastic) */
        if (st == IPX_OK && (m == 1 || m == 2))
            ENSURE(r.v_post[IPX_N] >= -1e-9 && r.v_post[IPX_N] <= 1e-6);
    }
}

/* The same contacts at rest (v_n = 0, as a mechanism its joints lock leaves them,
   constrained.h): nothing approaches, so nothing is refused and no impulse acts. jia refused
   every W_nn = 0, approaching or not. */
static void test_every_model_answers_an_unreachable_contact_at_rest(void)
{
    for (int m = 0; m < ipx_model_count(); m++) {
        const ipx_model *model = ipx_model_at(m);
        for (int c = 0; c < 3; c++) {
            const degenerate *d = &cases[c];
            if (d->k > 1 && strcmp(model->name, "jia") == 0) continue; /* one contact only */
            ipx_contact contact[2];
            double v[6];
            memcpy(v, d->v, sizeof v);
            for (int i = 0; i < d->k; i++) {
                contact[i] = (ipx_contact){.mu = 0.5, .e = 0.5, .v_capture = 0.01};
                v[3 * i + IPX_N] = 0.0;
            }
            const ipx_problem p = {.k = d->k, .W = d->W, .v = v, .contact = contact};
            ipx_params par;
            ipx_params_default(&par, model);
            ipx_result r;
            const ipx_status st = ipx_solve(&par, &p, ipx_test_workspace(&par, d->k), &r);
            printf("  %-8s %-28s at rest: status %d %s\n", model->name, d->what, (int)st,
                   r.message);
            ENSURE(st == IPX_OK);
            for (int i = 0; st == IPX_OK && i < d->k; i++)
                ENSURE(r.impulse[3 * i + IPX_N] == 0.0 && r.v_post[3 * i + IPX_N] == 0.0);
        }
    }
}

int main(void)
{
    RUN(test_every_model_refuses_a_contact_no_impulse_can_reach);
    RUN(test_every_model_answers_an_unreachable_contact_at_rest);
    RUN(test_an_ill_conditioned_contact_is_still_solved);
    return ipx_test_exit();
}
