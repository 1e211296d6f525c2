#include "contacts.h"

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
    }
}
