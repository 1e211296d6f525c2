/* The Anitescu-Potra LCP (aplcp, routh, bowling's polygonal LCP) on two contacts whose bodies
   differ in mass by 1e12: a 1 kg point mass and a 1e12 kg one, each on the ground. W is then
   block diagonal with normal entries 1 and 1e-12 (1/kg). Formed in one unit of mass for the
   whole problem, the heavy contact's block was 1e-12 of the light one's and Lemke could end on a
   ray (the heavy arm of tests/world/heavy); scaled per contact (anitescu_potra.h) both blocks are of
   order 1. Decoupled, each contact must come out as it does alone, which is a closed form here:
   the light mass slides (mu 0.5, |v_t| = 2 > mu |v_n|), the heavy one sticks. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"

enum { K = 2, ROWS = 3 * K };

static const double mass[K] = {1.0, 1e12};           /* kg */
static const double vel[K][3] = {{2.0, 0.0, -1.0},   /* m/s [t1 t2 n]: slides along t1 */
                                 {0.2, -0.1, -1.0}}; /* inside the friction polygon: sticks */
static const double mu = 0.5;

/* Contacts first..first+k-1 of the two as a problem of their own (W block diagonal: 1/m I3). */
static void make_problem(int first, int k, double *W, double *v, ipx_contact *contact,
                         ipx_problem *p)
{
    const int n = 3 * k;
    memset(W, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < k; i++) {
        for (int a = 0; a < 3; a++) {
            W[(3 * i + a) * (n + 1)] = 1.0 / mass[first + i];
            v[3 * i + a] = vel[first + i][a];
        }
        contact[i] = (ipx_contact){.mu = mu};
    }
    *p = (ipx_problem){.k = k, .W = W, .v = v, .contact = contact};
}

/* N*s: the closed form of contact i alone, an inelastic impact of a point mass on the ground
   (the polygon has a vertex on t1, so the light mass's friction is the full Coulomb mu p_n). */
static void closed_form(int i, double pi[3])
{
    const double m = mass[i], pn = -m * vel[i][IPX_N];
    if (i == 0) {
        pi[IPX_T1] = -mu * pn, pi[IPX_T2] = 0.0; /* slides: v_t1+ = 2 - 0.5 = 1.5 m/s */
    } else {
        pi[IPX_T1] = -m * vel[i][IPX_T1], pi[IPX_T2] = -m * vel[i][IPX_T2]; /* sticks */
    }
    pi[IPX_N] = pn;
}

static void check_model(const char *model, const char *text)
{
    ipx_params par = ipx_test_params(model, text);
    double W[ROWS * ROWS], v[ROWS];
    ipx_contact contact[K];
    ipx_problem both;
    make_problem(0, K, W, v, contact, &both);
    ipx_result r;
    ipx_status st = ipx_test_solve(&par, &both, &r); /* also checks the model's promises */
    if (st != IPX_OK) printf("  %s, both contacts: %s\n", model, r.message);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) return;
    if (strcmp(model, "bowling") == 0) { /* its polygonal LCP (the loop's seed) was solved */
        ENSURE(r.counts.lcp_solves >= 1);
        ENSURE(!(r.counts.limits_hit & IPX_BOWLING_SEED_FAILED));
    }
    for (int i = 0; i < K; i++) {
        double Wi[9], vi[3];
        ipx_contact ci;
        ipx_problem alone;
        make_problem(i, 1, Wi, vi, &ci, &alone);
        ipx_result ri;
        st = ipx_test_solve(&par, &alone, &ri);
        ENSURE(st == IPX_OK);
        if (st != IPX_OK) return;
        double exact[3];
        closed_form(i, exact);
        const double scale = mass[i] * 1e-12; /* N*s: round-off of impulses of order m_i */
        for (int a = 0; a < 3; a++) {
            const double got = r.impulse[3 * i + a];
            if (!(fabs(got - ri.impulse[a]) <= scale && fabs(got - exact[a]) <= scale))
                printf(
                    "  %s contact %d row %d: together %.17g, alone %.17g, closed form %.17g N*s\n",
                    model, i, a, got, ri.impulse[a], exact[a]);
            ENSURE(fabs(got - ri.impulse[a]) <= scale);
            ENSURE(fabs(got - exact[a]) <= scale);
        }
    }
}

static void test_heavy_and_light_contacts_come_out_as_if_alone_aplcp(void)
{
    check_model("aplcp", "");
}

static void test_heavy_and_light_contacts_come_out_as_if_alone_routh(void)
{
    check_model("routh", "");
}

static void test_heavy_and_light_contacts_come_out_as_if_alone_bowling(void)
{
    check_model("bowling", "");
}

/* bowling's LCP as the outcome itself: no enumeration, the loop from the LCP's set */
static void test_heavy_and_light_contacts_come_out_as_if_alone_bowling_loop(void)
{
    check_model("bowling", "enumerate_max=0");
}

int main(void)
{
    RUN(test_heavy_and_light_contacts_come_out_as_if_alone_aplcp);
    RUN(test_heavy_and_light_contacts_come_out_as_if_alone_routh);
    RUN(test_heavy_and_light_contacts_come_out_as_if_alone_bowling);
    RUN(test_heavy_and_light_contacts_come_out_as_if_alone_bowling_loop);
    return ipx_test_exit();
}
