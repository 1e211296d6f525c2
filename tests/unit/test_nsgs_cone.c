/* The cone stage's contact step (core/src/numerics/nsgs_cone.c) against closed forms. With
   W_ii = I (1/kg) the QP min 1/2 |pi|^2 + u'pi over the friction cone is the projection of -u
   onto the cone: -u itself inside it (the contact sticks), 0 where -u lies in the polar cone
   (it leaves), and for -u in the plane t2 = 0, which the polygon (2 or 4 directions: t1 is
   among them) is symmetric about, the projection onto the cone's edge |pi_t1| = mu pi_n. */
#include <math.h>

#include "ensure.h"
#include "impax/problem.h"
#include "numerics/nsgs.h"

static void step(int nd, double mu, const double u[3], double pi[3])
{
    static const double W[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    const double v[3] = {0.0, 0.0, 0.0};
    const ipx_contact contact = {.mu = mu};
    const ipx_problem p = {
        .k = 1, .W = W, .v = v, .contact = &contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_nsgs_bytes(1, nd, 0));
    ipx_nsgs s;
    ENSURE(ws && ipx_nsgs_init(&s, &p, nd, ws) == IPX_OK);
    ENSURE(ipx_nsgs_cone_local(&s, W, u, mu, pi));
    ipx_workspace_destroy(ws);
}

static int near(const double a[3], const double b[3])
{
    for (int x = 0; x < 3; x++)
        if (!(fabs(a[x] - b[x]) <= 1e-12 * (1.0 + fabs(b[x])))) return 0;
    return 1;
}

static void test_sticks_inside_the_cone(void)
{
    const double u[3] = {0.3, -0.2, -1.0}, stick[3] = {-0.3, 0.2, 1.0}; /* m/s; N s */
    for (int nd = 2; nd <= 8; nd += 2) {
        double pi[3];
        step(nd, 5000.0, u, pi);
        ENSURE(near(pi, nd == 2 ? (const double[3]){-0.3, 0.0, 1.0} : stick));
    }
}

static void test_leaves_without_impulse(void)
{
    const double u[3] = {0.5, 0.4, 0.2}, zero[3] = {0.0, 0.0, 0.0};
    for (int nd = 2; nd <= 8; nd += 2) {
        double pi[3];
        step(nd, 0.3, u, pi);
        ENSURE(near(pi, zero));
    }
}

static void test_slides_on_the_cone_edge(void)
{
    /* -u = (-1, 0, 1) projected onto the ray (-mu, 0, 1) / sqrt(1 + mu^2) */
    const double mu = 0.1, u[3] = {1.0, 0.0, -1.0}, scale = (1.0 + mu) / (1.0 + mu * mu);
    const double edge[3] = {-mu * scale, 0.0, scale};
    for (int nd = 2; nd <= 4; nd += 2) {
        double pi[3];
        step(nd, mu, u, pi);
        ENSURE(near(pi, edge));
    }
}

int main(void)
{
    RUN(test_sticks_inside_the_cone);
    RUN(test_leaves_without_impulse);
    RUN(test_slides_on_the_cone_edge);
    return ipx_test_exit();
}
