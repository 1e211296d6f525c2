/* Regression data of test_face_landing.c: face landings of the cube-toss cube (edge 0.1048 m,
   0.37 kg, inertia/mass 0.797 (half edge)^2 about every axis; mu 0.18, bounce 0.125 above
   0.01 m/s) on the table, captured in ODE (h = 1/1480 s, ERP 0.2, contacts from ODE's box-plane
   collider: the four corners of the bottom face, normal +z) on which the dense Lemke of aplcp
   and routh ended on false secondary rays before contested ratio tests were re-decided on
   columns re-solved from the data (core/src/numerics/lemke.c, CONTEST). Exactly as captured (hexadecimal):
   the body's state at the start of the impact step, then the contact points. */
/* clang-format off */
#ifndef IMPAX_TEST_FACE_LANDING_DATA_H
#define IMPAX_TEST_FACE_LANDING_DATA_H

typedef struct face_landing {
    const char *name;
    double com[3];    /* m, centre of mass, world frame */
    double R[9];      /* body to world, row-major as ODE's dBodyGetRotation (without its padding) */
    double vel[6];    /* m/s then rad/s, world frame */
    double point[4][3]; /* m, the four corner contacts, world frame; normal +z */
} face_landing;

static const face_landing face_landings[] = {
    /* the cube rocks down onto its face: two corners of one edge approach at 0.031 m/s, the
       other two rest (v_n -8.8e-7 and +7.2e-6 m/s) */
    {"rock_edge",
     {0x1.4fc12309ea1bbp-4, 0x1.78eebe3b2ddaep-4, 0x1.ad3dc0aa6f926p-5},
     {0x1.c8d0cb26f8d9bp-1, -0x1.327f90d754p-16, 0x1.ce718c0a77485p-2,
      -0x1.ce718c0948a06p-2, 0x1.0b4d73a501p-17, 0x1.c8d0cb2892875p-1,
      -0x1.4dd225341cp-16, -0x1.fffffffe4b441p-1, -0x1.32b8c145ap-20},
     {0x1.1d06786b3cc34p-1, 0x1.3b79b55204e4cp-1, -0x1.ff8cf2e4d1457p-7,
      0x1.1036a73a912a7p-2, -0x1.13be6080e4fbap-3, 0x1.7acdc9b9dc998p-2},
     {{0x1.381680279854cp-3, 0x1.d780d3dea0324p-4, -0x1.d4c0d0a1c0b5ep-19},
      {0x1.ae51c7a6f6778p-4, 0x1.6209402d0328cp-6, -0x1.c4ae53d0ff4a2p-19},
      {0x1.e25cf8fa5175cp-5, 0x1.4cae06432dc25p-3, -0x1.79c1696f33574p-20},
      {0x1.7a9a1ea77447p-7, 0x1.1a5d88b2fc1c8p-4, -0x1.599c6fcdb07fcp-20}}},
    /* the same at 0.056 m/s, another toss */
    {"rock_edge_fast",
     {0x1.a4eb413608b72p-5, 0x1.55c79b6cb1efdp-6, 0x1.ad285a780485fp-5},
     {-0x1.ff0354e9fde91p-1, -0x1.c47c1d674c4p-13, -0x1.fc68bc81a175ap-5,
      -0x1.fc68bb3c9a6fap-5, -0x1.28094d2acp-16, 0x1.ff0355b23ec6cp-1,
      -0x1.c5e8bd61cb3p-13, 0x1.ffffff36b8094p-1, 0x1.1b3d6ef52p-18},
     {0x1.9ef594c7b3a6cp-2, 0x1.63667c96ec484p-3, -0x1.ccf1d85c3f1c2p-6,
      0x1.19de2b4142f58p-5, -0x1.125f83e1d4adcp-1, -0x1.7abe908717aeap+1},
     {{0x1.3380a66872323p-9, -0x1.1c2d30d6dee17p-5, -0x1.9542828da3b19p-16},
      {-0x1.107fbaa9196e6p-8, 0x1.1e5855b9c66bap-4, -0x1.8dd6c348094e7p-16},
      {0x1.b60af2b094f73p-4, -0x1.cdca5e7a89523p-6, -0x1.8b3cf4b9fa38p-20},
      {0x1.9b66f1d2bfcecp-4, 0x1.38fc56869387cp-4, -0x1.148100605406p-20}}},
};

/* The Anitescu-Potra LCP (core/src/numerics/anitescu_potra.h, 2 friction directions) of three corners of the same
   cube's bottom face landing exactly flat (all three at -2.28 m/s, sliding and spinning about
   z): n = 12, M column-major, q, and the solution z_star that Lemke's method with the
   lexicographic rule reaches in exact (rational) arithmetic, in 9 pivots, rounded to double.
   The old Lemke pivoted on 1.7e-6 at its fourth pivot (rows of B^-1 of norm 9.5e5), and 5 pivots
   later its updated tableau put the artificial variable's ratio 2e-4 above the one it ties with
   exactly: z0 stayed basic at 0, and the path ended on a secondary ray after 13 pivots. */
enum { face3_n = 12 };
static const double face3_M[144] = {
    0x1.2f843ee7ee7c6p+3, 0x1.59f25bd049094p+1, -0x1.051651c271f16p+2, -0x1.5898509f2a45ap+1,
    0x1.5898509f2a45bp+1, -0x1.58982cb864192p+1, 0x1.58982cb864193p+1, -0x1.589854a72316ep+1,
    0x1.589854a72316fp+1, 0x1.70a3d70a3d70ap-3, 0x0p+0, 0x0p+0,
    0x1.59f25bd049094p+1, 0x1.2f84558462eeep+3, 0x1.59f256bc640cbp+1, -0x1.fc01df1750a96p+1,
    0x1.fc01df1750a95p+1, -0x1.fc01aa2a21d1ep+1, 0x1.fc01aa2a21d1dp+1, -0x1.fc01e508aa0d6p+1,
    0x1.fc01e508aa0d5p+1, 0x0p+0, 0x1.70a3d70a3d70ap-3, 0x0p+0,
    -0x1.051651c271f16p+2, 0x1.59f256bc640cbp+1, 0x1.2f843c5dfbb6ap+3, 0x1.589816b556056p+1,
    -0x1.589816b556057p+1, 0x1.5897f2ce95e18p+1, -0x1.5897f2ce95e19p+1, 0x1.58981abd4e293p+1,
    -0x1.58981abd4e294p+1, 0x0p+0, 0x0p+0, 0x1.70a3d70a3d70ap-3,
    -0x1.5898509f2a45ap+1, -0x1.fc01df1750a96p+1, 0x1.589816b556056p+1, 0x1.57a3a0c24af48p+3,
    -0x1.57a3a0c24af48p+3, 0x1.78b4901cc5109p+1, -0x1.78b4901cc5108p+1, 0x1.72e8de182096p+0,
    -0x1.72e8de1820962p+0, -0x1p+0, 0x0p+0, 0x0p+0,
    0x1.5898509f2a45bp+1, 0x1.fc01df1750a95p+1, -0x1.589816b556057p+1, -0x1.57a3a0c24af48p+3,
    0x1.57a3a0c24af48p+3, -0x1.78b4901cc510ap+1, 0x1.78b4901cc5109p+1, -0x1.72e8de1820962p+0,
    0x1.72e8de1820964p+0, -0x1p+0, 0x0p+0, 0x0p+0,
    -0x1.58982cb864192p+1, -0x1.fc01aa2a21d1ep+1, 0x1.5897f2ce95e18p+1, 0x1.78b4901cc5109p+1,
    -0x1.78b4901cc510ap+1, 0x1.0764be1337b9ap+3, -0x1.0764be1337b9ap+3, 0x1.27d3930abb43bp+3,
    -0x1.27d3930abb43bp+3, 0x0p+0, -0x1p+0, 0x0p+0,
    0x1.58982cb864193p+1, 0x1.fc01aa2a21d1dp+1, -0x1.5897f2ce95e19p+1, -0x1.78b4901cc5108p+1,
    0x1.78b4901cc5109p+1, -0x1.0764be1337b9ap+3, 0x1.0764be1337b9ap+3, -0x1.27d3930abb43bp+3,
    0x1.27d3930abb43bp+3, 0x0p+0, -0x1p+0, 0x0p+0,
    -0x1.589854a72316ep+1, -0x1.fc01e508aa0d6p+1, 0x1.58981abd4e293p+1, 0x1.72e8de182096p+0,
    -0x1.72e8de1820962p+0, 0x1.27d3930abb43bp+3, -0x1.27d3930abb43bp+3, 0x1.57a3b7bf4eaaep+3,
    -0x1.57a3b7bf4eaaep+3, 0x0p+0, 0x0p+0, -0x1p+0,
    0x1.589854a72316fp+1, 0x1.fc01e508aa0d5p+1, -0x1.58981abd4e294p+1, -0x1.72e8de1820962p+0,
    0x1.72e8de1820964p+0, -0x1.27d3930abb43bp+3, 0x1.27d3930abb43bp+3, -0x1.57a3b7bf4eaaep+3,
    0x1.57a3b7bf4eaaep+3, 0x0p+0, 0x0p+0, -0x1p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x1p+0,
    0x1p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x1p+0, 0x1p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    0x0p+0, 0x0p+0, 0x0p+0, 0x1p+0,
    0x1p+0, 0x0p+0, 0x0p+0, 0x0p+0,
};
static const double face3_q[12] = {
    -0x1.23f180af741fp+1, -0x1.23f180af741fp+1, -0x1.23f180af741fp+1, -0x1.088d7a9417f97p-1,
    0x1.088d7a9417f97p-1, 0x1.a723746432ddp-2, -0x1.a723746432dd1p-2, 0x1.2ed3058861f2fp-1,
    -0x1.2ed3058861f2ep-1, 0x0p+0, 0x0p+0, 0x0p+0,
};
static const double face3_z_star[12] = {
    0x1.ae909210dfa53p-2, 0x0.0p+0, 0x1.b1966f58f0dcdp-2, 0x1.ca23251d1d4cep-5,
    0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0,
    0x1.0387b27dd2e77p-4, 0x0.0p+0, 0x1.0220092b94c1dp-25, 0x0.0p+0,
};

#endif
