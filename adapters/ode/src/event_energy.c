/* The kinetic energies an event reports (docs/ode-adapter.md "Trace lines"), and the frame
   they are taken in.

   A moving kinematic body's prescribed motion does work on the island: a platform that carries
   a box along, a paddle that strikes it. The world frame's kinetic energy of the island's
   dynamic bodies can then rise while every contact dissipates (ODE's demo_kinematic: a box
   landing on a platform driven round a circle). Taken relative to that body's own rigid motion
   (every body's velocity less the kinematic body's velocity field, v - V - w x (x - x_k), its
   angular velocity less w), the kinematic body is at rest and the balance holds again: the
   contacts' and joints' relative velocities are the same there, and so are the impulses, so an
   impulse does the work it does in the contact space (pi . (v_before + v_after) / 2), which the
   model keeps from gaining. An impact is an instant, so any rigid motion serves; a compliant
   event lasts a host step, over which only a translating frame is inertial. */
#include <math.h>

#include "internal.h"

/* The rigid motion of kinematic body i of the island from its velocities u (6 per body). */
static void kinematic_motion(const ipx_ode_context *ctx, const double *u, int i, ipx_ode_frame *f)
{
    const dReal *x = dBodyGetPosition(ctx->isl.body[i]);
    for (int a = 0; a < 3; a++) {
        f->v[a] = u[6 * i + a];
        f->w[a] = u[6 * i + 3 + a];
        f->x[a] = x[a];
    }
}

/* The velocity at point p of the frame's rigid motion, into vp. */
static void frame_point_velocity(const ipx_ode_frame *f, const double p[3], double vp[3])
{
    const double r[3] = {p[0] - f->x[0], p[1] - f->x[1], p[2] - f->x[2]};
    vp[0] = f->v[0] + f->w[1] * r[2] - f->w[2] * r[1];
    vp[1] = f->v[1] + f->w[2] * r[0] - f->w[0] * r[2];
    vp[2] = f->v[2] + f->w[0] * r[1] - f->w[1] * r[0];
}

/* 1 if two rigid motions are the same velocity field (to round-off of their sizes): a's
   velocity at b's point and a's angular velocity against b's. */
static int same_motion(const ipx_ode_frame *a, const ipx_ode_frame *b)
{
    double va[3], size = 0.0, diff = 0.0;
    frame_point_velocity(a, b->x, va);
    for (int i = 0; i < 3; i++) {
        size = fmax(size, fmax(fabs(va[i]), fabs(a->w[i])));
        diff = fmax(diff, fmax(fabs(va[i] - b->v[i]), fabs(a->w[i] - b->w[i])));
    }
    return diff <= 1e-12 * size;
}

static int nonzero(const double a[3]) { return a[0] != 0.0 || a[1] != 0.0 || a[2] != 0.0; }

void ipx_ode_event_frame(const ipx_ode_context *ctx, const double *u, int whole_step,
                         ipx_ode_frame *f)
{
    *f = (ipx_ode_frame){.kind = IPX_ODE_FRAME_WORLD};
    for (int i = 0; i < ctx->isl.n_body; i++) {
        if (!dBodyIsKinematic(ctx->isl.body[i])) continue;
        ipx_ode_frame k = {.kind = IPX_ODE_FRAME_KINEMATIC};
        kinematic_motion(ctx, u, i, &k);
        if (!nonzero(k.v) && !nonzero(k.w)) continue;
        if (f->kind == IPX_ODE_FRAME_WORLD) {
            *f = k;
        } else if (!same_motion(f, &k)) { /* moving apart: no frame holds both at rest */
            *f = (ipx_ode_frame){.kind = IPX_ODE_FRAME_UNBALANCED};
            return;
        }
    }
    if (f->kind == IPX_ODE_FRAME_KINEMATIC && whole_step && nonzero(f->w))
        *f = (ipx_ode_frame){.kind = IPX_ODE_FRAME_UNBALANCED}; /* not inertial over a step */
}

double ipx_ode_island_energy(const ipx_ode_context *ctx, const double *u, const ipx_ode_frame *f)
{
    const int relative = f->kind == IPX_ODE_FRAME_KINEMATIC;
    double T = 0.0;
    for (int i = 0; i < ctx->isl.n_body; i++) {
        dBodyID b = ctx->isl.body[i];
        if (!ipx_ode_dynamic(b)) continue;
        const dReal *x = dBodyGetPosition(b);
        const double at[3] = {x[0], x[1], x[2]};
        double rel[6], vf[3] = {0.0, 0.0, 0.0};
        if (relative) frame_point_velocity(f, at, vf);
        for (int a = 0; a < 3; a++) {
            rel[a] = u[6 * i + a] - vf[a];
            rel[3 + a] = u[6 * i + 3 + a] - (relative ? f->w[a] : 0.0);
        }
        T += 0.5 * ipx_ode_mass_dot(b, rel, rel);
    }
    return T;
}

double ipx_ode_frame_momentum_work(const ipx_ode_context *ctx, const double *du,
                                   const ipx_ode_frame *f)
{
    if (f->kind != IPX_ODE_FRAME_KINEMATIC) return 0.0;
    double work = 0.0;
    for (int i = 0; i < ctx->isl.n_body; i++) {
        dBodyID b = ctx->isl.body[i];
        if (!ipx_ode_dynamic(b)) continue;
        dMass m;
        dBodyGetMass(b, &m);
        for (int a = 0; a < 3; a++) work += m.mass * du[6 * i + a] * f->v[a];
    }
    return work;
}
