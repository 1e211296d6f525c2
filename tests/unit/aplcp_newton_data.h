/* ODE-pile seed 4 of bench_piles (mu = dInfinity, bounce 0.49 above 0.372 m/s), the island aplcp
   with newton_restitution=1 left to ODE: 3 contacts, captured with
   bench_piles --models aplcp --params newton_restitution=1 --capture DIR 4 at f7f40da,
   written with C99 hexadecimal floats. v_tol 0.0450208 m/s. */
static const double W_pile4[81] = {
    0x1.7ca54c3d7bdf5p+1,  -0x1.0294cc0301319p-1, 0x1.887f11f47c02ep-2,  0x1.21cdb21125984p-3,
    -0x1.08b2247613008p-4, 0x1.947b99f61f384p-3,  0x1.263a6d4a32ff2p+0,  0x1.59e310e0b5538p-1,
    0x1.6191f21523716p-3,  -0x1.0294cc0301319p-1, 0x1.2e6896ca821bcp+1,  0x1.5c230a586c6fdp-1,
    -0x1.1235071c10bc5p-2, -0x1.c97047f18de74p+0, 0x1.c70d430a7b4acp-3,  -0x1.9421583f301d3p-2,
    -0x1.e86a1619bfb4ep-2, 0x1.38d60de1472f2p-2,  0x1.887f11f47c02ep-2,  0x1.5c230a586c6fdp-1,
    0x1.384edc68afed9p+0,  0x1.f951d12d1c11ep-4,  -0x1.7328c0daa54e9p-3, -0x1.c0357e0788223p-3,
    0x1.3d7fbdb75d434p-3,  -0x1.ab3c091a7828bp-1, -0x1.88b211cf027a4p-3, 0x1.21cdb21125984p-3,
    -0x1.1235071c10bc5p-2, 0x1.f951d12d1c11ep-4,  0x1.8a6072c5b7cap+1,   -0x1.518be9f91761fp-2,
    0x1.de0b4aca0cfe7p-2,  0x1.64c8aa236fb55p-1,  0x1.2121d89ec4ab8p-2,  -0x1.e3ca36af2fb6ap-2,
    -0x1.08b2247613008p-4, -0x1.c97047f18de74p+0, -0x1.7328c0daa54e9p-3, -0x1.518be9f91761fp-2,
    0x1.81b30002dd6f4p+1,  0x1.08dc7af75a44p-1,   -0x1.0aecada680875p-3, 0x1.5ae9b5a7e8046p-1,
    -0x1.7493d38ec2618p+0, 0x1.947b99f61f384p-3,  0x1.c70d430a7b4acp-3,  -0x1.c0357e0788223p-3,
    0x1.de0b4aca0cfe7p-2,  0x1.08dc7af75a44p-1,   0x1.019cd050640c2p+0,  0x1.a927eb1f60d4p-8,
    0x1.fe96b2f18f2aep-1,  -0x1.84751f43877aap-1, 0x1.263a6d4a32ff2p+0,  -0x1.9421583f301d3p-2,
    0x1.3d7fbdb75d434p-3,  0x1.64c8aa236fb55p-1,  -0x1.0aecada680875p-3, 0x1.a927eb1f60d4p-8,
    0x1.67c25e6d6089dp+2,  0x1.9e13923a9e9a1p-2,  0x1.4356fe16e7919p-3,  0x1.59e310e0b5538p-1,
    -0x1.e86a1619bfb4ep-2, -0x1.ab3c091a7828bp-1, 0x1.2121d89ec4ab8p-2,  0x1.5ae9b5a7e8046p-1,
    0x1.fe96b2f18f2aep-1,  0x1.9e13923a9e9a1p-2,  0x1.1d326e7942431p+2,  -0x1.023360322a547p-1,
    0x1.6191f21523716p-3,  0x1.38d60de1472f2p-2,  -0x1.88b211cf027a4p-3, -0x1.e3ca36af2fb6ap-2,
    -0x1.7493d38ec2618p+0, -0x1.84751f43877aap-1, 0x1.4356fe16e7919p-3,  -0x1.023360322a547p-1,
    0x1.05657b60e42ffp+1,
};

static const double v_pile4[9] = {
    0x1.bcb988e13cfc8p-3,  -0x1.5ed1ebecf14aep-2, -0x1.890312d699fb4p-2,
    -0x1.39790575a2746p-7, -0x1.4d7d8fa2d859cp-8, 0x1.02fa1a70b59e2p-6,
    -0x1.3e7680d9b2df8p-6, -0x1.7e1cfc788249ap-9, -0x1.9933d90c1739bp-6,
};

static const ipx_contact contacts_pile4[3] = {
    {0x1.f4p+9, 0x1.f9b995f756398p-2, 0x1.7cef837da0426p-2, 0x0p+0},
    {0x1.f4p+9, 0x1.f9b995f756398p-2, 0x1.7cef837da0426p-2, 0x0p+0},
    {0x1.f4p+9, 0x1.f9b995f756398p-2, 0x1.7cef837da0426p-2, 0x0p+0},
};
