#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "ode_kit.h"
#include "impax/ode.h"

#include <dlfcn.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

typedef struct info1 {
    unsigned char m, nub;
} info1;
typedef void (*info1_fn)(void *self, info1 *out);
typedef void (*info2_fn)(void *self, dReal fps, dReal erp, int rowskip, dReal *J1, dReal *J2,
                         int pairskip, dReal *rhs_cfm, dReal *lo_hi, int *findex);

static const char *class_name(int type)
{
    switch (type) {
    case dJointTypeBall: return "11dxJointBall";
    case dJointTypeHinge: return "12dxJointHinge";
    case dJointTypeSlider: return "13dxJointSlider";
    case dJointTypeContact: return "14dxJointContact";
    case dJointTypeUniversal: return "16dxJointUniversal";
    case dJointTypeHinge2: return "13dxJointHinge2";
    case dJointTypeFixed: return "12dxJointFixed";
    case dJointTypePR: return "9dxJointPR";
    case dJointTypePU: return "9dxJointPU";
    case dJointTypePiston: return "13dxJointPiston";
    case dJointTypePlane2D: return "14dxJointPlane2D";
    case dJointTypeDBall: return "12dxJointDBall";
    case dJointTypeDHinge: return "13dxJointDHinge";
    default: return NULL;
    }
}

int ode_oracle_rows(dJointID j, double J[][12], int max_rows)
{
    const char *cls = class_name(dJointGetType(j));
    if (!cls) return -1;
    char name1[96], name2[96];
    snprintf(name1, sizeof name1, "_ZN%s8getInfo1EPN7dxJoint5Info1E", cls);
    snprintf(name2, sizeof name2, "_ZN%s8getInfo2EddiPdS0_iS0_S0_Pi", cls);
    void *p1 = dlsym(RTLD_DEFAULT, name1), *p2 = dlsym(RTLD_DEFAULT, name2);
    if (!p1 || !p2) return -1;
    info1_fn f1;
    info2_fn f2;
    memcpy(&f1, &p1, sizeof f1);
    memcpy(&f2, &p2, sizeof f2);
    info1 in = {0, 0};
    f1((void *)j, &in);
    int m = in.m;
    if (m > max_rows || m > 8) return -1;
    dReal J1[8 * 6], J2[8 * 6], rhs_cfm[16], lo_hi[16];
    int findex[8];
    memset(J1, 0, sizeof J1);
    memset(J2, 0, sizeof J2);
    for (int i = 0; i < 8; i++) {
        rhs_cfm[2 * i] = 0.0;
        rhs_cfm[2 * i + 1] = 1e-10;
        lo_hi[2 * i] = -dInfinity;
        lo_hi[2 * i + 1] = dInfinity;
        findex[i] = -1;
    }
    f2((void *)j, 100.0, 0.2, 6, J1, J2, 2, rhs_cfm, lo_hi, findex);
    /* J1 belongs to ODE's internal first body: the caller's body 1 unless attached (0, b) */
    int reversed = !dJointGetBody(j, 0) && dJointGetBody(j, 1);
    for (int r = 0; r < m; r++) {
        memset(J[r], 0, 12 * sizeof(double));
        for (int c = 0; c < 6; c++) {
            J[r][(reversed ? 6 : 0) + c] = J1[6 * r + c];
            if (!reversed && dJointGetBody(j, 1)) J[r][6 + c] = J2[6 * r + c];
        }
    }
    return m;
}

int rows_rank(const double *rows, int n, int len, double tol)
{
    double basis[32][12];
    int rank = 0;
    double scale = 0.0;
    for (int i = 0; i < n * len; i++) scale = fmax(scale, fabs(rows[i]));
    for (int i = 0; i < n && rank < 32; i++) {
        double v[12];
        memcpy(v, rows + (size_t)len * i, (size_t)len * sizeof(double));
        for (int pass = 0; pass < 2; pass++) /* twice: classical Gram-Schmidt loses orthogonality */
            for (int b = 0; b < rank; b++) {
                double d = 0.0;
                for (int c = 0; c < len; c++) d += v[c] * basis[b][c];
                for (int c = 0; c < len; c++) v[c] -= d * basis[b][c];
            }
        double nv = 0.0;
        for (int c = 0; c < len; c++) nv += v[c] * v[c];
        nv = sqrt(nv);
        if (nv <= tol * (scale > 0.0 ? scale : 1.0)) continue;
        for (int c = 0; c < len; c++) basis[rank][c] = v[c] / nv;
        rank++;
    }
    return rank;
}

int same_row_space(double A[][12], int na, double B[][12], int nb, double tol)
{
    double all[24][12];
    if (na + nb > 24) return 0;
    memcpy(all, A, (size_t)na * sizeof all[0]);
    memcpy(all + na, B, (size_t)nb * sizeof all[0]);
    int ra = rows_rank(&A[0][0], na, 12, tol), rb = rows_rank(&B[0][0], nb, 12, tol);
    int rab = rows_rank(&all[0][0], na + nb, 12, tol);
    return ra == rb && rb == rab;
}

dBodyID kit_box(dWorldID w, double m, const double side[3], const double p[3], const double axis[3],
                double angle)
{
    dBodyID b = dBodyCreate(w);
    dMass mass;
    dMassSetBoxTotal(&mass, m, side[0], side[1], side[2]);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, p[0], p[1], p[2]);
    dMatrix3 R;
    dRFromAxisAndAngle(R, axis[0], axis[1], axis[2], angle);
    dBodySetRotation(b, R);
    return b;
}

dBodyID kit_ball(dWorldID w, double m, double r, const double p[3])
{
    dBodyID b = dBodyCreate(w);
    dMass mass;
    dMassSetSphereTotal(&mass, m, r);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, p[0], p[1], p[2]);
    return b;
}

double kit_uniform(unsigned long long *state, double lo, double hi)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

double kit_energy(dBodyID *b, int n)
{
    double T = 0.0;
    for (int i = 0; i < n; i++) {
        dMass m;
        dBodyGetMass(b[i], &m);
        const dReal *v = dBodyGetLinearVel(b[i]), *w = dBodyGetAngularVel(b[i]);
        const dReal *R = dBodyGetRotation(b[i]);
        double wb[3];
        for (int a = 0; a < 3; a++) wb[a] = R[a] * w[0] + R[4 + a] * w[1] + R[8 + a] * w[2];
        double rot = 0.0;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) rot += wb[a] * m.I[4 * a + c] * wb[c];
        T += 0.5 * (m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + rot);
    }
    return T;
}

dContact kit_contact(const double p[3], const double n[3], double depth, double mu, double e,
                     double bounce_vel)
{
    dContact c;
    memset(&c, 0, sizeof c);
    c.surface.mode = dContactApprox1;
    c.surface.mu = mu;
    if (e > 0.0) {
        c.surface.mode |= dContactBounce;
        c.surface.bounce = e;
        c.surface.bounce_vel = bounce_vel;
    }
    for (int a = 0; a < 3; a++) {
        c.geom.pos[a] = p[a];
        c.geom.normal[a] = n[a];
    }
    c.geom.depth = depth;
    return c;
}

int kit_collide(ipx_ode_context *ipx, dWorldID world, dJointGroupID group,
                const dSurfaceParameters *surface, dGeomID a, dGeomID b)
{
    dContactGeom g[8];
    const int n = dCollide(a, b, 8, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface = *surface;
        c.geom = g[i];
        ipx_ode_contact(ipx, world, group, &c, dGeomGetBody(a), dGeomGetBody(b));
    }
    return n;
}

/* Bodies joined by a joint do not collide (as in ODE's demos). */
void kit_sink(dBodyID *b, int n, const double side[3], double depth)
{
    double lowest = 1e9;
    for (int c = 0; c < 8; c++) {
        dVector3 p;
        dBodyGetRelPointPos(b[0], (c & 1 ? 0.5 : -0.5) * side[0], (c & 2 ? 0.5 : -0.5) * side[1],
                            (c & 4 ? 0.5 : -0.5) * side[2], p);
        lowest = fmin(lowest, p[2]);
    }
    for (int i = 0; i < n; i++) {
        const dReal *x = dBodyGetPosition(b[i]);
        dBodySetPosition(b[i], x[0], x[1], x[2] - lowest - depth);
    }
}

static void kit_near(void *data, dGeomID a, dGeomID b)
{
    kit_sim *s = data;
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (ba && bb && dAreConnectedExcluding(ba, bb, dJointTypeContact)) return;
    kit_collide(s->ipx, s->world, s->group, &s->surface, a, b);
}

int kit_sim_make(kit_sim *s, const char *model, const char *params,
                 const dSurfaceParameters *surface, int quick)
{
    char msg[256];
    dRandSetSeed(
        1); /* QuickStep reorders its rows with ODE's global generator: same runs, same order */
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    s->space = dSimpleSpaceCreate(0);
    dCreatePlane(s->space, 0, 0, 1, 0);
    s->group = dJointGroupCreate(0);
    s->ipx = ipx_ode_create(s->world);
    s->surface = *surface;
    s->quick = quick;
    if (ipx_ode_configure(s->ipx, model, params, msg, sizeof msg) != 0) {
        fprintf(stderr, "  kit_sim_make: %s\n", msg);
        return -1;
    }
    return 0;
}

void kit_sim_step(kit_sim *s, double h)
{
    dSpaceCollide(s->space, s, kit_near);
    if (s->quick) ipx_ode_quick_step(s->ipx, h);
    else ipx_ode_step(s->ipx, h);
    ipx_ode_empty_group(s->ipx, s->group);
}

void kit_sim_free(kit_sim *s)
{
    ipx_ode_destroy(s->ipx);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

void kit_finish(ipx_ode_context *ipx, dJointGroupID group, dWorldID world)
{
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(world);
}
