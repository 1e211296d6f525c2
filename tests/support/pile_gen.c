#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pile_gen.h"

#define PI 3.14159265358979323846
#define PITCH 0.2                   /* m, cell size of a bin layer (a nominal box is 0.2 m) */
#define GRAVITY_STEP (9.81 * 0.001) /* m/s: what one 1 ms step of gravity adds */

ipx_pile_options ipx_pile_default_options(ipx_pile_kind kind)
{
    ipx_pile_options o = {kind, IPX_PILE_SETTLED, 5, 8, 1.0, 0.6};
    return o;
}

typedef struct box {
    double lo[3], hi[3]; /* axis-aligned extent, m */
    int body;
} box;

typedef struct builder {
    ipx_pile *s;
    const ipx_pile_options *opt;
    ipx_rng *rng;
    int k_target, k, bodies_cap;
    ipx_contact material;
} builder;

static int full(const builder *b) { return b->k >= b->k_target; }

/* A contact frame with normal n (unit, from body1 to body2) and tangents turned about n by a
   random angle (frame invariance: the solvers must not care). */
static void add_contact(builder *b, int body1, int body2, const double p[3], const double n[3])
{
    if (full(b)) return;
    ipx_contact_frame *f = &b->s->frames[b->k];
    f->body1 = body1, f->body2 = body2;
    double t1[3], t2[3], a = ipx_rng_uniform(b->rng, 0.0, 2.0 * PI), c = cos(a), sn = sin(a);
    ipx_frame_from_normal(n, t1, t2);
    for (int d = 0; d < 3; d++) {
        f->point[d] = p[d];
        f->n[d] = n[d];
        f->t1[d] = c * t1[d] + sn * t2[d];
        f->t2[d] = -sn * t1[d] + c * t2[d];
    }
    b->s->contact[b->k] = b->material;
    b->k++;
}

/* A box body of these extents (mass log-uniform in [1, mass_ratio] kg), yawed a little. */
static int add_box(builder *b, box *x)
{
    ipx_pile *s = b->s;
    if (s->n_bodies >= b->bodies_cap) return -1;
    double h[3], c[3];
    for (int d = 0; d < 3; d++) {
        h[d] = 0.5 * (x->hi[d] - x->lo[d]);
        c[d] = 0.5 * (x->hi[d] + x->lo[d]);
    }
    double m = exp(ipx_rng_uniform(b->rng, 0.0, log(b->opt->mass_ratio)));
    double yaw = ipx_rng_uniform(b->rng, -0.05, 0.05), cy = cos(yaw), sy = sin(yaw);
    const double R[9] = {cy, sy, 0.0, -sy, cy, 0.0, 0.0, 0.0, 1.0};
    const double I[3] = {m / 3.0 * (h[1] * h[1] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[1] * h[1])};
    x->body = s->n_bodies;
    s->bodies[s->n_bodies++] = ipx_body_make(m, I, R, c);
    return 0;
}

/* Contacts of box `top` on `below` (NULL: the ground): 1..4 corners of the overlap of the two
   footprints (a tilted box touches at fewer points than a flat one). */
static void support(builder *b, const box *top, const box *below)
{
    double lo[2], hi[2];
    for (int d = 0; d < 2; d++) {
        lo[d] = below ? fmax(top->lo[d], below->lo[d]) : top->lo[d];
        hi[d] = below ? fmin(top->hi[d], below->hi[d]) : top->hi[d];
    }
    if (!(hi[0] - lo[0] > 0.01 && hi[1] - lo[1] > 0.01)) return;
    double u = ipx_rng_uniform(b->rng, 0.0, 1.0);
    int points = u < 0.55 ? 4 : u < 0.7 ? 3 : u < 0.9 ? 2 : 1;
    static const int corner[4][2] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    const double n[3] = {0.0, 0.0, 1.0};
    for (int i = 0; i < points; i++) {
        const double p[3] = {corner[i][0] ? hi[0] : lo[0], corner[i][1] ? hi[1] : lo[1],
                             top->lo[2]};
        add_contact(b, below ? below->body : -1, top->body, p, n);
    }
}

/* Two contacts on the face shared by boxes a and c side by side along axis `ax` (a on the low
   side; a NULL is a wall of the bin, the world). */
static void side(builder *b, const box *a, const box *c, int ax)
{
    const box *any = a ? a : c;
    const int other = 1 - ax;
    double lo = any->lo[other], hi = any->hi[other], zlo = any->lo[2], zhi = any->hi[2];
    if (a && c) {
        lo = fmax(a->lo[other], c->lo[other]), hi = fmin(a->hi[other], c->hi[other]);
        zlo = fmax(a->lo[2], c->lo[2]), zhi = fmin(a->hi[2], c->hi[2]);
    }
    if (!(hi - lo > 0.01 && zhi - zlo > 0.01)) return;
    double n[3] = {0.0, 0.0, 0.0};
    n[ax] = 1.0;
    const double face = a ? a->hi[ax] : c->lo[ax], z = ipx_rng_uniform(b->rng, zlo, zhi);
    for (int i = 0; i < 2; i++) {
        double p[3];
        p[ax] = face;
        p[other] = i ? hi : lo;
        p[2] = z;
        add_contact(b, a ? a->body : -1, c ? c->body : -1, p, n);
    }
}

/* One layer of a bin: `side` x `side` cells, odd layers shifted by half a cell in x (brick bond:
   one box fewer per row, each resting on two below). `below` (count nb) is the layer under it. */
static int bin_layer(builder *b, int layer, const box *below, int nb, box *out, int *nout)
{
    const int S = b->opt->side, shift = layer % 2;
    const int nx = shift ? S - 1 : S;
    int count = 0;
    for (int j = 0; j < S && !full(b); j++)
        for (int i = 0; i < nx && !full(b); i++) {
            box *x = &out[count];
            double cx = PITCH * (i + 0.5 + 0.5 * shift) + ipx_rng_uniform(b->rng, -0.01, 0.01);
            double cy = PITCH * (j + 0.5) + ipx_rng_uniform(b->rng, -0.01, 0.01);
            double hx = ipx_rng_uniform(b->rng, 0.085, 0.1),
                   hy = ipx_rng_uniform(b->rng, 0.085, 0.1);
            double hz = ipx_rng_uniform(b->rng, 0.08, 0.1);
            x->lo[0] = cx - hx, x->hi[0] = cx + hx, x->lo[1] = cy - hy, x->hi[1] = cy + hy;
            double base = 0.0; /* rests on the highest top under its footprint */
            for (int q = 0; q < nb; q++)
                if (below[q].lo[0] < x->hi[0] && below[q].hi[0] > x->lo[0] &&
                    below[q].lo[1] < x->hi[1] && below[q].hi[1] > x->lo[1])
                    base = fmax(base, below[q].hi[2]);
            x->lo[2] = base, x->hi[2] = base + 2.0 * hz;
            if (add_box(b, x)) return -1;
            count++;
            if (layer == 0) support(b, x, NULL);
            for (int q = 0; q < nb; q++)
                if (below[q].lo[0] < x->hi[0] && below[q].hi[0] > x->lo[0] &&
                    below[q].lo[1] < x->hi[1] && below[q].hi[1] > x->lo[1])
                    support(b, x, &below[q]);
            /* neighbours already placed in this layer (left, front) and the bin's walls */
            const double p_touch = 0.3;
            if (i > 0 && ipx_rng_uniform(b->rng, 0, 1) < p_touch) side(b, &out[count - 2], x, 0);
            if (j > 0 && ipx_rng_uniform(b->rng, 0, 1) < p_touch)
                side(b, &out[count - 1 - nx], x, 1);
            if (i == 0 && ipx_rng_uniform(b->rng, 0, 1) < p_touch) side(b, NULL, x, 0);
            if (j == 0 && ipx_rng_uniform(b->rng, 0, 1) < p_touch) side(b, NULL, x, 1);
            if (i == nx - 1 && ipx_rng_uniform(b->rng, 0, 1) < p_touch) {
                /* the far wall (the world) pushes in -x at one point */
                const double n[3] = {-1.0, 0.0, 0.0};
                const double p[3] = {x->hi[0], 0.5 * (x->lo[1] + x->hi[1]),
                                     0.5 * (x->lo[2] + x->hi[2])};
                add_contact(b, -1, x->body, p, n);
            }
        }
    *nout = count;
    return 0;
}

static int build_bin(builder *b)
{
    const int S = b->opt->side;
    box *layers = malloc(sizeof(box) * 2 * (size_t)S * (size_t)S);
    if (!layers) return -1;
    box *below = layers, *cur = layers + S * S;
    int nb = 0;
    for (int layer = 0; !full(b); layer++) {
        int n = 0;
        if (bin_layer(b, layer, below, nb, cur, &n)) {
            free(layers);
            return -1;
        }
        box *t = below;
        below = cur, cur = t, nb = n;
    }
    free(layers);
    return 0;
}

static int build_stack(builder *b)
{
    const int S = b->opt->side;
    for (int t = 0; !full(b); t++) {
        const double cx = 0.3 * (t % S), cy = 0.3 * ((t / S) % S), cz = 0.0;
        box below = {{0}, {0}, -1};
        double z = cz;
        for (int level = 0; level < b->opt->tower && !full(b); level++) {
            box x;
            double hx = ipx_rng_uniform(b->rng, 0.085, 0.1),
                   hy = ipx_rng_uniform(b->rng, 0.085, 0.1);
            double hz = ipx_rng_uniform(b->rng, 0.08, 0.1);
            double ox = ipx_rng_uniform(b->rng, -0.02, 0.02),
                   oy = ipx_rng_uniform(b->rng, -0.02, 0.02);
            x.lo[0] = cx + ox - hx, x.hi[0] = cx + ox + hx, x.lo[1] = cy + oy - hy,
            x.hi[1] = cy + oy + hy;
            x.lo[2] = z, x.hi[2] = z + 2.0 * hz;
            if (add_box(b, &x)) return -1;
            support(b, &x, level == 0 ? NULL : &below);
            below = x;
            z = x.hi[2];
        }
    }
    return 0;
}

static void velocities(builder *b)
{
    ipx_pile *s = b->s;
    for (int i = 0; i < s->n_bodies; i++) {
        double *u = s->body_vel + 6 * i;
        if (b->opt->motion == IPX_PILE_CHURNING) {
            for (int a = 0; a < 3; a++) u[a] = 0.5 * ipx_rng_normal(b->rng);
            for (int a = 3; a < 6; a++) u[a] = 2.0 * ipx_rng_normal(b->rng);
            continue;
        }
        for (int a = 0; a < 3; a++) u[a] = 1e-3 * ipx_rng_normal(b->rng);
        for (int a = 3; a < 6; a++) u[a] = 1e-2 * ipx_rng_normal(b->rng);
        u[2] -= GRAVITY_STEP;
    }
    if (b->opt->motion == IPX_PILE_CHURNING) return;
    /* strikers: 1..3 of the last boxes made (the top of a bin, the tops of the last towers) */
    int strikers = 1 + (int)(ipx_rng_next(b->rng) % 3u);
    for (int j = 0; j < strikers && j < s->n_bodies; j++) {
        int i = b->opt->kind == IPX_PILE_STACK ? s->n_bodies - 1 - j * b->opt->tower
                                               : s->n_bodies - 1 - j;
        if (i < 0) break;
        double *u = s->body_vel + 6 * i;
        double down = ipx_rng_uniform(b->rng, 0.5, 3.0),
               slip = down * ipx_rng_uniform(b->rng, 0.0, 1.0);
        double dir = ipx_rng_uniform(b->rng, 0.0, 2.0 * PI);
        u[0] = slip * cos(dir), u[1] = slip * sin(dir), u[2] = -down;
        for (int a = 3; a < 6; a++) u[a] = down / 0.1 * ipx_rng_uniform(b->rng, -0.3, 0.3);
    }
}

/* One side of a contact as the impact sees it: 3 rows [t1 t2 n] x (linear, angular), signed so
   that the rows give the velocity of body2 relative to body1, and the same rows times the
   body's inverse mass and inertia. */
typedef struct side_rows {
    double J[3][6], MJ[3][6];
} side_rows;

static void side_of(const ipx_pile *s, int i, int which, side_rows *r)
{
    const ipx_contact_frame *f = &s->frames[i];
    const int body = which ? f->body2 : f->body1;
    const double sign = which ? 1.0 : -1.0;
    const ipx_body *B = &s->bodies[body];
    const double *dirs[3] = {f->t1, f->t2, f->n};
    double rr[3];
    for (int a = 0; a < 3; a++) rr[a] = f->point[a] - B->com[a];
    for (int row = 0; row < 3; row++) {
        const double *d = dirs[row];
        double ang[3] = {rr[1] * d[2] - rr[2] * d[1], rr[2] * d[0] - rr[0] * d[2],
                         rr[0] * d[1] - rr[1] * d[0]};
        for (int a = 0; a < 3; a++) {
            r->J[row][a] = sign * d[a];
            r->J[row][3 + a] = sign * ang[a];
            r->MJ[row][a] = B->inv_mass * sign * d[a];
        }
        for (int a = 0; a < 3; a++) {
            double x = 0.0;
            for (int c = 0; c < 3; c++) x += B->inv_inertia[a + 3 * c] * sign * ang[c];
            r->MJ[row][3 + a] = x;
        }
    }
}

/* W = sum over bodies of J_b M_b^-1 J_b^T, body by body (only contact pairs sharing a body),
   and v = J u. */
static int assemble(ipx_pile *s)
{
    const int k = s->k, n = 3 * k, nb = s->n_bodies;
    memset(s->W, 0, sizeof(double) * (size_t)n * (size_t)n);
    memset(s->v, 0, sizeof(double) * (size_t)n);
    int *count = calloc((size_t)nb + 1, sizeof(int)), *list = malloc(sizeof(int) * 2 * (size_t)k);
    side_rows *rows = malloc(sizeof(side_rows) * 2 * (size_t)k);
    if (!count || !list || !rows) {
        free(count), free(list), free(rows);
        return -1;
    }
    for (int i = 0; i < k; i++)
        for (int w = 0; w < 2; w++) {
            int body = w ? s->frames[i].body2 : s->frames[i].body1;
            if (body >= 0) count[body + 1]++;
        }
    for (int b = 0; b < nb; b++) count[b + 1] += count[b];
    int *fill = malloc(sizeof(int) * ((size_t)nb + 1));
    if (!fill) {
        free(count), free(list), free(rows);
        return -1;
    }
    memcpy(fill, count, sizeof(int) * ((size_t)nb + 1));
    for (int i = 0; i < k; i++)
        for (int w = 0; w < 2; w++) {
            int body = w ? s->frames[i].body2 : s->frames[i].body1;
            if (body < 0) continue;
            side_of(s, i, w, &rows[2 * i + w]);
            list[fill[body]++] = 2 * i + w;
            const double *u = s->body_vel + 6 * body;
            for (int r = 0; r < 3; r++)
                for (int a = 0; a < 6; a++) s->v[3 * i + r] += rows[2 * i + w].J[r][a] * u[a];
        }
    for (int b = 0; b < nb; b++)
        for (int x = count[b]; x < count[b + 1]; x++)
            for (int y = count[b]; y < count[b + 1]; y++) {
                const side_rows *ri = &rows[list[x]], *rj = &rows[list[y]];
                const int i = list[x] / 2, j = list[y] / 2;
                for (int c = 0; c < 3; c++)
                    for (int r = 0; r < 3; r++) {
                        double w = 0.0;
                        for (int a = 0; a < 6; a++) w += ri->J[r][a] * rj->MJ[c][a];
                        s->W[(3 * i + r) + (size_t)n * (3 * j + c)] += w;
                    }
            }
    /* symmetrise exactly (the two products differ in the last bit) */
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++) {
            double a = 0.5 * (s->W[i + (size_t)n * j] + s->W[j + (size_t)n * i]);
            s->W[i + (size_t)n * j] = s->W[j + (size_t)n * i] = a;
        }
    s->blocks = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            int nz = 0;
            for (int c = 0; c < 3 && !nz; c++)
                for (int r = 0; r < 3 && !nz; r++)
                    nz = s->W[(3 * i + r) + (size_t)n * (3 * j + c)] != 0.0;
            s->blocks += nz;
        }
    free(count), free(list), free(rows), free(fill);
    return 0;
}

int ipx_pile_make(ipx_pile *s, int k, const ipx_pile_options *opt, ipx_rng *rng)
{
    memset(s, 0, sizeof *s);
    if (k < 1) return -1;
    const int cap = k + 16; /* every box adds at least one contact, except at most one per layer */
    s->bodies = malloc(sizeof(ipx_body) * (size_t)cap);
    s->frames = malloc(sizeof(ipx_contact_frame) * (size_t)k);
    s->body_vel = malloc(sizeof(double) * 6 * (size_t)cap);
    s->W = malloc(sizeof(double) * 9 * (size_t)k * (size_t)k);
    s->v = malloc(sizeof(double) * 3 * (size_t)k);
    s->contact = malloc(sizeof(ipx_contact) * (size_t)k);
    if (!s->bodies || !s->frames || !s->body_vel || !s->W || !s->v || !s->contact) {
        ipx_pile_free(s);
        return -1;
    }
    builder b = {.s = s, .opt = opt, .rng = rng, .k_target = k, .k = 0, .bodies_cap = cap};
    b.material.mu = opt->mu >= 0.0 ? opt->mu : ipx_rng_uniform(rng, 0.0, 1.0);
    b.material.e = 0.3;
    b.material.v_capture = 0.05;
    int st = opt->kind == IPX_PILE_STACK ? build_stack(&b) : build_bin(&b);
    if (st) { /* more boxes than contacts + 16: cannot happen with the rules above */
        ipx_pile_free(s);
        return -1;
    }
    s->k = b.k;
    velocities(&b);
    if (assemble(s)) {
        ipx_pile_free(s);
        return -1;
    }
    int approaching = 0;
    for (int i = 0; i < k; i++) approaching |= s->v[3 * i + IPX_N] < 0.0;
    if (!approaching) { /* something must hit */
        for (int i = 0; i < 6 * s->n_bodies; i++) s->body_vel[i] = -s->body_vel[i];
        for (int i = 0; i < 3 * k; i++) s->v[i] = -s->v[i];
    }
    s->problem.k = k;
    s->problem.W = s->W;
    s->problem.v = s->v;
    s->problem.contact = s->contact;
    return 0;
}

void ipx_pile_free(ipx_pile *s)
{
    free(s->bodies), free(s->frames), free(s->body_vel), free(s->W), free(s->v), free(s->contact);
    memset(s, 0, sizeof *s);
}
