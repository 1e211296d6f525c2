/* Regression data of test_jia.c and test_check.c: one box-floor impact of PyODE's
   examples/tutorial3.py (boxes 1 x 0.2 x 0.2 m at 1000 kg/m^3 = 40 kg, bounce 0.2, mu 5000, dt
   10 ms), step 1966 under jia, where a box strikes the floor with a corner that slides at 11 m/s
   and approaches at 1.55 m/s. The problem as the ODE adapter assembled it (rows [t1, t2, n],
   n = +y; printed at full precision by a temporary line in the shim's trace writer), and the
   impulse jia answered before its slip step was sized for friction's feed into the normal
   spring (docs/models/jia.md §P12): it left at 30.6 m/s with 4.98e5 J gained. */
#ifndef IMPAX_TEST_TRIPPING_BOX_DATA_H
#define IMPAX_TEST_TRIPPING_BOX_DATA_H

typedef struct tripping_box {
    double W[9];               /* 1/kg, column-major */
    double v[3];               /* m/s */
    double mu, e;              /* Coulomb, restitution (energetic under jia) */
    double gaining_impulse[3]; /* N*s, jia's answer before the fix: v_n+ = 30.6123 m/s */
} tripping_box;

static const tripping_box TRIPPING_BOX = {
    .W = {0.15445668216888198, -0.02730785714849849, 0.01318424647619473, -0.02730785714849849,
          0.10986861187659912, -0.029951625018645338, 0.01318424647619473, -0.029951625018645338,
          0.03567470595451876},
    .v = {-10.411837347358052, 4.4033898665124465, -1.5522528484117266},
    .mu = 5000.0,
    .e = 0.2,
    .gaining_impulse = {-2368.298031678627, 619.3988959454629, 2296.887343177149}};

#endif
