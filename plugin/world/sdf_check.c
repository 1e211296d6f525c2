/* Checks of the whole scene once it is read: names unique in their scope, and every world
   position in the range ODE's collision space can hold. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "sdf_parse.h"

typedef struct named {
    int scope; /* a link's index for its collisions, 0 for everything else */
    const char *name;
    int line;
} named;

static int by_scope_name_line(const void *a, const void *b)
{
    const named *x = a, *y = b;
    if (x->scope != y->scope) return x->scope < y->scope ? -1 : 1;
    const int c = strcmp(x->name, y->name);
    if (c) return c;
    return (x->line > y->line) - (x->line < y->line);
}

/* Sorts the n names and reports every one that repeats an earlier one of its scope. */
static void report_duplicates(sdf_load *ld, named *list, int n, const char *what, const char *scope)
{
    qsort(list, (size_t)n, sizeof *list, by_scope_name_line);
    for (int i = 1, first = 0; i < n; i++) {
        if (list[i].scope != list[first].scope || strcmp(list[i].name, list[first].name) != 0) {
            first = i;
            continue;
        }
        sdf_error_at(&ld->diag, list[i].line,
                     "%s '%s' is defined twice, at lines %d and %d (%s names must be "
                     "unique within %s)",
                     what, list[i].name, list[first].line, list[i].line, what, scope);
    }
}

static void check_names(sdf_load *ld)
{
    const ipx_scene *s = ld->scene;
    int most = s->n_models;
    if (s->n_links > most) most = s->n_links;
    if (s->n_collisions > most) most = s->n_collisions;
    if (s->n_joints > most) most = s->n_joints;
    named *list = malloc((size_t)(most ? most : 1) * sizeof *list);
    if (!list) {
        sdf_out_of_memory(&ld->diag);
        return;
    }
    for (int i = 0; i < s->n_models; i++)
        list[i] = (named){0, sdf_s(s->models[i].name), s->models[i].line};
    report_duplicates(ld, list, s->n_models, "model", "the world or their enclosing model");
    for (int i = 0; i < s->n_links; i++)
        list[i] = (named){0, sdf_s(s->links[i].name), s->links[i].line};
    report_duplicates(ld, list, s->n_links, "link", "a model");
    for (int i = 0; i < s->n_joints; i++)
        list[i] = (named){0, sdf_s(s->joints[i].name), s->joints[i].line};
    report_duplicates(ld, list, s->n_joints, "joint", "a model");
    for (int i = 0; i < s->n_collisions; i++)
        list[i] =
            (named){s->collisions[i].link, sdf_s(s->collisions[i].name), s->collisions[i].line};
    report_duplicates(ld, list, s->n_collisions, "collision", "a link");
    free(list);
}

/* 1 if every coordinate of p is within RANGE_POSITION, else an error naming the item. */
static int position_ok(sdf_load *ld, int line, const char *what, const char *name,
                       const double p[3])
{
    for (int i = 0; i < 3; i++)
        if (!(fabs(p[i]) <= RANGE_POSITION)) {
            sdf_error_at(&ld->diag, line,
                         "%s '%s' is at %c = %g m in the world: positions must be within +-%g m "
                         "(ODE's collision space)",
                         what, name, "xyz"[i], p[i], RANGE_POSITION);
            return 0;
        }
    return 1;
}

static void check_positions(sdf_load *ld)
{
    const ipx_scene *s = ld->scene;
    for (int i = 0; i < s->n_links; i++) {
        const scene_link *l = &s->links[i];
        if (position_ok(ld, l->line, "link", sdf_s(l->name), l->pose.p))
            position_ok(ld, l->line, "the centre of mass of link", sdf_s(l->name), l->inertial.p);
    }
    for (int i = 0; i < s->n_collisions; i++)
        position_ok(ld, s->collisions[i].line, "collision", sdf_s(s->collisions[i].name),
                    s->collisions[i].pose.p);
    for (int i = 0; i < s->n_joints; i++)
        position_ok(ld, s->joints[i].line, "the anchor of joint", sdf_s(s->joints[i].name),
                    s->joints[i].anchor);
}

void sdf_check_scene(sdf_load *ld)
{
    check_names(ld);
    check_positions(ld);
}
