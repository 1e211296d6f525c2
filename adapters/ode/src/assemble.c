/* From a gathered island to a solved contact-space problem: body masses and velocities, joint
   and contact rows, joint elimination (core constrained.c), the model, and the velocity change.
   Nothing here writes to the world. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "kinematics.h"

static int finite_n(const dReal *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* inverse of a symmetric positive definite 3x3 (ODE's row-major 3x4 layout); 0 on success */
static int invert_inertia(const dReal I[12], double inv[3][3])
{
    double a = I[0], b = I[1], c = I[2], d = I[5], e = I[6], f = I[10];
    double A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
    double det = a * A + b * B + c * C;
    if (!(det > 0.0) || !isfinite(det)) return -1;
    double D = a * f - c * c, E = b * c - a * e, F = a * d - b * b;
    double m[3][3] = {{A, B, C}, {B, D, E}, {C, E, F}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) inv[i][j] = m[i][j] / det;
    return 0;
}

/* inv_mass, world inverse inertia R I^-1 R^T and velocity of one body; kinematic bodies get
   zero inverse mass (they keep their velocity through the impact). */
static int read_body(dBodyID b, ipx_body *out, double u[6], char *msg, size_t size)
{
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    const dReal *R = dBodyGetRotation(b), *x = dBodyGetPosition(b);
    if (!finite_n(v, 3) || !finite_n(w, 3) || !finite_n(R, 12) || !finite_n(x, 3)) {
        snprintf(msg, size, "body %p: velocity (%g, %g, %g | %g, %g, %g) or pose is not finite",
                 (void *)b, v[0], v[1], v[2], w[0], w[1], w[2]);
        return -1;
    }
    for (int a = 0; a < 3; a++) {
        u[a] = v[a];
        u[3 + a] = w[a];
        out->com[a] = x[a];
    }
    memset(out->inv_inertia, 0, sizeof out->inv_inertia);
    out->inv_mass = 0.0;
    if (dBodyIsKinematic(b)) return 0;
    dMass m;
    dBodyGetMass(b, &m);
    double inv[3][3];
    if (!(m.mass > 0.0) || !isfinite(m.mass) || invert_inertia(m.I, inv) != 0) {
        snprintf(msg, size, "body %p: mass %g or inertia is not positive definite", (void *)b,
                 m.mass);
        return -1;
    }
    out->inv_mass = 1.0 / m.mass;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) s += R[4 * i + p] * inv[p][q] * R[4 * j + q];
            out->inv_inertia[i + 3 * j] = s;
        }
    return 0;
}

int ipx_ode_assembly_reserve(assembly *as, int k)
{
    if (k <= as->cap_contact) return 0;
    const size_t n = 3 * (size_t)k;
    void *p[] = {
        realloc(as->contact_row, n * sizeof *as->contact_row),
        realloc(as->v, n * sizeof *as->v),
        realloc(as->param, (size_t)k * sizeof *as->param),
        realloc(as->rows_a, n * sizeof *as->rows_a),
        realloc(as->rows_b, n * sizeof *as->rows_b),
        realloc(as->per_contact, IPX_ODE_PER_CONTACT * (size_t)k * sizeof *as->per_contact),
        realloc(as->state, (size_t)k * sizeof *as->state),
        realloc(as->slot, (size_t)k * sizeof *as->slot)};
    /* each pointer that moved is kept, so that a later free or retry sees valid memory */
    if (p[0]) as->contact_row = p[0];
    if (p[1]) as->v = p[1];
    if (p[2]) as->param = p[2];
    if (p[3]) as->rows_a = p[3];
    if (p[4]) as->rows_b = p[4];
    if (p[5]) as->per_contact = p[5];
    if (p[6]) as->state = p[6];
    if (p[7]) as->slot = p[7];
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (!p[i]) return -1;
    as->cap_contact = k;
    return 0;
}

/* W of k contacts, (3k)^2 doubles: only islands whose dense problem is built need it. */
static int reserve_W(assembly *as, int k)
{
    if (k <= as->cap_W) return 0;
    const size_t n = 3 * (size_t)k;
    double *W = realloc(as->W, n * n * sizeof *W);
    if (!W) return -1;
    as->W = W;
    as->cap_W = k;
    return 0;
}

int ipx_ode_reserve_work(assembly *as, size_t need)
{
    if (need <= as->cap_work) return 0;
    int cap = 0;
    void *p = as->work;
    if (need > (size_t)INT_MAX || ipx_ode_grow(&p, &cap, (int)need, sizeof(double)) != 0) return -1;
    as->work = p;
    as->cap_work = (size_t)cap;
    return 0;
}

void ipx_ode_assembly_free(assembly *as)
{
    free(as->body);
    free(as->u);
    free(as->u_post);
    free(as->du);
    free(as->du_free);
    free(as->u_end);
    free(as->dx);
    free(as->joint_row);
    free(as->joint_first);
    free(as->work);
    free(as->contact_row);
    free(as->W);
    free(as->W_start);
    free(as->W_row);
    free(as->W_blk);
    free(as->v);
    free(as->param);
    free(as->rows_a);
    free(as->rows_b);
    free(as->per_contact);
    free(as->state);
    free(as->slot);
}

static int grow_bodies(assembly *as, int n)
{
    if (n <= as->cap_body) return 0;
    int cap = as->cap_body;
    if (ipx_ode_grow((void **)&as->body, &cap, n, sizeof *as->body) != 0) return -1;
    int c2 = 6 * as->cap_body, c3 = c2, c4 = c2, c5 = c2, c6 = c2, c7 = c2;
    if (ipx_ode_grow((void **)&as->u, &c2, 6 * cap, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&as->u_post, &c3, 6 * cap, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&as->du, &c4, 6 * cap, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&as->du_free, &c5, 6 * cap, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&as->u_end, &c6, 6 * cap, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&as->dx, &c7, 6 * cap, sizeof(double)) != 0)
        return -1;
    as->cap_body = cap;
    return 0;
}

/* A 12-entry row from rows.c as a core row with the island's body indices. */
static ipx_row core_row(const island *is, dBodyID b1, dBodyID b2, const double J[12])
{
    ipx_row r;
    const dBodyID b[2] = {b1, b2};
    for (int s = 0; s < 2; s++) {
        r.body[s] = b[s] ? ipx_ode_map_get(&is->body_index, b[s]) : -1;
        memcpy(r.J[s], J + 6 * s, 6 * sizeof(double));
    }
    return r;
}

static int joint_rows(ipx_ode_context *ctx, char *msg, size_t size)
{
    island *is = &ctx->isl;
    assembly *as = &ctx->as;
    as->n_joint_row = 0;
    if (ipx_ode_grow((void **)&as->joint_first, &as->cap_joint_first, is->n_joint + 1,
                     sizeof *as->joint_first) != 0) {
        snprintf(msg, size, "out of memory for %d joints", is->n_joint);
        return -1;
    }
    for (int k = 0; k < is->n_joint; k++) {
        double J[IPX_ODE_MAX_JOINT_ROWS][12];
        dJointID j = is->joint[k];
        as->joint_first[k] = as->n_joint_row;
        int n = ipx_ode_joint_rows(j, J, IPX_ODE_MAX_JOINT_ROWS, msg, size);
        if (n < 0) return -1;
        if (ipx_ode_grow((void **)&as->joint_row, &as->cap_joint_row, as->n_joint_row + n,
                         sizeof *as->joint_row) != 0) {
            snprintf(msg, size, "out of memory for %d joint rows", as->n_joint_row + n);
            return -1;
        }
        for (int i = 0; i < n; i++)
            as->joint_row[as->n_joint_row++] =
                core_row(is, dJointGetBody(j, 0), dJointGetBody(j, 1), J[i]);
    }
    as->joint_first[is->n_joint] = as->n_joint_row;
    return 0;
}

int ipx_ode_reproject_joints(ipx_ode_context *ctx, double *scratch)
{
    assembly *as = &ctx->as;
    char msg[256];
    if (as->n_joint_row == 0 || joint_rows(ctx, msg, sizeof msg) != 0) return -1;
    as->system.n_joint_rows = as->n_joint_row;
    as->system.joint_row = as->joint_row;
    if (ipx_constrained_factor(&as->system, as->work, NULL, msg, sizeof msg) != IPX_OK) return -1;
    ipx_constrained_project(&as->system, as->u_post, scratch, as->work);
    return 0;
}

/* A finite friction coefficient for the core: dInfinity (no slip) as mu_infinity. */
static double friction_coefficient(const ipx_ode_config *cfg, dReal mu)
{
    return mu == dInfinity ? cfg->mu_infinity : mu;
}

/* Gazebo's meaning of the surface parameters (ode.h). dInfinity stays infinite for a model that
   takes it (ipx_model.takes_infinite_mu: a contact that never slides), else mu_infinity. */
static ipx_contact contact_params(const ipx_ode_context *ctx, const dSurfaceParameters *s)
{
    const ipx_ode_config *cfg = &ctx->config;
    ipx_contact c = {0.0, 0.0, 0.0, cfg->v_plastic};
    /* a negative or NaN mu is passed on: the core's validation names it */
    c.mu = s->mu == dInfinity && ctx->params.model->takes_infinite_mu
               ? INFINITY
               : friction_coefficient(cfg, s->mu);
    if ((s->mode & dContactBounce) && s->bounce_vel >= 0.0) {
        c.e = s->bounce;
        c.v_capture = s->bounce_vel;
    }
    return c;
}

static int contact_rows(ipx_ode_context *ctx, char *msg, size_t size)
{
    island *is = &ctx->isl;
    assembly *as = &ctx->as;
    for (int k = 0; k < is->n_contact; k++) {
        const contact_record *r = &ctx->store.rec[is->contact[k]];
        double J[3][12];
        if (ipx_ode_contact_rows(&r->contact, r->body[0], r->body[1], J) != 0) {
            ipx_ode_contact_valid(&r->contact, msg, size);
            return -1;
        }
        const dSurfaceParameters *s = &r->contact.surface;
        if ((s->mode & dContactMu2) && !(s->mu2 >= 0.0)) { /* mu's own: the core's validation */
            snprintf(msg, size, "contact %d: friction mu2 = %g (dContactMu2) %s", k, (double)s->mu2,
                     isnan(s->mu2) ? "is not a number" : "is negative");
            return -1;
        }
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++)
            as->contact_row[IPX_ROWS_PER_CONTACT * k + i] =
                core_row(is, r->body[0], r->body[1], J[i]);
        as->param[k] = contact_params(ctx, s);
    }
    return 0;
}

static int read_bodies(ipx_ode_context *ctx, char *msg, size_t size)
{
    island *is = &ctx->isl;
    assembly *as = &ctx->as;
    if (grow_bodies(as, is->n_body) != 0) {
        snprintf(msg, size, "out of memory for %d bodies", is->n_body);
        return -1;
    }
    for (int i = 0; i < is->n_body; i++)
        if (read_body(is->body[i], &as->body[i], as->u + 6 * i, msg, size) != 0) return -1;
    return 0;
}

int ipx_ode_assemble_rows(ipx_ode_context *ctx, char *msg, size_t size)
{
    island *is = &ctx->isl;
    assembly *as = &ctx->as;
    if (ipx_ode_assembly_reserve(as, is->n_contact) != 0) {
        snprintf(msg, size, "out of memory for an island of %d contacts", is->n_contact);
        return -1;
    }
    if (read_bodies(ctx, msg, size) != 0 || joint_rows(ctx, msg, size) != 0 ||
        contact_rows(ctx, msg, size) != 0)
        return -1;
    as->system = (ipx_constrained){is->n_body,
                                   as->body,
                                   as->n_joint_row,
                                   as->joint_row,
                                   IPX_ROWS_PER_CONTACT * is->n_contact,
                                   as->contact_row};
    return 0;
}

/* The contact velocities relative to the contacts' surface motions (ipx_ode_surface_motion): a
   conveyor's belt, a platform that the program moves as a static geom. */
static void less_surface_motion(ipx_ode_context *ctx)
{
    for (int k = 0; k < ctx->isl.n_contact; k++) {
        double m[IPX_ROWS_PER_CONTACT];
        if (!ipx_ode_island_motion(ctx, k, m)) continue;
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++)
            ctx->as.v[IPX_ROWS_PER_CONTACT * k + i] -= m[i];
    }
}

/* ODE's second friction coefficient (dContactMu2: ODE's pyramid bounds |f_t1| by mu f_n and
   |f_t2| by mu2 f_n). The models' friction is a circular cone; where mu and mu2 differ, a
   contact's cone is the ellipse (pi_t1 / mu)^2 + (pi_t2 / mu2)^2 <= pi_n^2, solved as the circle
   of the larger coefficient in rows scaled by d (1, but the smaller coefficient's row: their
   ratio): pi = d pi', v' = d v, W' = D W D. That keeps pi . v and pi . W pi, and friction against
   the slip in the scaled rows is the ellipse's maximal dissipation. Where the smaller
   coefficient is 0 (friction along one direction only), its row is scaled by 0: that row's
   slip is 0 in the scaled rows, so no friction acts there, and the other row's friction is
   bounded by its coefficient and opposes its own slip, as ODE's row with mu2 = 0 does. Contact
   k's d into d (3) and the larger coefficient into *mu; 0 if d is 1 on every row. */
static int cone_scale(const ipx_ode_context *ctx, int k, double d[IPX_ROWS_PER_CONTACT], double *mu)
{
    const dSurfaceParameters *s = &ctx->store.rec[ctx->isl.contact[k]].contact.surface;
    d[IPX_T1] = d[IPX_T2] = d[IPX_N] = 1.0;
    if (!(s->mode & dContactMu2)) return 0;
    const double mu1 = friction_coefficient(&ctx->config, s->mu);
    const double mu2 = friction_coefficient(&ctx->config, s->mu2);
    /* a negative or NaN mu is left as it is for the core's validation to name */
    if (!(mu1 >= 0.0 && mu2 >= 0.0 && isfinite(mu1) && isfinite(mu2)) || mu1 == mu2) return 0;
    if (mu2 < mu1) d[IPX_T2] = mu2 / mu1;
    else d[IPX_T1] = mu1 / mu2;
    *mu = fmax(mu1, mu2);
    return 1;
}

/* The elliptic cones of cone_scale in the problem (dense W, or its blocks): mu the larger
   coefficient, v and W scaled. Not for a compliant model, whose bristles would be scaled too. */
static void elliptic_cones(ipx_ode_context *ctx)
{
    assembly *as = &ctx->as;
    const int k = ctx->isl.n_contact, n = IPX_ROWS_PER_CONTACT * k;
    int any = 0;
    for (int c = 0; c < k; c++) {
        double d[IPX_ROWS_PER_CONTACT];
        if (!cone_scale(ctx, c, d, &as->param[c].mu)) continue;
        any = 1;
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++) as->v[IPX_ROWS_PER_CONTACT * c + i] *= d[i];
        if (as->problem.W)
            for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++) {
                const size_t a = (size_t)(IPX_ROWS_PER_CONTACT * c + i);
                if (d[i] == 1.0) continue;
                for (size_t j = 0; j < (size_t)n; j++) {
                    as->W[a + (size_t)n * j] *= d[i];
                    as->W[j + (size_t)n * a] *= d[i];
                }
            }
    }
    if (!any || as->problem.W) return;
    for (int j = 0; j < k; j++) {
        double dj[IPX_ROWS_PER_CONTACT], di[IPX_ROWS_PER_CONTACT], mu;
        cone_scale(ctx, j, dj, &mu);
        for (int b = as->W_start[j]; b < as->W_start[j + 1]; b++) {
            cone_scale(ctx, as->W_row[b], di, &mu);
            for (int r = 0; r < IPX_ROWS_PER_CONTACT; r++)
                for (int c = 0; c < IPX_ROWS_PER_CONTACT; c++)
                    as->W_blk[9 * (size_t)b + r + IPX_ROWS_PER_CONTACT * c] *= di[r] * dj[c];
        }
    }
}

/* The impulse of the scaled rows back in the contact's own: pi = d pi'. The result's v_post
   stays in the scaled rows, as the problem's v and W do (the handback's bound compares the
   two; the normal rows, which the handback and the event read, are not scaled). */
static void elliptic_impulse(ipx_ode_context *ctx)
{
    for (int c = 0; c < ctx->isl.n_contact; c++) {
        double d[IPX_ROWS_PER_CONTACT], mu;
        if (!cone_scale(ctx, c, d, &mu)) continue;
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++)
            ctx->as.result.impulse[IPX_ROWS_PER_CONTACT * c + i] *= d[i];
    }
}

/* W as blocks: O(blocks) memory and time, where the dense W is O(k^2) (40 MB at 750 contacts). */
static int assemble_blocks(ipx_ode_context *ctx, char *msg, size_t size)
{
    assembly *as = &ctx->as;
    const int k = ctx->isl.n_contact;
    if (ipx_constrained_prepare(&as->system, as->u_post, as->v, as->work, &as->info, msg, size) !=
        IPX_OK)
        return -1;
    const int nnz = ipx_constrained_block_count(&as->system, as->work); /* 3 rows a contact here */
    if (ipx_ode_grow((void **)&as->W_start, &as->cap_W_start, k + 1, sizeof(int)) != 0 ||
        ipx_ode_grow((void **)&as->W_row, &as->cap_W_row, nnz, sizeof(int)) != 0 ||
        nnz > INT_MAX / 9 ||
        ipx_ode_grow((void **)&as->W_blk, &as->cap_W_blk, 9 * nnz, sizeof(double)) != 0) {
        snprintf(msg, size, "out of memory for the %d blocks of W of an island of %d contacts", nnz,
                 k);
        return -1;
    }
    if (ipx_constrained_blocks(&as->system, as->work, as->W_start, as->W_row, as->W_blk, msg,
                               size) != IPX_OK)
        return -1;
    as->W_blocks = (ipx_wsparse){nnz, as->W_start, as->W_row, as->W_blk};
    less_surface_motion(ctx);
    /* J P J^T of bodies whose masses and inertias read_body found positive definite */
    as->problem = (ipx_problem){.k = k,
                                .v = as->v,
                                .contact = as->param,
                                .flags = IPX_PROBLEM_W_ASSEMBLED,
                                .Ws = &as->W_blocks};
    elliptic_cones(ctx);
    return 0;
}

int ipx_ode_assemble(ipx_ode_context *ctx, char *msg, size_t size)
{
    island *is = &ctx->isl;
    assembly *as = &ctx->as;
    if (ipx_ode_assemble_rows(ctx, msg, size) != 0) return -1;
    size_t need =
        ipx_constrained_work_doubles(is->n_body, as->n_joint_row, as->system.n_contact_rows);
    if (ipx_ode_reserve_work(as, need) != 0) {
        snprintf(msg, size, "out of memory for the joint elimination (%zu doubles)", need);
        return -1;
    }
    memcpy(as->u_post, as->u, 6 * (size_t)is->n_body * sizeof(double));
    if (!ctx->compliant && ipx_model_reads_blocks(&ctx->params, is->n_contact))
        return assemble_blocks(ctx, msg, size);
    if (reserve_W(as, is->n_contact) != 0) {
        snprintf(msg, size, "out of memory for the W of an island of %d contacts", is->n_contact);
        return -1;
    }
    if (ipx_constrained_assemble(&as->system, as->u_post, as->W, as->v, as->work, &as->info, msg,
                                 size) != IPX_OK)
        return -1;
    less_surface_motion(ctx);
    /* J P J^T of bodies whose masses and inertias read_body found positive definite */
    as->problem = (ipx_problem){.k = is->n_contact,
                                .W = as->W,
                                .v = as->v,
                                .contact = as->param,
                                .flags = IPX_PROBLEM_W_ASSEMBLED};
    if (!ctx->compliant) elliptic_cones(ctx);
    return 0;
}

/* Largest |x| over n entries. */
static double max_abs(const double *x, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

int ipx_ode_solve(ipx_ode_context *ctx, char *msg, size_t size)
{
    assembly *as = &ctx->as;
    const int nb = 6 * ctx->isl.n_body;
    /* a compliant step hands back its mean impulse before ODE's step and the rest after it
       (see ipx_gonthier_step); an impact all of its impulse before */
    double *mean = as->rows_a;
    if (ipx_ode_reserve_workspace(ctx, &as->problem, msg, size) != 0) return -1;
    const double *before = NULL;
    /* the accuracy the host holds at its resting contacts (types.h, docs/ode-adapter.md) */
    as->problem.v_tol = ctx->config.accuracy_steps * ipx_ode_gravity_speed(ctx, ctx->step_h);
    if (ctx->compliant) {
        if (ipx_ode_compliant_solve(ctx, mean, msg, size) != 0) return -1;
        before = mean;
    } else if (ipx_solve(&ctx->params, &as->problem, ctx->ws, &as->result) != IPX_OK) {
        snprintf(msg, size, "model %s: %s", ctx->params.model->name, as->result.message);
        return -1;
    } else {
        elliptic_impulse(ctx);
        before = as->result.impulse;
    }
    ipx_constrained_delta_u(&as->system, before, as->du, as->work);
    for (int i = 0; i < nb; i++) as->u_post[i] += as->du[i];
    for (int i = 0; i < nb; i++)
        if (!isfinite(as->u_post[i])) {
            snprintf(msg, size, "the post-impact velocity of body %p is not finite",
                     (void *)ctx->isl.body[i / 6]);
            return -1;
        }
    double residual = ipx_constrained_joint_residual(&as->system, as->u_post);
    double tol = 1e-6 * (1.0 + max_abs(as->u_post, nb));
    if (residual > tol) {
        snprintf(msg, size,
                 "post-impact joint residual %.3g exceeds %.3g (inconsistent joint rows)", residual,
                 tol);
        return -1;
    }
    if (residual > ctx->stats.max_joint_residual) ctx->stats.max_joint_residual = residual;
    return ctx->compliant ? ipx_ode_compliant_defer(ctx, mean, msg, size) : 0;
}
