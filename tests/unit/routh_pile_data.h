/* Regression data of test_routh_host_accuracy.c: an island of the family of piles of issue
   [piles] (tests/support/ode_pile_scene.h; bench_piles seed 6: 311 boxes of 0.043 m, 0.06-0.4
   kg, dropped at once on a floor, mu 0.346 with fixed friction bounds, bounce 0.79 above 0.090
   m/s, QuickStep at h = 1.17 ms), one of the 282 impacts on which routh took all of its 20
   impulse steps and finished with the Anitescu-Potra fallback (limits_hit bit
   IPX_ROUTH_HIT_MAX_STEPS) while it ended only at tol_v (1e-9) of the largest approach. Captured
   with bench_piles' event callback as the adapter handed it to the model (hexadecimal): k = 13
   contacts, v_tol = |g| h = 0.0115 m/s, every contact with the same e and v_capture (v_plastic
   0). W is symmetric: the 3 x 3 blocks of its upper triangle that are not all zero, block
   (row, col) with entries W(3 row + r, 3 col + c) = blk[9 b + r + 3 c], then v and each
   contact's mu. */
/* clang-format off */
#ifndef IMPAX_TEST_ROUTH_PILE_DATA_H
#define IMPAX_TEST_ROUTH_PILE_DATA_H

enum { pile6_13_k = 13, pile6_13_blocks = 43 };
static const double pile6_13_v_tol = 0x1.773b2048a535cp-7;
static const double pile6_13_e = 0x1.9299da598182dp-1, pile6_13_v_capture = 0x1.71f263a8dc52cp-4;
static const int pile6_13_row[43] = {
    0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 2, 3, 4, 4, 5, 4,
    5, 6, 5, 6, 7, 5, 6, 7, 8, 7, 8, 9, 7, 8, 9, 10,
    7, 8, 9, 10, 11, 7, 8, 9, 10, 11, 12,
};
static const int pile6_13_col[43] = {
    0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6,
    6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 10, 10, 10, 10,
    11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12,
};
static const double pile6_13_blk[387] = {
    0x1.dba2a3684195fp+4, -0x1.d72e82eadd518p+2, 0x1.b04f52efbc9c5p+2, -0x1.d72e82eadd518p+2,
    0x1.f3f9fc884715ep+4, 0x1.442f09fea055ap-2, 0x1.b04f52efbc9c5p+2, 0x1.442f09fea055ap-2,
    0x1.bafb6cdcb2eap+4, 0x1.ef84c6756e576p+4, -0x1.106ee0c78ec9ap+3, 0x1.aff7e023b156dp+2,
    -0x1.b3d3a510a62bep-1, 0x1.937b4ef947232p+4, 0x1.34a71a38d3015p-2, 0x1.838c83aa92c75p+2,
    0x1.e0f83545496a8p-2, 0x1.69d7bc1e2e06fp+4, 0x1.032e127de677p+5, -0x1.08c228a1336c5p+0,
    0x1.8375f4b038acfp+2, -0x1.08c228a1336c5p+0, 0x1.8423b6dab5eap+4, 0x1.d8a4b28549fabp-2,
    0x1.8375f4b038acfp+2, 0x1.d8a4b28549fabp-2, 0x1.6fac7dbd6b151p+4, -0x1.4c92a40a16886p+1,
    0x1.c1de41ddf7aeap+2, 0x1.ee3e1bd130b9fp+2, -0x1.2bb25c8f22496p+2, 0x1.2593a66abd39cp+3,
    0x1.4515d9340181p+2, 0x1.7c62f41c6ef64p+2, -0x1.7062477e67314p+2, -0x1.b6e20787f7389p+0,
    -0x1.a6cca487b7b8ap+1, 0x1.ac6fbc1d2c7ep+1, 0x1.d8c5989181c6ap+1, -0x1.5876ceeb77286p+2,
    0x1.6081ae78df7e2p+2, 0x1.83f0c4d01c93dp+2, 0x1.798b0c8acba16p+2, -0x1.7e882fb29e3c9p+2,
    -0x1.953ebbf6cfee3p+2, 0x1.d0b61b30bba66p+4, 0x1.011ce14159083p+3, 0x1.45e390c57162cp+1,
    0x1.011ce14159083p+3, 0x1.ac77ca8358aaep+4, -0x1.35bcc75de3822p-1, 0x1.45e390c57162cp+1,
    -0x1.35bcc75de3822p-1, 0x1.8e4393bdadb19p+4, -0x1.92662502a102ap+0, 0x1.5e7d4d650e328p+2,
    0x1.f0fbc2966b78fp+2, 0x1.1a039bed08a12p+2, -0x1.16ca7e06f4066p+2, 0x1.68006655e5b8p+2,
    -0x1.679e8839c7ef1p+2, -0x1.4489826777406p+2, -0x1.db3ac1cea1051p+3, -0x1.0f85042720b7ep+1,
    0x1.4df5098a5264ap+1, 0x1.da8596faed509p+1, 0x1.43daf77ba747p+2, -0x1.ddd885e1b995cp-1,
    0x1.902a1f7e833b8p+2, -0x1.65be9ba501228p+2, -0x1.3b3580cebfe58p+2, -0x1.79ce79a340548p+3,
    0x1.b037452658eefp+4, 0x1.913e326241931p+2, 0x1.42cf4cfd54005p+1, -0x1.33c38de29fb06p+3,
    0x1.6ce7b428e3974p+3, -0x1.27a6dae83525dp-1, 0x1.96bf0eb2c8188p-5, -0x1.4f9169ad4c2afp-2,
    0x1.b70afe3a18ebfp+2, 0x1.96bf8c7e7bb68p+4, -0x1.e3c4aaca6861cp+2, 0x1.3da0b832b58c4p-4,
    -0x1.e3c4aaca6861cp+2, 0x1.d53a8fc52b6c1p+4, -0x1.394c45ff470aap-2, 0x1.3da0b832b58c4p-4,
    -0x1.394c45ff470aap-2, 0x1.7afc277f7c75ap+4, 0x1.379efc76e92p-7, -0x1.3bad4d2ef3ecdp+0,
    -0x1.812ad283c2046p+1, -0x1.bff059db97bf6p+0, 0x1.c1aeb99fd31a8p-1, 0x1.40492c8b9adcfp+2,
    0x1.991ef084743b6p+0, -0x1.ee667e5f56601p+0, -0x1.6a71890b0457dp+2, 0x1.94e65b03363ecp-2,
    0x1.02cc7d1e65c64p+1, 0x1.4072a91ad7679p+2, -0x1.6f5a536bb8df5p+0, 0x1.d13c70c4a8f49p+1,
    0x1.ebff6a2fad7f4p+1, 0x1.a1645bc1a1a22p+0, -0x1.b0e7d2633ab4ep+0, -0x1.4456a3a16cd61p+1,
    0x1.79b553842f08ep+5, 0x1.02a11266668f8p+2, -0x1.e01c8d05fcdaep+4, 0x1.02a11266668f8p+2,
    0x1.6ae7b26b17cd2p+6, 0x1.888cc47cfa485p+0, -0x1.e01c8d05fcdaep+4, 0x1.888cc47cfa485p+0,
    0x1.ef166919b85f2p+5, 0x1.5ac85a740607dp+3, 0x1.b27ea6874b4bdp+4, -0x1.fb6cd91d4a4d1p+4,
    -0x1.cd7ff893eb3d9p+0, -0x1.530d7a5be8cd1p+3, 0x1.6dd553fdc5ecp+1, 0x1.aacfcceb16b33p+3,
    0x1.2f174ab0844c9p+4, -0x1.e3a4263fc1fadp+4, 0x1.4d97e6a719089p+6, -0x1.6293c0e4d3de8p+3,
    0x1.b58c70a928723p+3, -0x1.6293c0e4d3de8p+3, 0x1.e2aacb619cfd2p+5, 0x1.0908c48326c3p+3,
    0x1.b58c70a928723p+3, 0x1.0908c48326c3p+3, 0x1.d1d6e62f0af9bp+5, 0x1.0c43119e73724p+3,
    -0x1.048d0be1004b5p+2, -0x1.001be1d5a698fp+5, -0x1.f41ffb95431p+1, -0x1.2226c922c4ae8p+5,
    0x1.5d445bcba79d2p+1, 0x1.ff5b83fe5649ap+4, -0x1.6a7fd7106186p+1, -0x1.cdb0f8667fee1p+5,
    0x1.acd463e80147p+5, 0x1.65111f73a255bp+0, 0x1.b748f05da0edcp+3, -0x1.1db60325be059p+5,
    0x1.1abf37e041192p+6, 0x1.0d2658afcffc4p+3, 0x1.8fb37e7bf7616p+4, -0x1.651ddf026791p+2,
    0x1.35471441de93ap+5, 0x1.aee37860433c8p+5, 0x1.8eebc0b28cdfp+0, 0x1.9229eedd7a6e7p+4,
    0x1.8eebc0b28cdfp+0, 0x1.9601a9e461884p+6, -0x1.655cad472dce9p+2, 0x1.9229eedd7a6e7p+4,
    -0x1.655cad472dce9p+2, 0x1.14cd670e6e375p+6, 0x1.a349478654412p+1, -0x1.13e21b02c2cf9p-3,
    0x1.468581ea308acp-1, -0x1.fe944781676d8p+1, 0x1.48d7a5c402c56p+1, -0x1.5ec7a6fc1ed2ep+3,
    -0x1.7d3c7afa043a1p+1, -0x1.2de59459006fbp-2, -0x1.5e6ef87acfd0ep+2, 0x1.7221ae9ac3fbfp+1,
    -0x1.aef61f891f7dap-2, -0x1.a222aea9faa56p+2, -0x1.0b74cc3435d35p+0, 0x1.3d8f8ce38720ep+2,
    -0x1.3736f076ac5c2p+1, -0x1.7b9b737aaf612p+1, -0x1.2c9b56acffed4p-2, -0x1.a8bcee19b03ecp+1,
    0x1.9e6a0f11db03ap+5, -0x1.0b5c9ddc8c723p+3, 0x1.f0f523ac51ac2p+1, -0x1.0b5c9ddc8c723p+3,
    0x1.2bd4dfae61becp+5, 0x1.c0dc26887654fp+3, 0x1.f0f523ac51ac2p+1, 0x1.c0dc26887654fp+3,
    0x1.2232907da7ab6p+5, -0x1.31334862fcdbap+1, -0x1.6fd85b71ec44ap-2, 0x1.46ad6e67e6805p-1,
    0x1.7c8b6caa83a9p+3, 0x1.99e80971d7046p+1, -0x1.5ef28aca5b479p+3, 0x1.298e4d4798d7dp+3,
    0x1.eb4fd70f7109cp+1, -0x1.46ea34f96ca68p+3, 0x1.93dd08873e042p+0, 0x1.786934918f64p+1,
    -0x1.a255cec67885ep+2, 0x1.535085f65ebc4p+1, -0x1.1d6766bcc144ep+2, -0x1.375cfdd4c9afap+1,
    0x1.2848cf383b2eep+3, 0x1.e9366688d78d9p+1, -0x1.c14ca1729bebp+3, 0x1.6315bb41dbf79p+5,
    -0x1.ccbaa92f7c108p+1, 0x1.f07eb5bbad5b9p+1, 0x1.8de7a43eaa442p+3, 0x1.824c66ac7c88ep+4,
    0x1.c08f53d936614p+3, -0x1.b67bfcf5e1e0fp-3, 0x1.8a30594e027c3p+3, 0x1.e5465f191a831p+3,
    0x1.505bf6a166d83p+5, 0x1.7ad4d2db320fap+1, -0x1.a564acc49452p-3, 0x1.7ad4d2db320fap+1,
    0x1.95a95a4297a9ap+5, 0x1.8a2938e7e415cp+3, -0x1.a564acc49452p-3, 0x1.8a2938e7e415cp+3,
    0x1.3c4ffc16321dcp+5, -0x1.d660cc904ae81p+3, 0x1.106d466e100a8p+3, 0x1.ab42c8ac3f4bfp+2,
    -0x1.0d2d7c588a444p+3, 0x1.57dc68276d88p-5, -0x1.c6ea1642cff3fp+3, -0x1.aeabea64a67f6p+2,
    -0x1.d00de6f8a97f4p+3, -0x1.da65cafb8909p+4, -0x1.d8a0921f5e1dcp+2, -0x1.805066085cfcdp+3,
    -0x1.2b5af17a15c7ap+3, -0x1.4ce10b38b22d2p+2, -0x1.1e8a7ef7ac367p+3, -0x1.0d4fdbea6446bp+3,
    -0x1.b07cc3b18c3bep+2, -0x1.cd03eb32fa6c5p+3, -0x1.9ef2bc12ee148p+3, 0x1.2cf430b005d3p+5,
    0x1.03cff2192d7b9p+3, -0x1.afd681a414308p+2, 0x1.03cff2192d7b9p+3, 0x1.60ee241f07699p+4,
    0x1.c86410b32238bp+3, -0x1.afd681a414308p+2, 0x1.c86410b32238bp+3, 0x1.dc84e67d53f44p+4,
    -0x1.4f43a4855fac4p+2, 0x1.14ad5cff2c6fcp+2, 0x1.ae9c48dde3ab6p+2, 0x1.20cfc292074fcp+4,
    -0x1.775a051c1f5dp+3, -0x1.c4500def4f86fp+3, 0x1.cb60bd3f82c81p+3, -0x1.b7a16a7b7590cp+2,
    -0x1.ff8dba18c3eep+2, -0x1.9b466a5fec878p+0, -0x1.7800dd4146877p+2, -0x1.2c5f35b9c65d8p+3,
    0x1.5df3b6b907368p+3, 0x1.072830c4e212ap+3, -0x1.0f089d52fe78ap+3, 0x1.cbe884ede1dd3p+3,
    -0x1.bb96eaf5434d3p+2, -0x1.8a41f3f9a5e2cp+4, 0x1.c28a74c78c2bbp+4, 0x1.f6da33ee20f92p+1,
    -0x1.b0a60db999a8ep+2, -0x1.2782b9cb61f64p+4, 0x1.4a98a2bdb019p+3, 0x1.c959f10aa4595p+3,
    0x1.c74a40a52809ap+3, 0x1.b21566a7faf4fp+2, 0x1.0310a8f3e80bcp+3, 0x1.77c4b821f89d6p+4,
    -0x1.279cee7776018p+3, 0x1.c82ecf5bebf87p+3, -0x1.279cee7776018p+3, 0x1.21e5958637265p+5,
    0x1.b2e7a09134be1p+2, 0x1.c82ecf5bebf87p+3, 0x1.b2e7a09134be1p+2, 0x1.dbcb88ce00166p+4,
    0x1.a775ec40fb9f7p+3, -0x1.ede25b02012d8p+1, 0x1.b51f915a7befcp+2, -0x1.259ff27ebf49dp+4,
    0x1.1906cd6666f2dp+2, -0x1.cad6e66a137acp+3, -0x1.ca52fc96ecdeep+3, 0x1.af41e76110054p+2,
    -0x1.c01f9e45e7324p+2, 0x1.359878ae310d7p+3, 0x1.8699f6ca811edp+2, -0x1.2e568b2a0659p+3,
    -0x1.686b5b1c8a6a5p+3, -0x1.ef4bc490e407cp+3, -0x1.0e6a159dc9677p+3, -0x1.cadb6acb9cb85p+3,
    0x1.b33b94fe2e464p+2, 0x1.35cb39ba12ee8p+3, 0x1.35f779ef4a22cp+3, -0x1.103bf909b9fb3p+2,
    -0x1.b234516b5cafp+2, 0x1.21aa33828e331p+4, 0x1.a88a3f5cb324cp+4, 0x1.cb00687f8d2dcp+3,
    -0x1.c755275952e8cp+3, -0x1.ade0d33e2f3ffp+2, 0x1.b99a0a8aff33ep+2, 0x1.cb8684d28c6cp+3,
    0x1.192d1c6ad2507p+3, 0x1.c9e5b7a1570f3p+3, 0x1.1bea9c0e70b9ep+3, 0x1.58700de8d896p-1,
    0x1.b499e79e661a4p+2, -0x1.c839b70c26789p+3, -0x1.aeb0d37ba975bp+2, -0x1.d92d2a7b0777p+3,
    0x1.77c24c5e2ce52p+4, -0x1.24e1bad6182a7p+3, -0x1.c9f0a110c9185p+3, -0x1.24e1bad6182a7p+3,
    0x1.228bb348eac4cp+5, -0x1.b05f27cd287bep+2, -0x1.c9f0a110c9185p+3, -0x1.b05f27cd287bep+2,
    0x1.da81b90c64928p+4, 0x1.6b1a73474b585p+4, -0x1.018f2eaefa1dbp+3, 0x1.b879118c204f3p+2,
    0x1.038d1c7f1a502p+3, -0x1.d85cf5a226a22p+2, -0x1.c83cde16930ddp+3, 0x1.b0c76bb5d251fp+2,
    0x1.cbde256b76b8fp+3, 0x1.d4f4e9c7bc816p+3, 0x1.ee7ff471e28aep+3, 0x1.879cf2ccfa481p+3,
    -0x1.2f5acf69b6eeep+3, 0x1.37f1c271abc58p+2, 0x1.b337595d520b4p+0, -0x1.1022d70663995p+3,
    0x1.b296f7f61685cp+2, 0x1.c8d640376fe84p+3, -0x1.fe2f913256188p+0, 0x1.cee82f92cbap-3,
    -0x1.0e3761a2823a9p+3, -0x1.b303dd80e2275p+2, -0x1.0f80feaad501ep+3, 0x1.d9d0d939078f3p+3,
    0x1.cbf648d70f4e4p+3, 0x1.afc0b43bbe724p+2, -0x1.c649c6fe3c5dap+3, -0x1.d92c1ec140421p+3,
    0x1.35fb0b87654fcp+3, 0x1.204ad0c5101d6p+4, 0x1.caca46581afep+3, -0x1.12d1bec91b0bfp+2,
    0x1.a9425a1cdd04cp+4, 0x1.b56c21879fe34p+2, 0x1.b0903e5924a87p+2, -0x1.c73e8a7fdeb49p+3,
    0x1.b6b27c5a2154ap+2, 0x1.c289d1cfce09ap+4, -0x1.2625c2e661ebp+4, -0x1.cad530c39ca82p+3,
    0x1.f1a578665c8e4p+1, 0x1.4ea14f48d252bp+3, -0x1.b12f280aa2b18p+2, 0x1.b21e7e8c789ccp+2,
    -0x1.c8e30896ee5ep+3, 0x1.fe1284b084277p+2, 0x1.2cf4c39a2d8dp+5, 0x1.02817d5fde9f3p+3,
    0x1.b2ee08a9ded3p+2, 0x1.02817d5fde9f3p+3, 0x1.63aa9524c2668p+4, -0x1.c9d7cc1890b4dp+3,
    0x1.b2ee08a9ded3p+2, -0x1.c9d7cc1890b4dp+3, 0x1.d9c74fa3497fcp+4,
};
static const double pile6_13_v[39] = {
    -0x1.c5bf76f5479b5p-5, -0x1.c2b6bf95eb158p-3, -0x1.1e6bbbd905d67p-3, -0x1.ac91afcd93e62p-5,
    -0x1.a27cc1f566fffp-3, 0x1.1b47f176a3aa5p-8, 0x1.6978d0ff1acp-13, -0x1.fd2a39f7ce704p-7,
    -0x1.5cff58c92718p-13, 0x1.f90487244942p-10, -0x1.17d8a0c675b8p-12, 0x1.e66a9afbdddp-15,
    0x1.a92b0e4ee5203p-5, -0x1.57ff56331fcp-13, 0x1.aa1efecaa0903p-11, -0x1.924069c8fedap-10,
    0x1.16fa7472c9p-14, -0x1.d694b5729642bp-10, 0x1.1cb7a15bd7abdp-8, 0x1.427333d7e07bp-8,
    -0x1.3ed363f124084p-9, 0x1.e0d0549c1cf43p-6, -0x1.54d113c3c113dp-4, 0x1.72b34d59591cp-17,
    -0x1.30da4c90b24cp-12, -0x1.d371b34de24p-14, -0x1.cab75360f7d9ep-11, 0x1.904eb141c565fp-14,
    -0x1.1bab75d128ffep-14, 0x1.02b02a4a327b8p-15, 0x1.c6fbab63fbdeap-14, -0x1.07d70d9be9dc7p-15,
    0x1.41267d216da4ep-13, 0x1.18da6a67c2011p-13, -0x1.5094a8a50f8p-14, -0x1.64e92fec480d7p-12,
    0x1.3430e778dd3d5p-13, -0x1.71a97343b6dccp-15, -0x1.c957ed49af147p-13,
};
static const double pile6_13_mu[13] = {
    0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2,
    0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2,
    0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2, 0x1.62aa738a46c06p-2,
    0x1.62aa738a46c06p-2,
};

#endif
