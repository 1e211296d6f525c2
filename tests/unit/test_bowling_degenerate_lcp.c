/* A polygonal-LCP problem of the Flickinger-Bowling model captured from the ODE two-wheeler
   (tests/adapter/test_ode_bowling.c: drop 1.3 m, COR 0.25, step 1453; OpenBLAS default kernel on
   an AMD EPYC), where one wheel lands on an edge (contacts 0 and 2 approach at 1.97 m/s) while
   the other lies on a face (contacts 4-7, persistent). 8 contacts, 24 rows of W, rank 8 (the
   two-wheeler has 8 degrees of freedom): the polygonal LCPs of bowling (80 x 80) and aplcp (48 x
   48) are highly degenerate, with ratios that tie up to round-off (mirror-image contacts).
   Lemke's ratio test took a round-off negative b_i (an exact 0) over a small positive pivot as a
   negative ratio, stepped backwards and lost feasibility: "numerical failure" for both models,
   and the bowling solve failed (the adapter left the event to ODE). The problem (W, v exactly
   as captured, hexadecimal) must now be solved, without any fallback, keeping every promise. */
/* clang-format off */
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "impax/check.h"
#include "model_test.h"

enum { K = 8, N = 3 * K };

static const double W[24 * 24] = {
    0x1.2e7d99ce2da3dp+0, 0x1.01970ab32a321p-5, -0x1.5f3a9715cd011p-4, 0x1.a7499f6e585cfp-1,
    -0x1.01970ab3549c7p-5, 0x1.5f3a9715d2be2p-4, 0x1.2e7d99ce2d83ep+0, -0x1.01970ab35f0cfp-5,
    0x1.5f3a9715d6e2cp-4, 0x1.a7499f6e589cbp-1, 0x1.01970ab334a25p-5, -0x1.5f3a9715d125cp-4,
    0x1.964f656d4fdf5p-3, -0x1.01970ab340d22p-5, 0x1.5f3a9715d071fp-4, 0x1.19aadc14b9c9ap-1,
    -0x1.01970ab34b2c8p-5, 0x1.5f3a9715d2a02p-4, 0x1.964f656d50de3p-3, 0x1.01970ab342c8cp-5,
    -0x1.5f3a9715d0265p-4, 0x1.19aadc14ba097p-1, 0x1.01970ab3386e9p-5, -0x1.5f3a9715cdf82p-4,
    0x1.01970ab32a321p-5, 0x1.0d8ad5d238525p-1, 0x1.4a290582312fap-1, 0x1.27e54b2c6e8afp-7,
    0x1.0a0eac0ee1e1ap-1, -0x1.4f134fd754dbdp-3, 0x1.01970ab32a1ccp-5, 0x1.0b7bf6bd4648fp-1,
    0x1.48a914693f19ap-1, 0x1.27e54b2c6edeap-7, 0x1.0c1d8b23d3eafp-1, -0x1.49138b738c834p-3,
    -0x1.fe2ef6501cbfap-6, 0x1.957bd84a1a60fp-3, -0x1.93395e2bfb76cp-10, -0x1.1c24d14cef7ddp-7,
    0x1.957bd84a1a369p-3, -0x1.93395e2bf286fp-10, -0x1.fe2ef6501c962p-6, 0x1.9db7549de25d0p-3,
    0x1.6ca8d3b835188p-10, -0x1.1c24d14cef2a0p-7, 0x1.9db7549de232bp-3, 0x1.6ca8d3b83e06cp-10,
    -0x1.5f3a9715cd011p-4, 0x1.4a290582312fap-1, 0x1.bb43cdccd6b38p+0, -0x1.9e4f864c7f71bp-4,
    0x1.45d4c5a3c4b70p-1, 0x1.57c4bdf6c0ee5p-4, -0x1.5f3a9715ccbbfp-4, 0x1.48a914693f625p-1,
    0x1.ae5f4021d3712p+0, -0x1.9e4f864c7fb6dp-4, 0x1.4754b6bcb6845p-1, 0x1.1306cc537a894p-3,
    -0x1.0b26ebfd2db85p-3, -0x1.93395e2b316f5p-10, -0x1.ca49ab19f835bp-5, -0x1.d3739e03f42fap-4,
    -0x1.93395e2b40cd9p-10, -0x1.ca49ab19f8014p-5, -0x1.0b26ebfd2ddafp-3, 0x1.6ca8d3b88251bp-10,
    -0x1.6dbfadcc82881p-8, -0x1.d3739e03f474ep-4, 0x1.6ca8d3b872f31p-10, -0x1.6dbfadcc80e48p-8,
    0x1.a7499f6e585cfp-1, 0x1.27e54b2c6e8afp-7, -0x1.9e4f864c7f71bp-4, 0x1.71980233e7ff1p-1,
    -0x1.27e54b2c96420p-7, 0x1.9e4f864c8ad3cp-4, 0x1.a7499f6e582c2p-1, -0x1.27e54b2ca235bp-7,
    0x1.9e4f864c99be8p-4, 0x1.71980233e8301p-1, 0x1.27e54b2c7a7fap-7, -0x1.9e4f864c8e5ccp-4,
    0x1.153e67d5077a8p-1, -0x1.27e54b2cae7e9p-7, 0x1.9e4f864c8e8fep-4, 0x1.490b77877a8e1p-1,
    -0x1.27e54b2cba689p-7, 0x1.9e4f864c8f2f9p-4, 0x1.153e67d507ab6p-1, 0x1.27e54b2c623d1p-7,
    -0x1.9e4f864c88dd4p-4, 0x1.490b77877abefp-1, 0x1.27e54b2c56537p-7, -0x1.9e4f864c883d6p-4,
    -0x1.01970ab3549c7p-5, 0x1.0a0eac0ee1e1ap-1, 0x1.45d4c5a3c4b70p-1, -0x1.27e54b2c96420p-7,
    0x1.0ab363c116aaep-1, -0x1.4638f616c505bp-3, -0x1.01970ab35487bp-5, 0x1.0c1d8b23d40edp-1,
    0x1.4754b6bcb61abp-1, -0x1.27e54b2c9694bp-7, 0x1.08a484ac247dcp-1, -0x1.4c38ba7a8a948p-3,
    0x1.fe2ef6500caf2p-6, 0x1.9db7549de233ep-3, 0x1.6ca8d3b7a663ep-10, 0x1.1c24d14c96d0ep-7,
    0x1.9db7549de25e3p-3, 0x1.6ca8d3b79d74ap-10, 0x1.fe2ef6500c857p-6, 0x1.957bd84a1995fp-3,
    -0x1.93395e2b2e222p-10, 0x1.1c24d14c967d1p-7, 0x1.957bd84a19c02p-3, -0x1.93395e2b37107p-10,
    0x1.5f3a9715d2be2p-4, -0x1.4f134fd754dbdp-3, 0x1.57c4bdf6c0ee5p-4, 0x1.9e4f864c8ad3cp-4,
    -0x1.4638f616c505bp-3, 0x1.12f8a744691c2p-1, 0x1.5f3a9715d2794p-4, -0x1.49138b738dcc6p-3,
    0x1.1306cc537bcb9p-3, 0x1.9e4f864c8b189p-4, -0x1.4c38ba7a8c152p-3, 0x1.f25f17dcc48e3p-2,
    0x1.0b26ebfd2ed96p-3, 0x1.6ca8d3b773e90p-10, -0x1.6dbfadcc55f41p-8, 0x1.d3739e03fa5b3p-4,
    0x1.6ca8d3b78347dp-10, -0x1.6dbfadcc5798cp-8, 0x1.0b26ebfd2efc0p-3, -0x1.93395e2c13167p-10,
    -0x1.ca49ab19f6e90p-5, 0x1.d3739e03faa08p-4, -0x1.93395e2c03b6cp-10, -0x1.ca49ab19f71d5p-5,
    0x1.2e7d99ce2d83ep+0, 0x1.01970ab32a1ccp-5, -0x1.5f3a9715ccbbfp-4, 0x1.a7499f6e582c2p-1,
    -0x1.01970ab35487bp-5, 0x1.5f3a9715d2794p-4, 0x1.2e7d99ce2d641p+0, -0x1.01970ab35ef7ep-5,
    0x1.5f3a9715d69d8p-4, 0x1.a7499f6e586c0p-1, 0x1.01970ab3348d7p-5, -0x1.5f3a9715d0e09p-4,
    0x1.964f656d4f854p-3, -0x1.01970ab340bd3p-5, 0x1.5f3a9715d02cep-4, 0x1.19aadc14b9a46p-1,
    -0x1.01970ab34b178p-5, 0x1.5f3a9715d25afp-4, 0x1.964f656d50841p-3, 0x1.01970ab342b3ep-5,
    -0x1.5f3a9715cfe14p-4, 0x1.19aadc14b9e45p-1, 0x1.01970ab33859ap-5, -0x1.5f3a9715cdb30p-4,
    -0x1.01970ab35f0cfp-5, 0x1.0b7bf6bd4648fp-1, 0x1.48a914693f625p-1, -0x1.27e54b2ca235bp-7,
    0x1.0c1d8b23d40edp-1, -0x1.49138b738dcc6p-3, -0x1.01970ab35ef7ep-5, 0x1.0d8ad5d2388b1p-1,
    0x1.4a29058230d48p-1, -0x1.27e54b2ca28bep-7, 0x1.0a0eac0ee1cc5p-1, -0x1.4f134fd753954p-3,
    0x1.fe2ef65020e58p-6, 0x1.9db7549de25e2p-3, 0x1.6ca8d3b7b4e83p-10, 0x1.1c24d14ca1b70p-7,
    0x1.9db7549de2886p-3, 0x1.6ca8d3b7abf8dp-10, 0x1.fe2ef65020bc2p-6, 0x1.957bd84a196bap-3,
    -0x1.93395e2b3ca5ep-10, 0x1.1c24d14ca1633p-7, 0x1.957bd84a1995ep-3, -0x1.93395e2b45942p-10,
    0x1.5f3a9715d6e2cp-4, 0x1.48a914693f19ap-1, 0x1.ae5f4021d3712p+0, 0x1.9e4f864c99be8p-4,
    0x1.4754b6bcb61abp-1, 0x1.1306cc537bcb9p-3, 0x1.5f3a9715d69d8p-4, 0x1.4a29058230d48p-1,
    0x1.bb43cdccd6d89p+0, 0x1.9e4f864c9a038p-4, 0x1.45d4c5a3c45fbp-1, 0x1.57c4bdf6c1208p-4,
    0x1.0b26ebfd2dc81p-3, 0x1.6ca8d3b76afdbp-10, -0x1.6dbfadcc577e4p-8, 0x1.d3739e03f9c77p-4,
    0x1.6ca8d3b77a5cap-10, -0x1.6dbfadcc59223p-8, 0x1.0b26ebfd2deabp-3, -0x1.93395e2c0a29cp-10,
    -0x1.ca49ab19f6b7bp-5, 0x1.d3739e03fa0cap-4, -0x1.93395e2bfacb1p-10, -0x1.ca49ab19f6ec2p-5,
    0x1.a7499f6e589cbp-1, 0x1.27e54b2c6edeap-7, -0x1.9e4f864c7fb6dp-4, 0x1.71980233e8301p-1,
    -0x1.27e54b2c9694bp-7, 0x1.9e4f864c8b189p-4, 0x1.a7499f6e586c0p-1, -0x1.27e54b2ca28bep-7,
    0x1.9e4f864c9a038p-4, 0x1.71980233e860dp-1, 0x1.27e54b2c7ad3dp-7, -0x1.9e4f864c8ea1dp-4,
    0x1.153e67d507912p-1, -0x1.27e54b2caed22p-7, 0x1.9e4f864c8ed52p-4, 0x1.490b77877ab34p-1,
    -0x1.27e54b2cbabb8p-7, 0x1.9e4f864c8f74ap-4, 0x1.153e67d507c1fp-1, 0x1.27e54b2c62900p-7,
    -0x1.9e4f864c89227p-4, 0x1.490b77877ae42p-1, 0x1.27e54b2c56a76p-7, -0x1.9e4f864c8882ap-4,
    0x1.01970ab334a25p-5, 0x1.0c1d8b23d3eafp-1, 0x1.4754b6bcb6845p-1, 0x1.27e54b2c7a7fap-7,
    0x1.08a484ac247dcp-1, -0x1.4c38ba7a8c152p-3, 0x1.01970ab3348d7p-5, 0x1.0a0eac0ee1cc5p-1,
    0x1.45d4c5a3c45fbp-1, 0x1.27e54b2c7ad3dp-7, 0x1.0ab363c1169c5p-1, -0x1.4638f616c3826p-3,
    -0x1.fe2ef65030f5ep-6, 0x1.957bd84a1a36ap-3, -0x1.93395e2c09fa9p-10, -0x1.1c24d14cfa631p-7,
    0x1.957bd84a1a0c7p-3, -0x1.93395e2c010adp-10, -0x1.fe2ef65030cc6p-6, 0x1.9db7549de2873p-3,
    0x1.6ca8d3b8439b6p-10, -0x1.1c24d14cfa0f4p-7, 0x1.9db7549de25cfp-3, 0x1.6ca8d3b84c89ap-10,
    -0x1.5f3a9715d125cp-4, -0x1.49138b738c834p-3, 0x1.1306cc537a894p-3, -0x1.9e4f864c8e5ccp-4,
    -0x1.4c38ba7a8a948p-3, 0x1.f25f17dcc48e3p-2, -0x1.5f3a9715d0e09p-4, -0x1.4f134fd753954p-3,
    0x1.57c4bdf6c1208p-4, -0x1.9e4f864c8ea1dp-4, -0x1.4638f616c3826p-3, 0x1.12f8a74468c56p-1,
    -0x1.0b26ebfd2ca70p-3, -0x1.93395e2b2883ap-10, -0x1.ca49ab19f8048p-5, -0x1.d3739e03f39bdp-4,
    -0x1.93395e2b37e29p-10, -0x1.ca49ab19f7d00p-5, -0x1.0b26ebfd2cc9ap-3, 0x1.6ca8d3b879662p-10,
    -0x1.6dbfadcc84121p-8, -0x1.d3739e03f3e11p-4, 0x1.6ca8d3b86a080p-10, -0x1.6dbfadcc826f4p-8,
    0x1.964f656d4fdf5p-3, -0x1.fe2ef6501cbfap-6, -0x1.0b26ebfd2db85p-3, 0x1.153e67d5077a8p-1,
    0x1.fe2ef6500caf2p-6, 0x1.0b26ebfd2ed96p-3, 0x1.964f656d4f854p-3, 0x1.fe2ef65020e58p-6,
    0x1.0b26ebfd2dc81p-3, 0x1.153e67d507912p-1, -0x1.fe2ef65030f5ep-6, -0x1.0b26ebfd2ca70p-3,
    0x1.29f84ae2328c1p+0, 0x1.fe2ef64ffe459p-6, 0x1.0b26ebfd2e20ap-3, 0x1.a1d4c3af99726p-1,
    0x1.fe2ef65012c2dp-6, 0x1.0b26ebfd342ddp-3, 0x1.29f84ae232977p+0, -0x1.fe2ef6503e2cdp-6,
    -0x1.0b26ebfd2dc99p-3, 0x1.a1d4c3af99894p-1, -0x1.fe2ef65029af8p-6, -0x1.0b26ebfd27bc4p-3,
    -0x1.01970ab340d22p-5, 0x1.957bd84a1a60fp-3, -0x1.93395e2b316f5p-10, -0x1.27e54b2cae7e9p-7,
    0x1.9db7549de233ep-3, 0x1.6ca8d3b773e90p-10, -0x1.01970ab340bd3p-5, 0x1.9db7549de25e2p-3,
    0x1.6ca8d3b76afdbp-10, -0x1.27e54b2caed22p-7, 0x1.957bd84a1a36ap-3, -0x1.93395e2b2883ap-10,
    0x1.fe2ef64ffe459p-6, 0x1.0b3ce595b6c7cp-1, -0x1.449f91768991fp-3, 0x1.1c24d14c78d56p-7,
    0x1.0b50d8d3b6226p-1, 0x1.4867ba65f6916p-1, 0x1.fe2ef64ffe1b6p-6, 0x1.092e0680c4bbep-1,
    -0x1.4a9f55da4ebb1p-3, 0x1.1c24d14c78830p-7, 0x1.0941f9bec4169p-1, 0x1.46e7c94d05473p-1,
    0x1.5f3a9715d071fp-4, -0x1.93395e2bfb76cp-10, -0x1.ca49ab19f835bp-5, 0x1.9e4f864c8e8fep-4,
    0x1.6ca8d3b7a663ep-10, -0x1.6dbfadcc55f41p-8, 0x1.5f3a9715d02cep-4, 0x1.6ca8d3b7b4e83p-10,
    -0x1.6dbfadcc577e4p-8, 0x1.9e4f864c8ed52p-4, -0x1.93395e2c09fa9p-10, -0x1.ca49ab19f8048p-5,
    0x1.0b26ebfd2e20ap-3, -0x1.449f91768991fp-3, 0x1.126f256fc8e1ap-1, 0x1.d3739e03f9b36p-4,
    -0x1.44c77cce8bf0cp-3, 0x1.16399593f305ap-3, 0x1.0b26ebfd2e430p-3, -0x1.4a9f55da50c71p-3,
    0x1.f14c143384114p-2, 0x1.d3739e03f9f8bp-4, -0x1.4ac741325325ep-3, 0x1.5e2a5077af41cp-4,
    0x1.19aadc14b9c9ap-1, -0x1.1c24d14cef7ddp-7, -0x1.d3739e03f42fap-4, 0x1.490b77877a8e1p-1,
    0x1.1c24d14c96d0ep-7, 0x1.d3739e03fa5b3p-4, 0x1.19aadc14b9a46p-1, 0x1.1c24d14ca1b70p-7,
    0x1.d3739e03f9c77p-4, 0x1.490b77877ab34p-1, -0x1.1c24d14cfa631p-7, -0x1.d3739e03f39bdp-4,
    0x1.a1d4c3af99726p-1, 0x1.1c24d14c78d56p-7, 0x1.d3739e03f9b36p-4, 0x1.705149f592aa6p-1,
    0x1.1c24d14c8438fp-7, 0x1.d3739e03faf11p-4, 0x1.a1d4c3af99980p-1, -0x1.1c24d14cf971ep-7,
    -0x1.d3739e03f7461p-4, 0x1.705149f592cfbp-1, -0x1.1c24d14cee0f0p-7, -0x1.d3739e03f608bp-4,
    -0x1.01970ab34b2c8p-5, 0x1.957bd84a1a369p-3, -0x1.93395e2b40cd9p-10, -0x1.27e54b2cba689p-7,
    0x1.9db7549de25e3p-3, 0x1.6ca8d3b78347dp-10, -0x1.01970ab34b178p-5, 0x1.9db7549de2886p-3,
    0x1.6ca8d3b77a5cap-10, -0x1.27e54b2cbabb8p-7, 0x1.957bd84a1a0c7p-3, -0x1.93395e2b37e29p-10,
    0x1.fe2ef65012c2dp-6, 0x1.0b50d8d3b6226p-1, -0x1.44c77cce8bf0cp-3, 0x1.1c24d14c8438fp-7,
    0x1.0b64ce7fb76bcp-1, 0x1.488fa0e1f5392p-1, 0x1.fe2ef65012982p-6, 0x1.0941f9bec4014p-1,
    -0x1.4ac7413251575p-3, 0x1.1c24d14c83e5cp-7, 0x1.0955ef6ac54acp-1, 0x1.470fafc903df7p-1,
    0x1.5f3a9715d2a02p-4, -0x1.93395e2bf286fp-10, -0x1.ca49ab19f8014p-5, 0x1.9e4f864c8f2f9p-4,
    0x1.6ca8d3b79d74ap-10, -0x1.6dbfadcc5798cp-8, 0x1.5f3a9715d25afp-4, 0x1.6ca8d3b7abf8dp-10,
    -0x1.6dbfadcc59223p-8, 0x1.9e4f864c8f74ap-4, -0x1.93395e2c010adp-10, -0x1.ca49ab19f7d00p-5,
    0x1.0b26ebfd342ddp-3, 0x1.4867ba65f6916p-1, 0x1.16399593f305ap-3, 0x1.d3739e03faf11p-4,
    0x1.488fa0e1f5392p-1, 0x1.bc56d17617599p+0, 0x1.0b26ebfd34506p-3, 0x1.46e7c94d04cd2p-1,
    0x1.5e2a5077af74cp-4, 0x1.d3739e03fb35ep-4, 0x1.470fafc903750p-1, 0x1.af7243cb13f03p+0,
    0x1.964f656d50de3p-3, -0x1.fe2ef6501c962p-6, -0x1.0b26ebfd2ddafp-3, 0x1.153e67d507ab6p-1,
    0x1.fe2ef6500c857p-6, 0x1.0b26ebfd2efc0p-3, 0x1.964f656d50841p-3, 0x1.fe2ef65020bc2p-6,
    0x1.0b26ebfd2deabp-3, 0x1.153e67d507c1fp-1, -0x1.fe2ef65030cc6p-6, -0x1.0b26ebfd2cc9ap-3,
    0x1.29f84ae232977p+0, 0x1.fe2ef64ffe1b6p-6, 0x1.0b26ebfd2e430p-3, 0x1.a1d4c3af99980p-1,
    0x1.fe2ef65012982p-6, 0x1.0b26ebfd34506p-3, 0x1.29f84ae232a28p+0, -0x1.fe2ef6503e032p-6,
    -0x1.0b26ebfd2debfp-3, 0x1.a1d4c3af99ae8p-1, -0x1.fe2ef65029853p-6, -0x1.0b26ebfd27deap-3,
    0x1.01970ab342c8cp-5, 0x1.9db7549de25d0p-3, 0x1.6ca8d3b88251bp-10, 0x1.27e54b2c623d1p-7,
    0x1.957bd84a1995fp-3, -0x1.93395e2c13167p-10, 0x1.01970ab342b3ep-5, 0x1.957bd84a196bap-3,
    -0x1.93395e2c0a29cp-10, 0x1.27e54b2c62900p-7, 0x1.9db7549de2873p-3, 0x1.6ca8d3b879662p-10,
    -0x1.fe2ef6503e2cdp-6, 0x1.092e0680c4bbep-1, -0x1.4a9f55da50c71p-3, -0x1.1c24d14cf971ep-7,
    0x1.0941f9bec4014p-1, 0x1.46e7c94d04cd2p-1, -0x1.fe2ef6503e032p-6, 0x1.0b3ce595b7002p-1,
    -0x1.449f917687d02p-3, -0x1.1c24d14cf91c1p-7, 0x1.0b50d8d3b645bp-1, 0x1.4867ba65f70abp-1,
    -0x1.5f3a9715d0265p-4, 0x1.6ca8d3b835188p-10, -0x1.6dbfadcc82881p-8, -0x1.9e4f864c88dd4p-4,
    -0x1.93395e2b2e222p-10, -0x1.ca49ab19f6e90p-5, -0x1.5f3a9715cfe14p-4, -0x1.93395e2b3ca5ep-10,
    -0x1.ca49ab19f6b7bp-5, -0x1.9e4f864c89227p-4, 0x1.6ca8d3b8439b6p-10, -0x1.6dbfadcc84121p-8,
    -0x1.0b26ebfd2dc99p-3, -0x1.4a9f55da4ebb1p-3, 0x1.f14c143384114p-2, -0x1.d3739e03f7461p-4,
    -0x1.4ac7413251575p-3, 0x1.5e2a5077af74cp-4, -0x1.0b26ebfd2debfp-3, -0x1.449f917687d02p-3,
    0x1.126f256fc8804p-1, -0x1.d3739e03f78b2p-4, -0x1.44c77cce8a6c8p-3, 0x1.16399593f198ap-3,
    0x1.19aadc14ba097p-1, -0x1.1c24d14cef2a0p-7, -0x1.d3739e03f474ep-4, 0x1.490b77877abefp-1,
    0x1.1c24d14c967d1p-7, 0x1.d3739e03faa08p-4, 0x1.19aadc14b9e45p-1, 0x1.1c24d14ca1633p-7,
    0x1.d3739e03fa0cap-4, 0x1.490b77877ae42p-1, -0x1.1c24d14cfa0f4p-7, -0x1.d3739e03f3e11p-4,
    0x1.a1d4c3af99894p-1, 0x1.1c24d14c78830p-7, 0x1.d3739e03f9f8bp-4, 0x1.705149f592cfbp-1,
    0x1.1c24d14c83e5cp-7, 0x1.d3739e03fb35ep-4, 0x1.a1d4c3af99ae8p-1, -0x1.1c24d14cf91c1p-7,
    -0x1.d3739e03f78b2p-4, 0x1.705149f592f4ep-1, -0x1.1c24d14cedbabp-7, -0x1.d3739e03f64dep-4,
    0x1.01970ab3386e9p-5, 0x1.9db7549de232bp-3, 0x1.6ca8d3b872f31p-10, 0x1.27e54b2c56537p-7,
    0x1.957bd84a19c02p-3, -0x1.93395e2c03b6cp-10, 0x1.01970ab33859ap-5, 0x1.957bd84a1995ep-3,
    -0x1.93395e2bfacb1p-10, 0x1.27e54b2c56a76p-7, 0x1.9db7549de25cfp-3, 0x1.6ca8d3b86a080p-10,
    -0x1.fe2ef65029af8p-6, 0x1.0941f9bec4169p-1, -0x1.4ac741325325ep-3, -0x1.1c24d14cee0f0p-7,
    0x1.0955ef6ac54acp-1, 0x1.470fafc903750p-1, -0x1.fe2ef65029853p-6, 0x1.0b50d8d3b645bp-1,
    -0x1.44c77cce8a6c8p-3, -0x1.1c24d14cedbabp-7, 0x1.0b64ce7fb779ep-1, 0x1.488fa0e1f5a35p-1,
    -0x1.5f3a9715cdf82p-4, 0x1.6ca8d3b83e06cp-10, -0x1.6dbfadcc80e48p-8, -0x1.9e4f864c883d6p-4,
    -0x1.93395e2b37107p-10, -0x1.ca49ab19f71d5p-5, -0x1.5f3a9715cdb30p-4, -0x1.93395e2b45942p-10,
    -0x1.ca49ab19f6ec2p-5, -0x1.9e4f864c8882ap-4, 0x1.6ca8d3b84c89ap-10, -0x1.6dbfadcc826f4p-8,
    -0x1.0b26ebfd27bc4p-3, 0x1.46e7c94d05473p-1, 0x1.5e2a5077af41cp-4, -0x1.d3739e03f608bp-4,
    0x1.470fafc903df7p-1, 0x1.af7243cb13f03p+0, -0x1.0b26ebfd27deap-3, 0x1.4867ba65f70abp-1,
    0x1.16399593f198ap-3, -0x1.d3739e03f64dep-4, 0x1.488fa0e1f5a35p-1, 0x1.bc56d176172efp+0,
};
static const double v[24] = {
    0x1.f2433e3974ceep-41, -0x1.669ed869572c5p-8, -0x1.f88257c131c90p+0, -0x1.4e424e53e83e0p-43,
    0x1.636eff4eddf12p-10, 0x1.6cfaa0bc94070p-9, 0x1.f2433e3974b0ap-41, -0x1.669ed869685bbp-8,
    -0x1.f88257c131cafp+0, -0x1.4e424e53e7c52p-43, 0x1.636eff4f22eeep-10, 0x1.6cfaa0bc97e90p-9,
    -0x1.be678be606464p-44, 0x1.943cadf1b9d6cp-1, -0x1.3aadc9d327673p-26, 0x1.119df3faf5adcp-42,
    0x1.943cadf1b9eebp-1, -0x1.36d6b0e9802f7p-26, -0x1.be678be605551p-44, 0x1.943cadf1b9f94p-1,
    -0x1.3aadc1e68479ep-26, 0x1.119df3faf5ea1p-42, 0x1.943cadf1ba113p-1, -0x1.36d6a8fcdd423p-26,
};

static ipx_problem captured(ipx_contact contact[K])
{
    for (int i = 0; i < K; i++)
        contact[i] = (ipx_contact){.mu = 0.5, .e = 0.25, .v_capture = 0.1, .v_plastic = 0.0};
    return (ipx_problem){.k = K, .W = W, .v = v, .contact = contact};
}

/* ipx_check on every kind the model promises, with the checker's default tolerances. */
static void ensure_clean(const ipx_params *par, const ipx_problem *p, const ipx_result *r)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = par->model->promises(par->value);
    ipx_check_report report;
    const int violations = ipx_check(p, r, &opt, &report);
    if (violations) {
        char buf[1024];
        ipx_check_format(&report, buf, sizeof buf);
        printf("%s", buf);
    }
    ENSURE(violations == 0);
}

static void test_two_wheeler_edge_and_face_impact_is_solved_without_fallback(void)
{
    ipx_contact contact[K];
    const ipx_problem p = captured(contact);
    const ipx_params par = ipx_test_params("bowling", "e_star=0.5,mu_dynamic_ratio=0.5");
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r);
    printf("  bowling: %s, %d LCP solves, %d pivots, limits 0x%x, dT %.6f J\n", ipx_status_name(st),
           r.counts.lcp_solves, r.counts.pivots, r.counts.limits_hit, r.delta_ke);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) return;
    ENSURE((r.counts.limits_hit & (IPX_BOWLING_LCP_USED | IPX_BOWLING_INELASTIC_USED)) == 0);
    ENSURE(r.delta_ke < 0.0);
    ensure_clean(&par, &p, &r);
}

static void test_the_same_problem_solves_as_the_anitescu_potra_lcp(void)
{
    ipx_contact contact[K];
    const ipx_problem p = captured(contact);
    const ipx_params par = ipx_test_params("aplcp", "");
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r);
    printf("  aplcp: %s, %d pivots, dT %.6f J\n", ipx_status_name(st), r.counts.pivots, r.delta_ke);
    ENSURE(st == IPX_OK);
    if (st == IPX_OK) ensure_clean(&par, &p, &r);
}

int main(void)
{
    RUN(test_two_wheeler_edge_and_face_impact_is_solved_without_fallback);
    RUN(test_the_same_problem_solves_as_the_anitescu_potra_lcp);
    return ipx_test_exit();
}
