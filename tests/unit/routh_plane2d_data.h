/* Regression data of test_routh_host_accuracy.c: an island of ODE's demo_plane2d (Debian's ode
   0.16.2 source, run under the shim by tests/realclients) at step 588 (t = 0.588 s), where
   routh, its step LCPs solved iteratively to the host's accuracy, stopped with "impulse step 2
   gained 0.000215 J of kinetic energy (Thm 7 violated)" and the step went to ODE. Captured with
   IMPAX_CAPTURE (hexadecimal): k = 4 frictionless contacts (mu = e = v_capture = 0), v_tol =
   |g| h (the demo's gravity is 1 m/s^2, its steps 1 ms), W dense (3k x 3k, symmetric), then v. */
/* clang-format off */
#ifndef IMPAX_TEST_ROUTH_PLANE2D_DATA_H
#define IMPAX_TEST_ROUTH_PLANE2D_DATA_H

enum { plane2d_k = 4 };
static const double plane2d_v_tol = 0x1.0624dd2f1a9fcp-10;
static const double plane2d_W[144] = {
    0x1.dcf9641280b19p+8, 0x0p+0, -0x1.30c457b98d6eap+7, 0x1.17376058ee06ep+6,
    -0x1.f3213a58a5c0ep-31, -0x1.0bcf71524cbddp+4, -0x1.dc4301ea99f85p-46, -0x1.e7b57e1c5fbeap-48,
    0x1.f02f2c4653123p-51, -0x1.d16fd395cp-46, 0x1.3556804743925p-47, 0x1.2b258a14p-51,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    -0x1.30c457b98d6eap+7, 0x0p+0, 0x1.c47c820c070a4p+7, 0x1.08ad1f61ec3e8p+3,
    -0x1.d2916b338ad06p-30, -0x1.f4b2b5c8aad06p+4, 0x1.051e70200657dp-48, 0x1.5bda15537b543p-48,
    0x1.5d70c400ddf64p-48, 0x1.ee7a21f6b8p-47, -0x1.52f046508b7d1p-50, 0x1.284e7d2698p-48,
    0x1.17376058ee06ep+6, 0x0p+0, 0x1.08ad1f61ec3e8p+3, 0x1.f4ca1e71ab6e5p+7,
    0x1.841969b360986p-30, 0x1.a07b1e909980ep+4, 0x1.16345d03c800ap+4, -0x1.74eedb5cffa93p-30,
    -0x1.9035106d48ef6p+4, 0x1.9deda384p-48, 0x1.40877a8330f9p-49, -0x1.cc179def8p-47,
    -0x1.f3213a58a5c0ep-31, 0x0p+0, -0x1.d2916b338ad06p-30, 0x1.841969b360986p-30,
    0x1.1933018ce730dp-62, 0x1.2dc39139e2fa2p-28, -0x1.11c8b639a328ap-33, -0x1.8a2b5cdfebb31p-64,
    -0x1.a6fef745fd1a3p-30, 0x1.786f7affcp-78, -0x1.029bcd11844a9p-83, -0x1.13c3db28p-81,
    -0x1.0bcf71524cbddp+4, 0x0p+0, -0x1.f4b2b5c8aad06p+4, 0x1.a07b1e909980ep+4,
    0x1.2dc39139e2fa2p-28, 0x1.43d523102bf66p+6, -0x1.25ce6cfe66364p+1, -0x1.a6fee6789649fp-30,
    -0x1.c5ee2fe4d88c2p+4, -0x1.207d2cb6p-48, -0x1.1585576d2f144p-49, -0x1.534bd888cp-47,
    -0x1.dc4301ea99f85p-46, 0x0p+0, 0x1.051e70200657dp-48, 0x1.16345d03c800ap+4,
    -0x1.11c8b639a328ap-33, -0x1.25ce6cfe66364p+1, 0x1.798ec7d052fdp+8, 0x1.922ee7a226ffep-29,
    0x1.af9879ab6d2d9p+5, 0x1.36ac0dcf9a79p+7, 0x1.0620fdb9c6017p-26, -0x1.a2d63113a2973p+4,
    -0x1.e7b57e1c5fbeap-48, 0x0p+0, 0x1.5bda15537b543p-48, -0x1.74eedb5cffa93p-30,
    -0x1.8a2b5cdfebb31p-64, -0x1.a6fee6789649fp-30, 0x1.922ee7a226ffep-29, 0x1.0b320cbe68874p-61,
    0x1.1ebc6a42da3a9p-27, 0x1.a5c7969ac5a6ap-28, 0x1.625edebbbb04ap-59, -0x1.1b1c8d710c27bp-28,
    0x1.f02f2c4653123p-51, 0x0p+0, 0x1.5d70c400ddf64p-48, -0x1.9035106d48ef6p+4,
    -0x1.a6fef745fd1a3p-30, -0x1.c5ee2fe4d88c2p+4, 0x1.af9879ab6d2d9p+5, 0x1.1ebc6a42da3a9p-27,
    0x1.33b49cc53290fp+7, 0x1.c4a009b19f4ccp+6, 0x1.7c494dffa012dp-25, -0x1.2fd0e4bf4424p+6,
    -0x1.d16fd395cp-46, 0x0p+0, 0x1.ee7a21f6b8p-47, 0x1.9deda384p-48,
    0x1.786f7affcp-78, -0x1.207d2cb6p-48, 0x1.36ac0dcf9a79p+7, 0x1.a5c7969ac5a6ap-28,
    0x1.c4a009b19f4ccp+6, 0x1.e25a86bad1a04p+8, -0x1.0ed04c8ab1c4ep-26, 0x1.b0b6a942de046p+4,
    0x1.3556804743925p-47, 0x0p+0, -0x1.52f046508b7d1p-50, 0x1.40877a8330f9p-49,
    -0x1.029bcd11844a9p-83, -0x1.1585576d2f144p-49, 0x1.0620fdb9c6017p-26, 0x1.625edebbbb04ap-59,
    0x1.7c494dffa012dp-25, -0x1.0ed04c8ab1c4ep-26, 0x1.c1853b2cea20cp-55, -0x1.6720c7f310ccfp-24,
    0x1.2b258a14p-51, 0x0p+0, 0x1.284e7d2698p-48, -0x1.cc179def8p-47,
    -0x1.13c3db28p-81, -0x1.534bd888cp-47, -0x1.a2d63113a2973p+4, -0x1.1b1c8d710c27bp-28,
    -0x1.2fd0e4bf4424p+6, 0x1.b0b6a942de046p+4, -0x1.6720c7f310ccfp-24, 0x1.1ee98eba71566p+7,
};
static const double plane2d_v[12] = {
    -0x1.41a8c78d1d384p-1, 0x1.a0c39b6636c39p-53, -0x1.f7f15058e204dp-1, 0x1.37c2f4fee0148p-1,
    -0x1.7f1009a19bep-47, -0x1.9b13a33a3f2p-13, 0x1.9549ad7333574p+1, -0x1.b6f1fe7118bfap-36,
    -0x1.d70bd0755fd7p-2, 0x1.a2cfbe49177d2p+0, 0x1.0973da59a7578p-38, -0x1.a825baa96b7acp-8,
};

#endif
