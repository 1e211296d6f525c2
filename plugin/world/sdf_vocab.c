/* Elements the parsers do not handle: what SDF 1.6 defines where, which of them are harmless to
   skip, and the message for each case. */
#include <stdio.h>
#include <string.h>

#include "sdf_read.h"

/* What a stock Gazebo world carries that does not change impax's physics (rendering, sensing,
   plugins, other engines' settings, the wall clock). */
static const char *const harmless[] = {"light",
                                       "scene",
                                       "gui",
                                       "plugin",
                                       "visual",
                                       "sensor",
                                       "audio",
                                       "audio_source",
                                       "audio_sink",
                                       "battery",
                                       "projector",
                                       "enable_wind",
                                       "allow_auto_disable",
                                       "must_be_base_link",
                                       "laser_retro",
                                       "real_time_factor",
                                       "real_time_update_rate",
                                       "magnetic_field",
                                       "atmosphere",
                                       "spherical_coordinates",
                                       "wind",
                                       "population",
                                       "road",
                                       "actor",
                                       "self_collide_model",
                                       "max_step_size_warning",
                                       "bullet",
                                       "simbody",
                                       "dart",
                                       "soft_contact",
                                       "gripper"};

/* SDF 1.6's children of each element impax reads. A key "a/b" is element b inside a; "state:b"
   is b inside a <state>; a plain key is the element anywhere else. */
static const struct {
    const char *parent, *children;
} vocabulary[] = {
    {"sdf", "world model actor light"},
    {"world", "audio wind include gravity magnetic_field atmosphere gui physics scene light model "
              "actor plugin road "
              "spherical_coordinates state population"},
    {"world/physics",
     "max_step_size real_time_factor real_time_update_rate max_contacts simbody bullet ode dart"},
    {"physics/ode", "solver constraints"},
    {"solver",
     "type min_step_size island_threads iters precon_iters sor thread_position_correction "
     "use_dynamic_moi_rescaling friction_model"},
    {"constraints", "cfm erp contact_max_correcting_vel contact_surface_layer"},
    {"model", "static self_collide allow_auto_disable include model enable_wind frame pose link "
              "joint plugin gripper"},
    {"link", "gravity enable_wind self_collide kinematic must_be_base_link velocity_decay frame "
             "pose inertial "
             "collision visual sensor projector audio_sink audio_source battery"},
    {"velocity_decay", "linear angular"},
    {"inertial", "mass frame pose inertia"},
    {"inertia", "ixx ixy ixz iyy iyz izz"},
    {"collision", "laser_retro max_contacts frame pose geometry surface"},
    {"box", "size"},
    {"sphere", "radius"},
    {"cylinder", "radius length"},
    {"capsule", "radius length"},
    {"plane", "normal size"},
    {"surface", "bounce friction contact soft_contact"},
    {"bounce", "restitution_coefficient threshold"},
    {"friction", "torsional ode bullet"},
    {"torsional", "coefficient use_patch_radius patch_radius surface_radius ode"},
    {"torsional/ode", "slip"},
    {"friction/ode", "mu mu2 fdir1 slip1 slip2"},
    {"contact",
     "collide_without_contact collide_without_contact_bitmask collide_bitmask category_bitmask "
     "poissons_ratio elastic_modulus ode bullet"},
    {"contact/ode", "soft_cfm soft_erp kp kd max_vel min_depth"},
    {"joint", "parent child gearbox_ratio gearbox_reference_body thread_pitch axis axis2 physics "
              "frame pose sensor"},
    {"joint/physics", "simbody ode provide_feedback"},
    {"axis", "initial_position xyz use_parent_model_frame dynamics limit"},
    {"axis2", "initial_position xyz use_parent_model_frame dynamics limit"},
    {"dynamics", "damping friction spring_reference spring_stiffness"},
    {"axis/limit", "lower upper effort velocity stiffness dissipation"},
    {"axis2/limit", "lower upper effort velocity stiffness dissipation"},
    {"include", "uri name static pose plugin"},
    {"state", "sim_time wall_time real_time iterations insertions deletions model light"},
    {"state:model", "joint model frame pose scale link"},
    {"state:link", "velocity acceleration wrench collision frame pose"},
    {"state:joint", "angle"},
};

static const char *name_of(const xmlNode *n) { return n && n->name ? (const char *)n->name : ""; }

static int in_state(const xmlNode *n)
{
    for (; n && n->type == XML_ELEMENT_NODE; n = n->parent)
        if (strcmp(name_of(n), "state") == 0) return 1;
    return 0;
}

/* The children SDF 1.6 allows in parent, or NULL if impax's table does not describe it. */
static const char *children_of(const xmlNode *parent)
{
    char key[160];
    const int n = (int)(sizeof vocabulary / sizeof vocabulary[0]);
    const char *name = name_of(parent);
    if (in_state(parent) && strcmp(name, "state") != 0) snprintf(key, sizeof key, "state:%s", name);
    else snprintf(key, sizeof key, "%s/%s", name_of(parent->parent), name);
    for (int i = 0; i < n; i++)
        if (strcmp(vocabulary[i].parent, key) == 0) return vocabulary[i].children;
    if (strchr(key, ':')) return NULL;
    for (int i = 0; i < n; i++)
        if (strcmp(vocabulary[i].parent, name) == 0) return vocabulary[i].children;
    return NULL;
}

/* 1 if the space-separated list holds word. */
static int listed(const char *list, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

static int warn_harmless(sdf_ctx *ctx, const xmlNode *node)
{
    const char *name = name_of(node);
    for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++) {
        if (strcmp(name, harmless[i]) != 0) continue;
        for (int w = 0; w < ctx->n_warned; w++)
            if (strcmp(ctx->warned[w], name) == 0) return 1;
        if (ctx->n_warned < 32)
            snprintf(ctx->warned[ctx->n_warned++], sizeof ctx->warned[0], "%s", name);
        sdf_warn(ctx, node,
                 "<%s> ignored: it does not change the physics (further ones not reported)", name);
        return 1;
    }
    return 0;
}

/* The parent's name as written in the file: "impax:replay" for an extension. */
static void shown_name(const xmlNode *n, char *out, size_t size)
{
    const int impax = n->ns && n->ns->href && strcmp((const char *)n->ns->href, IMPAX_SDF_NS) == 0;
    snprintf(out, size, "%s%s", impax ? "impax:" : "", name_of(n));
}

void sdf_unhandled(sdf_ctx *ctx, const xmlNode *node)
{
    char parent[96];
    const char *name = name_of(node);
    shown_name(node->parent, parent, sizeof parent);
    if (node->ns && node->ns->href && strcmp((const char *)node->ns->href, IMPAX_SDF_NS) == 0) {
        sdf_error(ctx, node, "unknown impax extension <impax:%s> in <%s>", name, parent);
        return;
    }
    const char *known = node->ns ? NULL : children_of(node->parent);
    if (!node->ns && (!known || listed(known, name)) && warn_harmless(ctx, node)) return;
    if (known && listed(known, name))
        sdf_error(ctx, node, "<%s> in <%s> is not supported by impax (it would change the physics)",
                  name, parent);
    else if (known)
        sdf_error(ctx, node, "unknown element <%s> in <%s> (SDF 1.6 allows: %s)", name, parent,
                  known);
    else sdf_error(ctx, node, "unknown element <%s> in <%s>", name, parent);
}
