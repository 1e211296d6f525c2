#include "contacts.h"

#include <math.h>
#include <string.h>

void client_near(void *data, dGeomID a, dGeomID b)
{
    client_contacts *s = data;
    dContactGeom g[8];
    const int n = dCollide(a, b, 8, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface = s->surface;
        c.geom = g[i];
        dJointID j = dJointCreateContact(s->world, s->group, &c);
        dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
        if (s->feedback && s->n_feedback < s->max_feedback) {
            client_feedback *f = &s->feedback[s->n_feedback++];
            f->joint = j;
            dJointSetFeedback(j, &f->fb);
        }
    }
}

int client_feedback_finite(const client_contacts *s, double *largest)
{
    int finite = 1;
    *largest = 0.0;
    for (int i = 0; i < s->n_feedback; i++) {
        const dJointFeedback *f = &s->feedback[i].fb;
        const dReal *v[4] = {f->f1, f->t1, f->f2, f->t2};
        const dJointID j = s->feedback[i].joint;
        const int vectors = dJointGetBody(j, 0) && dJointGetBody(j, 1) ? 4 : 2;
        for (int k = 0; k < vectors; k++)
            for (int a = 0; a < 3; a++) finite &= isfinite(v[k][a]) != 0;
        *largest =
            fmax(*largest, sqrt(f->f1[0] * f->f1[0] + f->f1[1] * f->f1[1] + f->f1[2] * f->f1[2]));
    }
    return finite;
}
