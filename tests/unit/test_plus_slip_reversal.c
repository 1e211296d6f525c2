/* PLUS sliding friction over an interval that the slip outlives (paper (2.12)-(2.13); deviation 14
   of docs/models/plus.md §10). A box landing on three corners (tests/support/box_scenes.h, k = 3,
   mu 0.546, e 0.984, all three corners sliding at 0.2-0.3 m/s): the compression interval ends
   each slip below v_transition, so the paper's practical rule took it whole (alpha = 1), but
   every slip had passed its closest approach to zero and come out reversed, 0.04-0.06 m/s the
   other way: for the rest of the interval the friction, still against the start slip, pushed
   along the slip (its angle to the end slip 150-165 deg) and did work on the box. The impact
   gained 1.8e-4 J (the energy cap scaled the expansion round down, bit 4). With the cap off:
   - every sliding interval ends where its slip still shrinks (the closest approach (2.13) is
     not inside it), and its friction opposes the slip at both ends;
   - no energy is gained, and every promise the invariant checker tests holds. */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "model_test.h"

enum { K = 3, N = 3 * K };

static const double W[N * N] = {
    /* 1/kg */
    0x1.55f0e36bcae0fp+4,  0x1.659b3eca591f2p+2,  0x1.fd5b234790e0fp+1,  -0x1.e1c672e244443p+3,
    0x1.8dd85279e48cp+3,   -0x1.bb4df0fcbe024p+2, -0x1.6477b3cb0de92p+3, 0x1.4073df7b7319p+2,
    0x1.bb4df0fcbe024p+2,  0x1.659b3eca591f2p+2,  0x1.04b29caf617cfp+4,  -0x1.b2acd8e5d676ap+2,
    -0x1.19f9d8dfdbc9p+2,  -0x1.99c74665c6ab4p+2, -0x1.deaf11402c77cp+1, -0x1.132a6d42cc4d5p+4,
    -0x1.ee74350736c22p+2, 0x1.deaf11402c77cp+1,  0x1.fd5b234790e0fp+1,  -0x1.b2acd8e5d676ap+2,
    0x1.684dd5b4d2cdp+3,   -0x1.447212c1b5399p+1, 0x1.dcf4c5f7a39cep+2,  0x1.d2feac4b9f22bp+1,
    0x1.5e03f40d9dff2p+2,  0x1.6a57dbac1a9c9p+2,  0x1.205cf1289447p+2,   -0x1.e1c672e244443p+3,
    -0x1.19f9d8dfdbc9p+2,  -0x1.447212c1b5399p+1, 0x1.ae6d5848dba7p+3,   -0x1.79a939d6c351p+1,
    0x1.e254a8856f7f1p+2,  0x1.099041828557bp+3,  -0x1.1daa2a698d70ap+3, -0x1.e254a8856f7f1p+2,
    0x1.8dd85279e48cp+3,   -0x1.99c74665c6ab4p+2, 0x1.dcf4c5f7a39cep+2,  -0x1.79a939d6c351p+1,
    0x1.836cd3f6be8a7p+4,  0x1.22eed84ca9996p+1,  0x1.684f779b6e94fp+1,  -0x1.2198265ea5432p+1,
    -0x1.22eed84ca9996p+1, -0x1.bb4df0fcbe024p+2, -0x1.deaf11402c77cp+1, 0x1.d2feac4b9f22bp+1,
    0x1.e254a8856f7f1p+2,  0x1.22eed84ca9996p+1,  0x1.684dd5b4d2cd2p+3,  0x1.5de5eb32a9b9bp+2,
    -0x1.6a74dc87862c7p+2, -0x1.8d7ec8368383ap+1, -0x1.6477b3cb0de92p+3, -0x1.132a6d42cc4d5p+4,
    0x1.5e03f40d9dff2p+2,  0x1.099041828557bp+3,  0x1.684f779b6e94fp+1,  0x1.5de5eb32a9b9bp+2,
    0x1.3908d276165a2p+4,  0x1.85fc2af19eae5p+2,  -0x1.5de5eb32a9b9ap+2, 0x1.4073df7b7319p+2,
    -0x1.ee74350736c22p+2, 0x1.6a57dbac1a9c9p+2,  -0x1.1daa2a698d70ap+3, -0x1.2198265ea5432p+1,
    -0x1.6a74dc87862c7p+2, 0x1.85fc2af19eae5p+2,  0x1.219aada51603dp+4,  0x1.6a74dc87862c7p+2,
    0x1.bb4df0fcbe024p+2,  0x1.deaf11402c77cp+1,  0x1.205cf1289447p+2,   -0x1.e254a8856f7f1p+2,
    -0x1.22eed84ca9996p+1, -0x1.8d7ec8368383ap+1, -0x1.5de5eb32a9b9ap+2, 0x1.6a74dc87862c7p+2,
    0x1.684dd5b4d2cd2p+3,
};
static const double v0[N] = {
    /* m/s */
    -0x1.50df99c8d0c47p-3, -0x1.092861ce8f5cap-3, -0x1.01790d36cd95ap-1,
    0x1.bf4139c8c6523p-3,  0x1.3c93b82a36fbcp-3,  -0x1.df2f43f1bd264p-2,
    0x1.5a12920dbfedbp-3,  -0x1.7d9abcbf53f6cp-3, -0x1.0e77c3372fe54p-1,
};

/* Per sliding contact with friction in an interval: its slip at the interval's start and end
   (m/s), and the friction step against them. */
typedef struct slide_log {
    double v_start[N];
    double worst_end; /* largest cosine between friction and the end slip (> 0: along it) */
    double
        worst_rate; /* largest cosine of v_end and d = v_end - v_start: > 0 the slip grew again */
    int sliding;    /* sliding contact-intervals with friction */
} slide_log;

static void watch(const ipx_plus_interval *iv, void *user)
{
    slide_log *L = user;
    for (int k = 0; k < iv->k; k++) {
        const double *f = iv->step + 3 * k, *v1 = iv->v + 3 * k, *vs = L->v_start + 3 * k;
        const double ft = hypot(f[0], f[1]), s1 = hypot(v1[0], v1[1]);
        if (iv->slip[k] == IPX_PLUS_SLIDING && ft > 1e-12 && s1 > 1e-9) {
            const double d[2] = {v1[0] - vs[0], v1[1] - vs[1]};
            L->worst_end = fmax(L->worst_end, (f[0] * v1[0] + f[1] * v1[1]) / (ft * s1));
            L->worst_rate =
                fmax(L->worst_rate, (v1[0] * d[0] + v1[1] * d[1]) / (s1 * hypot(d[0], d[1])));
            L->sliding++;
        }
    }
    for (int i = 0; i < N; i++) L->v_start[i] = iv->v[i];
}

static void test_sliding_friction_never_pushes_along_a_reversed_slip(void)
{
    ipx_contact contact[K];
    for (int k = 0; k < K; k++)
        contact[k] = (ipx_contact){.mu = 0x1.17aa591227279p-1,
                                   .e = 0x1.f7986e7b7c792p-1,
                                   .v_capture = 0x1.80a6ad00d01ffp-7,
                                   .v_plastic = 0x0p+0};
    const ipx_problem p = {.k = K, .W = W, .v = v0, .contact = contact};
    const ipx_params par = ipx_test_params("plus", "energy_cap=0");
    slide_log L = {.worst_end = -1.0, .worst_rate = -INFINITY};
    for (int i = 0; i < N; i++) L.v_start[i] = v0[i];
    ipx_result r;
    ENSURE(ipx_plus_trace(&p, par.value, ipx_test_workspace(&par, K), watch, &L, &r) == IPX_OK);
    printf(
        "  %d sliding contact-intervals: friction to end slip cos <= %.3f, cos(v_end, d) <= %.3g; "
        "dKE %.4g J, limits 0x%x\n",
        L.sliding, L.worst_end, L.worst_rate, r.delta_ke, r.counts.limits_hit);
    ENSURE(L.sliding >= 3);
    ENSURE(L.worst_rate <= 1e-9); /* zero at the closest approach, up to round-off */
    ENSURE(L.worst_end <= 0.0);
    ENSURE(r.delta_ke <= 0.0);
    ENSURE(!(r.counts.limits_hit & IPX_PLUS_HIT_ENERGY_CAP));
    ENSURE(ipx_test_check_kinds(&p, &r, par.model->promises(par.value), par.value[IPX_PLUS_EPS_V]));
}

int main(void)
{
    RUN(test_sliding_friction_never_pushes_along_a_reversed_slip);
    return ipx_test_exit();
}
